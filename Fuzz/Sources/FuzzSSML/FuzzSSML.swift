import SSML

/// libFuzzer's entry: any bytes as a request. The parser must return a program or throw an
/// SSMLError (one line, a position inside the request); anything else is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let request = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let program = try SSMLParser.parse(request)
        let length = request.utf8.count
        for item in program.items { check(item, length: length) }
    } catch let error as SSMLError {
        precondition(!error.description.contains("\n"), "an error on two lines: \(error)")
        precondition(error.line >= 1 && error.column >= 1, "an error without a position: \(error)")
    } catch {
        preconditionFailure("not an SSMLError: \(error)")
    }
    return 0
}

/// Every source range points inside the request, and every value is one the engines can take.
private func check(_ item: SpeechItem, length: Int) {
    switch item {
    case .text(let run):
        precondition(!run.style.rate.isNaN && run.style.rate > 0, "rate \(run.style.rate)")
        precondition(!run.style.volume.isNaN && run.style.volume >= 0, "volume \(run.style.volume)")
        if let phonemes = run.phonemes {
            precondition(phonemes.symbols.unicodeScalars.count <= SSMLLimits.maxPhonemeCharacters, "phonemes over the limit")
        }
    case .pause(let seconds, let source):
        precondition(seconds.isFinite && seconds >= 0 && seconds <= SSMLLimits.maxBreakSeconds, "break \(seconds)")
        precondition(source.offset >= 0 && source.offset + source.length <= length, "break source \(source)")
    case .mark(_, let source), .boundary(_, let source):
        precondition(source.offset >= 0 && source.offset + source.length <= length, "source \(source)")
    case .audio(let clip):
        for inner in clip.fallback { check(inner, length: length) }
    }
}
