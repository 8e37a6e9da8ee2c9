import CEspeakNG
import SSML
import SpkProtocol
import Synchronization
import Glibc

/// espeak-ng through its C API (libespeak-ng), in synchronous mode.
///
/// espeak-ng is a process-wide singleton: one engine per process, shared by every plugin
/// instance, and a lock around each use. It is initialised with `espeakINITIALIZE_DONT_EXIT`
/// so that missing data is an error instead of a call to `exit()` inside the host.
public final class EspeakEngine: SpeechEngine, @unchecked Sendable {
    public let name = "espeak-ng"
    public let sampleRate: Double
    public let voices: [Voice]
    /// spk identifier -> espeak-ng voice file identifier (`gmw/en-US`).
    private let files: [String: String]
    private static let lock = Mutex(())
    /// The voice files that names given to `withVoice` load (`en-us` is `gmw/en-US`).
    nonisolated(unsafe) private static var namedVoiceFiles: [String: String] = [:]

    public static let pluginURI = SpkURI.espeakPlugin
    public static let defaultVoice = "spk.espeak-ng.en-us"

    nonisolated(unsafe) private static var sharedEngine: Result<EspeakEngine, any Error>?

    /// The settings espeak-ng has now (under `lock`), or nil after a voice was loaded.
    private struct Parameters: Equatable { var rate, pitch, range: Int32 }
    nonisolated(unsafe) private static var parameters: Parameters?

    /// The process's engine, initialised on first use.
    public static func shared() throws -> EspeakEngine {
        try lock.withLock { _ in
            if sharedEngine == nil { sharedEngine = Result { try EspeakEngine() } }
            return try sharedEngine!.get()
        }
    }

    /// Runs `body` holding espeak-ng, initialised and with the voice `name` loaded, for another
    /// user of the library in this process (the neural engine's phonemizer). Loading a voice
    /// reads files (about 6 ms): it is done only when another voice was loaded last.
    static func withVoice<T>(_ name: String, _ body: () throws -> T) throws -> T {
        _ = try shared()
        return try lock.withLock { _ in
            if namedVoiceFiles[name] == nil || namedVoiceFiles[name] != currentVoiceFile() {
                guard espeak_SetVoiceByName(name) == EE_OK else { throw SpeechError("espeak-ng has no voice '\(name)'") }
                namedVoiceFiles[name] = currentVoiceFile()
                parameters = nil  // loading a voice resets espeak-ng's settings
            }
            return try body()
        }
    }

    /// The voice file espeak-ng has loaded, as espeak-ng says: loading one reads files, so only
    /// on a change, and another plugin library in the process may have changed it.
    private static func currentVoiceFile() -> String? {
        espeak_GetCurrentVoice()?.pointee.identifier.map { String(cString: $0) }
    }

    private init() throws(SpeechError) {
        // 20 ms buffers: the first audio of a request is handed on after 20 ms of speech is made.
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 20, nil, espeakINITIALIZE_DONT_EXIT)
        guard rate > 0 else { throw SpeechError("espeak-ng could not start (is espeak-ng-data installed?)") }
        sampleRate = Double(rate)
        espeak_SetSynthCallback(espeakSynthCallback)
        (voices, files) = Self.listVoices()
    }

    private static func listVoices() -> ([Voice], [String: String]) {
        var voices: [Voice] = []
        var files: [String: String] = [:]
        guard let list = espeak_ListVoices(nil) else { return ([], [:]) }
        var index = 0
        while let entry = list[index] {
            index += 1
            let v = entry.pointee
            guard let idPointer = v.identifier else { continue }
            let file = String(cString: idPointer)
            // mbrola voices need the mbrola program and its databases, which spk does not ship.
            if file.hasPrefix("mb/") { continue }
            let short = (file.split(separator: "/").last.map(String.init) ?? file).lowercased()
            let identifier = "spk.espeak-ng.\(short)"
            guard files[identifier] == nil else { continue }
            let languages = parseLanguages(v.languages)
            let name = v.name.map { String(cString: $0).replacingUnderscores() } ?? short
            voices.append(Voice(identifier: identifier, name: name,
                                primaryLanguages: Array(languages.prefix(1)), supportedLanguages: languages,
                                gender: v.gender == 1 ? .male : v.gender == 2 ? .female : .unspecified,
                                age: Int(v.age), plugin: pluginURI))
            files[identifier] = file
        }
        voices.sort { $0.identifier < $1.identifier }
        return (voices, files)
    }

    /// espeak's language list: a priority byte, then a NUL-terminated name, repeated; a 0 ends it.
    private static func parseLanguages(_ pointer: UnsafePointer<CChar>?) -> [String] {
        guard var p = pointer else { return [] }
        var result: [String] = []
        while p.pointee != 0 {
            p += 1  // priority
            let tag = String(cString: p)
            p += tag.utf8.count + 1
            if !tag.isEmpty { result.append(LanguageTag.normalized(tag)) }
        }
        return result
    }

    public func synthesize(_ text: SynthesisText, voice: Voice, prosody: EngineProsody,
                           emit: (SynthesisOutput) throws -> Bool) throws {
        guard let file = files[voice.identifier] else { throw SpeechError("unknown voice '\(voice.identifier)'") }
        var (input, flags) = Self.espeakInput(for: text)
        // Within a run, espeak-ng reads the piece with the word that follows it, so that the
        // piece ends with the pause espeak-ng makes before that word (at the end of its input it
        // makes another), and stops where that word starts.
        var lookahead: Int?
        if !text.endsRun, !text.following.isEmpty, flags & espeakSSML == 0, flags & espeakPHONEMES == 0 {
            lookahead = input.utf8.count + 1
            input += " " + text.following
        }
        try withoutActuallyEscaping(emit) { emit in
            let context = CallbackContext(text: input, emit: emit, wholeRun: text.spellOut || text.phonemes != nil,
                                          start: text.start, stopAt: lookahead)
            try Self.lock.withLock { _ in
                if Self.currentVoiceFile() != file {
                    guard espeak_SetVoiceByName(file) == EE_OK else { throw SpeechError("espeak-ng could not load voice \(file)") }
                    Self.parameters = nil
                }
                // A run is spoken a sentence at a time with the same settings: espeak-ng works out
                // its speed tables again whenever the rate is set, so only changes are set.
                let wanted = Parameters(rate: Self.wordsPerMinute(prosody.rate), pitch: Self.pitchParameter(prosody, voice: voice),
                                        range: Int32((50 * prosody.pitchRange).rounded().clamped(0, 100)))
                if Self.parameters != wanted {
                    espeak_SetParameter(espeakRATE, wanted.rate, 0)
                    espeak_SetParameter(espeakPITCH, wanted.pitch, 0)
                    espeak_SetParameter(espeakRANGE, wanted.range, 0)
                    espeak_SetParameter(espeakVOLUME, 100, 0)  // loudness is applied by the renderer, exactly
                    Self.parameters = wanted
                }
                let status = withExtendedLifetime(context) {
                    input.withCString { cString in
                        espeak_Synth(cString, input.utf8.count + 1, 0, POS_CHARACTER, 0, UInt32(flags), nil,
                                     Unmanaged.passUnretained(context).toOpaque())
                    }
                }
                if let error = context.error { throw error }
                guard status == EE_OK else { throw SpeechError("espeak-ng failed to synthesize (status \(status.rawValue))") }
                if !context.stopped {
                    let rest = context.unreportedWords()
                    if !rest.boundaries.isEmpty { _ = try emit(rest) }
                }
            }
        }
    }

    /// What espeak reads, and how: spelled-out runs use espeak's own `say-as characters`, and
    /// espeak-notation phonemes go in `[[ ]]`.
    private static func espeakInput(for text: SynthesisText) -> (String, Int32) {
        let base = espeakCHARS_UTF8
        if let phonemes = text.phonemes, let espeakPhonemes = EspeakPhonemes.convert(phonemes) {
            return ("[[\(espeakPhonemes)]]", base | espeakPHONEMES)
        }
        if text.spellOut {
            return ("<say-as interpret-as=\"characters\">\(XMLEscape.text(text.text))</say-as>", base | espeakSSML)
        }
        return (text.text, base)
    }

    /// espeak speaks 175 words a minute by default; below 80 it will not go.
    static func wordsPerMinute(_ rate: Double) -> Int32 {
        Int32((175 * rate).rounded().clamped(80, 1000))
    }

    /// espeak's pitch parameter (0...100, 50 = the voice's own) for a pitch multiplier.
    /// Measured on this espeak-ng (1.51): each 25 steps above 50 raise f0 about 1.37 times, each
    /// 25 steps below lower it about 0.835 times, so 0...100 spans about 0.70x to 1.87x.
    static func pitchParameter(_ prosody: EngineProsody, voice: Voice) -> Int32 {
        var multiplier = prosody.pitch
        if let hz = prosody.pitchHz {
            // The voices' own base pitch is not published; about 100 Hz for male voices and
            // 180 Hz for female ones is what their voice files set.
            multiplier *= hz / (voice.gender == .female ? 180 : 100)
        }
        let steps = multiplier >= 1 ? 25 * log(multiplier) / log(1.37) : -25 * log(multiplier) / log(0.835)
        return Int32((50 + steps).rounded().clamped(0, 100))
    }
}

/// State shared with the C callback for one `espeak_Synth` call.
private final class CallbackContext {
    let emit: (SynthesisOutput) throws -> Bool
    /// Byte offset of each character (espeak counts characters, 1-based), plus the end.
    let byteOffsets: [Int]
    let text: [UInt8]
    let wholeRun: Bool
    var error: Error?
    /// Samples espeak-ng has made so far, and those handed on (less the silence dropped).
    private var emitted = 0
    private var delivered = 0
    /// espeak-ng opens every call with about 10 ms of digital silence. Within a run, after the
    /// first piece, it would lengthen the pause between sentences: dropped until the first sound.
    private var dropLeadingSilence: Bool

    /// Where the following word starts in the text espeak-ng reads: nothing from there on is
    /// handed on, and synthesis stops at its first event.
    let stopAt: Int?

    init(text: String, emit: @escaping (SynthesisOutput) throws -> Bool, wholeRun: Bool, start: PieceStart, stopAt: Int?) {
        self.stopAt = stopAt
        dropLeadingSilence = start != .run
        var offsets: [Int] = []
        offsets.reserveCapacity(text.unicodeScalars.count + 1)
        var byte = 0
        for scalar in text.unicodeScalars {
            offsets.append(byte)
            byte += UTF8.width(scalar)
        }
        offsets.append(byte)
        byteOffsets = offsets
        self.text = Array(text.utf8)
        aligner = EspeakWordAligner(text: self.text)
        self.emit = emit
        self.wholeRun = wholeRun
    }

    /// Where espeak-ng's character `position` (1-based) starts, in bytes.
    func byteOffset(position: Int32) -> Int { byteOffsets[min(max(Int(position) - 1, 0), byteOffsets.count - 1)] }

    /// Set when the receiver said stop (a cancel).
    var stopped = false

    /// The piece's words, one boundary each (`EspeakWordAligner`).
    var aligner: EspeakWordAligner

    /// Words espeak-ng never reported before the piece's end (or the following word), marked
    /// where its audio ends: nothing is handed on after them.
    func unreportedWords() -> SynthesisOutput {
        var out = SynthesisOutput()
        guard !wholeRun else { return out }
        for word in aligner.remaining(before: stopAt ?? text.count, sample: 0) {
            out.boundaries.append(.init(kind: .word, sample: 0, textRange: word.range))
        }
        return out
    }

    func byteRange(position: Int32, length: Int32) -> Range<Int> {
        let total = byteOffsets.count - 1
        if wholeRun { return 0..<byteOffsets[total] }
        let start = min(max(Int(position) - 1, 0), total)
        let end = min(start + max(Int(length), 0), total)
        return wordAtOrAfter(byteOffsets[start]..<byteOffsets[end])
    }

    /// espeak-ng 1.51 sometimes reports a word as the one character before it (after a full
    /// stop that does not end the sentence, "more. then" gives the space, length 1): a range
    /// without a letter or digit is moved to the word that follows it.
    private func wordAtOrAfter(_ range: Range<Int>) -> Range<Int> {
        func isWordByte(_ b: UInt8) -> Bool { b >= 0x80 || (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) }
        guard range.count > 0, !text[range].contains(where: isWordByte) else { return range }
        guard let start = text[range.lowerBound...].firstIndex(where: isWordByte) else { return range }
        let end = text[start...].firstIndex { !isWordByte($0) && $0 != UInt8(ascii: "'") } ?? text.count
        return start..<end
    }

    /// Where the following word's sound starts, in the call's samples, once its event came.
    private var stopSample: Int?

    /// Rebases the chunk, and ends the piece where the following word (`stopAt`) starts: the
    /// audio is handed on up to that word's sample, in whichever chunk it falls (an event's
    /// sample may lie past the chunk it comes with). True once it has been reached.
    func stopAtFollowingWord(_ chunk: inout SynthesisOutput) -> Bool {
        rebase(&chunk)
        let start = delivered
        defer { delivered += chunk.samples.count }
        guard let stop = stopAt else { return false }
        // The word's own event: espeak-ng reports a sentence's position where its last clause
        // starts, so a sentence event cannot tell which sentence it opens.
        if stopSample == nil, let first = chunk.boundaries.first(where: { $0.kind == .word && $0.textRange.lowerBound >= stop }) {
            stopSample = start + first.sample
        }
        guard let end = stopSample else { return false }
        chunk.boundaries.removeAll { start + $0.sample >= end }
        guard start + chunk.samples.count >= end else { return false }
        chunk.samples.removeSubrange(max(end - start, 0)...)
        return true
    }

    /// Makes a chunk's boundaries index its own samples (espeak counts from the call's start).
    func rebase(_ chunk: inout SynthesisOutput) {
        for i in chunk.boundaries.indices { chunk.boundaries[i].sample = max(0, chunk.boundaries[i].sample - emitted) }
        emitted += chunk.samples.count
        guard dropLeadingSilence else { return }
        let sound = chunk.samples.firstIndex { $0 != 0 } ?? chunk.samples.count
        chunk.samples.removeFirst(sound)
        for i in chunk.boundaries.indices { chunk.boundaries[i].sample = max(0, chunk.boundaries[i].sample - sound) }
        dropLeadingSilence = chunk.samples.isEmpty  // all silence so far: go on dropping
    }

    /// A sentence espeak starts at `position` runs through its closing punctuation (or to the
    /// end of the text): known from the text alone, so it can be reported before it is spoken.
    func sentenceRange(position: Int32) -> Range<Int> {
        let start = byteRange(position: position, length: 0).lowerBound
        var i = start
        while i < text.count {
            let c = text[i]
            i += 1
            if c == UInt8(ascii: ".") || c == UInt8(ascii: "!") || c == UInt8(ascii: "?") {
                if i == text.count || text[i] == UInt8(ascii: " ") || text[i] == UInt8(ascii: "\n") { return start..<i }
            }
        }
        return start..<text.count
    }
}

/// espeak-ng hands over each 20 ms buffer with the events that fall in it; `sample` counts from
/// the start of the `espeak_Synth` call.
private func espeakSynthCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32,
                                 _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events, let userData = events.pointee.user_data else { return 0 }
    let context = Unmanaged<CallbackContext>.fromOpaque(userData).takeUnretainedValue()
    var chunk = SynthesisOutput()
    var event = events
    while event.pointee.type != espeakEVENT_LIST_TERMINATED {
        let e = event.pointee
        switch e.type {
        case espeakEVENT_WORD where context.wholeRun:
            chunk.boundaries.append(.init(kind: .word, sample: Int(e.sample), textRange: context.byteRange(position: 0, length: 0)))
        case espeakEVENT_WORD where e.length == 0:
            break  // espeak-ng 1.51 also reports empty "words" where a clause ends: no word there
        case espeakEVENT_WORD:
            for word in context.aligner.words(at: context.byteOffset(position: e.text_position), sample: Int(e.sample)) {
                chunk.boundaries.append(.init(kind: .word, sample: word.sample, textRange: word.range))
            }
        case espeakEVENT_SENTENCE:
            chunk.boundaries.append(.init(kind: .sentence, sample: Int(e.sample),
                                          textRange: context.wholeRun ? context.byteRange(position: 0, length: 0)
                                                                      : context.sentenceRange(position: e.text_position)))
        default:
            break
        }
        event += 1
    }
    if let wav, count > 0 {
        chunk.samples = floatSamples(wav, count: Int(count))
    }
    guard !chunk.samples.isEmpty || !chunk.boundaries.isEmpty else { return 0 }
    let reachedEnd = context.stopAtFollowingWord(&chunk)
    do {
        let goOn = try context.emit(chunk)
        if !goOn { context.stopped = true }
        return goOn && !reachedEnd ? 0 : 1
    } catch {
        context.error = error
        return 1
    }
}

extension Comparable {
    func clamped(_ low: Self, _ high: Self) -> Self { min(max(self, low), high) }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}
