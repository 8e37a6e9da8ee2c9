import SSML
import SpkAudio
import SpkProtocol

/// One request as the client sent it, with the plugin's control values when it arrived.
public struct SpeechRequest: Sendable {
    public var id: Int64
    public var ssml: String
    /// A voice identifier, or nil for the plugin's default voice.
    public var voice: String?
    /// Multipliers from the plugin's control ports.
    public var rate: Double
    public var pitch: Double
    /// Whether the engine's silence before the request's first sound is dropped.
    public var trimLeadingSilence: Bool
    public init(id: Int64, ssml: String, voice: String? = nil, rate: Double = 1, pitch: Double = 1,
                trimLeadingSilence: Bool = false) {
        self.id = id
        self.ssml = ssml
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.trimLeadingSilence = trimLeadingSilence
    }
}

/// A marker in rendered audio: `frame` indexes the chunk it came with.
public struct RenderedMarker: Sendable, Equatable {
    public var frame: Int
    public var type: MarkType
    public var source: SourceRange
    public var name: String?
}

public struct RenderedChunk: Sendable {
    /// Mono PCM at the output rate.
    public var samples: [Float] = []
    /// Sorted by frame; a frame may equal `samples.count` (the marker falls after this chunk).
    public var markers: [RenderedMarker] = []
}

/// Turns a request into audio at the output rate, a piece at a time, with any engine: text
/// runs are spoken a sentence at a time (`TextPieces`), breaks and `<audio>` clips go out a
/// second at a time, marks and the engine's word and sentence boundaries become markers mapped
/// back to the request's bytes. Each `next()` renders one piece, so the audio made by one call
/// is bounded (`pieceSeconds`) whatever the request's length: the caller decides how far ahead
/// of its listener it renders.
public final class ProgramRenderer {
    public let request: SpeechRequest
    public let engine: SpeechEngine
    public let catalog: VoiceCatalog
    public let outputRate: Double
    private let program: SpeechProgram
    private var requestVoice: VoiceCatalog.Resolved
    private var steps: [SpeechItem]
    private var nextStep = 0
    /// The item being rendered piece by piece.
    private var current: Cursor?
    private let resampler: Resampler
    /// Engine-rate samples fed to the resampler so far, and output frames taken from it.
    private var engineSamples = 0
    private var outputFrames = 0
    /// Markers at absolute output frames, waiting for their audio to come out of the resampler.
    private var waitingMarkers: [(frame: Int, marker: RenderedMarker)] = []
    private var spokeSomething = false
    /// Set until the request's first sound: the engine's silence before it is dropped.
    private var trimming: Bool
    public private(set) var isFinished = false

    /// A piece (a sentence) whose audio grows past this is cut where its next clause starts: the
    /// engines shape intonation clause by clause, so the cut is not heard. At the default rate
    /// most sentences are shorter and stay whole.
    public static let pieceSeconds = 8.0
    /// A piece with no clause to cut at is cut at the next word past this: the most audio one
    /// `next()` renders.
    public static let longestPieceSeconds = 16.0
    /// Breaks and clips go out this much at a time.
    static let stretchSeconds = 1.0
    /// Below this (about -90 dBFS, a 16-bit sample's last bit) a sample is silence for trimming.
    static let silenceFloor: Float = 1.0 / 32768

    private enum Cursor {
        case text(TextCursor)
        case pause(remaining: Int)
        case audio(ClipCursor)
    }

    /// Parses the request and checks its voice; throws `SSMLError` or `SpeechError`. The
    /// request's `trimLeadingSilence` drops the engine's silence before its first sound (never a
    /// `<break>` or clip that comes first), as screen readers do.
    public init(request: SpeechRequest, catalog: VoiceCatalog, outputRate: Double, defaultVoice: String) throws {
        self.request = request
        self.catalog = catalog
        engine = catalog.engine
        self.outputRate = outputRate
        program = try SSMLParser.parse(request.ssml)
        requestVoice = try catalog.resolve(request.voice ?? defaultVoice)
        steps = program.items
        resampler = try Resampler(from: engine.sampleRate, to: outputRate)
        trimming = request.trimLeadingSilence
    }

    /// The plugin's default voice changed while this request plays: a request that names no
    /// voice takes it from its next piece on (the next sentence not yet rendered).
    public func defaultVoiceChanged(to name: String) {
        guard request.voice == nil, let voice = try? catalog.resolve(name) else { return }
        requestVoice = voice
        if case .text(var text) = current, let resolved = try? self.voice(for: text.run.style) {
            text.change(voice: resolved, request: request)
            current = .text(text)
        }
    }

    /// With the engine's own voices only.
    public convenience init(request: SpeechRequest, engine: SpeechEngine, outputRate: Double, defaultVoice: String) throws {
        try self.init(request: request, catalog: VoiceCatalog(engine: engine), outputRate: outputRate, defaultVoice: defaultVoice)
    }

    /// Renders the next piece (or, after the last, flushes the resampler), handing audio on as it
    /// comes: a sentence arrives in several chunks, the first as soon as the engine has it.
    public func next(isCancelled: () -> Bool = { false }, emit: (RenderedChunk) throws -> Void) throws {
        func deliver(_ pcm: [Float], _ markers: [(sample: Int, marker: RenderedMarker)], _ speech: Bool) throws {
            try feed(pcm, markers: markers, speech: speech, final: false, isCancelled: isCancelled, emit: emit)
        }
        if current == nil {
            guard nextStep < steps.count else {
                try feed([], markers: [], speech: false, final: true, emit: emit)
                isFinished = true
                return
            }
            let item = steps[nextStep]
            nextStep += 1
            current = try begin(item, deliver: deliver)
        }
        guard let cursor = current else { return }
        switch cursor {
        case .text(var text):
            current = try speak(&text, isCancelled: isCancelled, deliver: deliver) ? nil : .text(text)
        case .pause(let remaining):
            let count = min(remaining, Int(Self.stretchSeconds * engine.sampleRate))
            try deliver([Float](repeating: 0, count: count), [], false)
            current = remaining > count ? .pause(remaining: remaining - count) : nil
        case .audio(let clip):
            let samples = try clip.next(seconds: Self.stretchSeconds)
            if !samples.isEmpty { try deliver(samples, [], false) }
            if clip.isFinished { current = nil }
        }
    }

    /// The next piece whole, in one chunk.
    public func next(isCancelled: () -> Bool = { false }) throws -> RenderedChunk {
        var whole = RenderedChunk()
        try next(isCancelled: isCancelled) { chunk in
            whole.markers += chunk.markers.map { var m = $0; m.frame += whole.samples.count; return m }
            whole.samples += chunk.samples
        }
        return whole
    }

    /// Engine-rate audio, markers at sample offsets into it, and whether it is the engine's
    /// speech (which trimming may shorten) rather than a break or a clip.
    private typealias Deliver = ([Float], [(sample: Int, marker: RenderedMarker)], Bool) throws -> Void

    /// Engine-rate samples resampled and handed on at a time. An engine that delivers a whole
    /// sentence at once (flite) is then heard once its first slice is resampled, instead of after
    /// the whole sentence is (resampling a 3-second sentence whole to 48 kHz took 23 ms with the
    /// libsamplerate spk used before libsoxr, longer than the engine's own wait; see BENCHMARKS.md).
    static let slice = 512

    /// Resamples engine-rate audio to the output rate and hands on what comes out, slice by
    /// slice, with the markers whose audio has come out (on the last chunk, all of them). A
    /// cancel stops it between slices: the rest of a cancelled request is not worth resampling.
    private func feed(_ pcm: [Float], markers: [(sample: Int, marker: RenderedMarker)], speech: Bool, final: Bool,
                      isCancelled: () -> Bool = { false }, emit: (RenderedChunk) throws -> Void) throws {
        var pcm = pcm[...]
        var markers = markers
        if trimming && !final {
            if speech {
                // The engine's silence before the first sound goes, and the markers in it move
                // to where the sound starts.
                let sound = pcm.firstIndex { abs($0) >= Self.silenceFloor } ?? pcm.endIndex
                pcm = pcm[sound...]
                markers = markers.map { (max($0.sample - sound, 0), $0.marker) }
                trimming = pcm.isEmpty
            } else if !pcm.isEmpty {
                trimming = false  // a break or clip first: kept whole, and the speech after it too
            }
        }
        let ratio = resampler.ratio
        for (sample, marker) in markers {
            waitingMarkers.append((Int((Double(engineSamples + sample) * ratio).rounded()), marker))
        }
        engineSamples += pcm.count
        // Slices let resampled audio go out early; unresampled, it goes out at once whole.
        guard pcm.count > Self.slice && !resampler.isPassthrough else { return try feedSlice(pcm, final: final, emit: emit) }
        var offset = pcm.startIndex
        while offset < pcm.endIndex {
            if offset > pcm.startIndex && isCancelled() { return }
            let end = min(offset + Self.slice, pcm.endIndex)
            try feedSlice(pcm[offset..<end], final: final && end == pcm.endIndex, emit: emit)
            offset = end
        }
    }

    private func feedSlice(_ pcm: ArraySlice<Float>, final: Bool, emit: (RenderedChunk) throws -> Void) throws {
        var chunk = RenderedChunk()
        try resampler.process(pcm, final: final, into: &chunk.samples)
        let start = outputFrames
        outputFrames += chunk.samples.count
        var kept: [(frame: Int, marker: RenderedMarker)] = []
        for waiting in waitingMarkers {
            if final || waiting.frame < outputFrames {
                var marker = waiting.marker
                marker.frame = min(max(waiting.frame - start, 0), chunk.samples.count)
                chunk.markers.append(marker)
            } else {
                kept.append(waiting)
            }
        }
        waitingMarkers = kept
        chunk.markers.sort { $0.frame < $1.frame }
        if !chunk.samples.isEmpty || !chunk.markers.isEmpty { try emit(chunk) }
    }

    private static func marker(_ type: MarkType, _ source: SourceRange, name: String? = nil) -> RenderedMarker {
        RenderedMarker(frame: 0, type: type, source: source, name: name)
    }

    /// Starts an item: marks and boundaries are delivered at once (nil: nothing left of it);
    /// text, breaks and clips return the cursor their pieces come from.
    private func begin(_ item: SpeechItem, deliver: Deliver) throws -> Cursor? {
        switch item {
        case .text(let run):
            guard run.text.contains(where: { !$0.isWhitespace }) else { return nil }
            spokeSomething = true
            return .text(try TextCursor(run: run, voice: voice(for: run.style), request: request))
        case .pause(let seconds, _):
            let samples = seconds * engine.sampleRate
            return .pause(remaining: samples.isFinite ? Int(min(max(samples, 0), Double(Int32.max)).rounded()) : 0)
        case .mark(let name, let source):
            try deliver([], [(0, Self.marker(.bookmark, source, name: name))], false)
            return nil
        case .boundary(let kind, let source):
            // A new sentence or paragraph after speech gets the pause a reader would make.
            var pause: [Float] = []
            if spokeSomething {
                let seconds = (kind == .paragraph ? 0.5 : 0.25) / max(request.rate, 0.1)
                pause = [Float](repeating: 0, count: Int(seconds * engine.sampleRate))
            }
            try deliver(pause, [(pause.count, Self.marker(kind == .paragraph ? .paragraph : .sentence, source))], false)
            return nil
        case .audio(let clip):
            do {
                let cursor = try ClipCursor(clip, engineRate: engine.sampleRate)
                spokeSomething = true
                return .audio(cursor)
            } catch let error as AudioFileError where error.isLimit {
                throw SpeechError("<audio> \(error)")  // a refused file is the request's error, not a fallback
            } catch {
                // SSML: when the audio cannot be played, its content is spoken instead.
                steps.insert(contentsOf: clip.fallback, at: nextStep)
                return nil
            }
        }
    }

    /// Speaks the run's next piece; true when the run is done. A piece whose audio grows past
    /// `pieceSeconds` is cut at the next word, where the next piece resumes.
    private func speak(_ cursor: inout TextCursor, isCancelled: () -> Bool, deliver: Deliver) throws -> Bool {
        let run = cursor.run
        let (end, endsSentence) = cursor.pieceEnd(firstClause: engine.speaksFirstClauseAlone)
        let piece = cursor.position..<end
        let last = cursor.isBlank(from: end)
        let text = SynthesisText(text: String(decoding: cursor.bytes[piece], as: UTF8.self), spellOut: run.spellOut,
                                 phonemes: run.phonemes, start: cursor.start, endsRun: last,
                                 following: last ? "" : cursor.word(after: end))
        let cap = Int(Self.pieceSeconds * engine.sampleRate), hardCap = Int(Self.longestPieceSeconds * engine.sampleRate)
        var made = 0
        // The first clause (or, past the hard cap, word) that starts past the cap, once reported:
        // where the piece is cut (at its sound, which may come later than its boundary), and
        // where the next piece resumes.
        var cut: (sample: Int, resume: Int)?
        var reachedCut = false
        var lastWord = 0
        var dropSentence = cursor.start == .midSentence
        try engine.synthesize(text, voice: cursor.voice.voice, prosody: cursor.prosody) { chunk in
            var samples = chunk.samples
            var boundaries = chunk.boundaries
            if dropSentence, let first = boundaries.firstIndex(where: { $0.kind == .sentence }) {
                boundaries.remove(at: first)  // a piece that continues a sentence starts none
                dropSentence = false
            }
            // Only a word after the last one reported can be a place to resume: text ranges are
            // the engine's word, so the piece then resumes where the audio stops.
            if cut == nil, run.phonemes == nil,
               let word = boundaries.first(where: { b in
                   b.kind == .word && b.textRange.lowerBound > lastWord && made + b.sample >= cap
                       && (made + b.sample >= hardCap || cursor.startsClause(at: piece.lowerBound + b.textRange.lowerBound))
               }) {
                cut = (made + word.sample, piece.lowerBound + word.textRange.lowerBound)
            }
            for b in boundaries where b.kind == .word && cut.map({ made + b.sample < $0.sample }) ?? true {
                lastWord = max(lastWord, b.textRange.lowerBound)
            }
            if let cut {
                boundaries.removeAll { made + $0.sample >= cut.sample }
                if made + samples.count >= cut.sample {
                    samples.removeSubrange(max(cut.sample - made, 0)...)
                    reachedCut = true
                }
            }
            let markers = boundaries.map { b in
                (b.sample, Self.marker(b.kind, run.source(ofTextBytes: (b.textRange.lowerBound + piece.lowerBound)..<(b.textRange.upperBound + piece.lowerBound))))
            }
            made += samples.count
            try deliver(cursor.gain == 1 ? samples : samples.map { $0 * cursor.gain }, markers, true)
            return !reachedCut && !isCancelled()
        }
        if reachedCut, let resume = cut?.resume {
            cursor.advance(to: resume, start: .midSentence)
            return false
        }
        cursor.advance(to: end, start: endsSentence ? .sentence : .midSentence)
        return last
    }
}

/// A text run being spoken piece by piece, with its voice and delivery worked out once.
private struct TextCursor {
    let run: TextRun
    let bytes: [UInt8]
    private(set) var voice: VoiceCatalog.Resolved
    private(set) var prosody = EngineProsody()
    private(set) var gain: Float = 1
    /// Where the next piece starts in the run's text, and what precedes it.
    private(set) var position = 0
    private(set) var start = PieceStart.run

    init(run: TextRun, voice: VoiceCatalog.Resolved, request: SpeechRequest) throws {
        self.run = run
        bytes = Array(run.text.utf8)
        self.voice = voice
        change(voice: voice, request: request)
    }

    /// Speaks the rest of the run with `voice`, its prosody and loudness worked out again.
    mutating func change(voice: VoiceCatalog.Resolved, request: SpeechRequest) {
        self.voice = voice
        let style = run.style
        let emphasis = EmphasisProsody(style.emphasis)
        prosody = EngineProsody(rate: style.rate * request.rate * emphasis.rate * voice.rate,
                                pitch: style.pitch * request.pitch * emphasis.pitch * voice.pitch,
                                pitchHz: style.pitchHz, pitchRange: style.pitchRange * emphasis.range)
        gain = Float(style.volume * emphasis.volume * voice.volume)
    }

    /// Phonemes are one piece: they cannot be cut without being read wrongly.
    func pieceEnd(firstClause: Bool) -> (Int, Bool) {
        guard run.phonemes == nil else { return (bytes.count, true) }
        return bytes.withUnsafeBufferPointer { TextPieces.end(in: $0, from: position, firstClause: firstClause && start == .run) }
    }

    /// Whether nothing but white space follows `index` (looks no further than the first word).
    func isBlank(from index: Int) -> Bool {
        var i = index
        while i < bytes.count {
            if !Self.isSpace(bytes[i]) { return false }
            i += 1
        }
        return true
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Whether a clause starts at `index`: punctuation that ends one (`,` `;` `:` and the like)
    /// before it, past white space.
    func startsClause(at index: Int) -> Bool {
        var i = index - 1
        while i >= 0 && Self.isSpace(bytes[i]) { i -= 1 }
        return i >= 0 && Self.clauseEnds.contains(bytes[i])
    }

    private static let clauseEnds = Set(",;:.!?)\"".utf8)

    /// The first word after `index` (at most 64 bytes of it).
    func word(after index: Int) -> String {
        var start = index
        while start < bytes.count && Self.isSpace(bytes[start]) { start += 1 }
        var end = start
        while end < bytes.count && end - start < 64 && !Self.isSpace(bytes[end]) { end += 1 }
        while end < bytes.count && end > start && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    mutating func advance(to position: Int, start: PieceStart) {
        self.position = position
        self.start = start
    }
}

/// An `<audio>` clip read a second at a time and brought to the engine's rate.
private final class ClipCursor {
    private let file: AudioFileStream
    private let resampler: Resampler?
    private let gain: Float
    private(set) var isFinished = false

    init(_ clip: AudioClip, engineRate: Double) throws {
        file = try AudioFileStream(path: clip.path)
        resampler = Double(file.sampleRate) == engineRate ? nil : try Resampler(from: Double(file.sampleRate), to: engineRate)
        gain = Float(clip.style.volume)
    }

    func next(seconds: Double) throws -> [Float] {
        let read = file.read(max(Int(seconds * Double(file.sampleRate)), 1))
        isFinished = read.isEmpty
        var samples = read
        if let resampler {
            samples = []
            try resampler.process(read, final: isFinished, into: &samples)
        }
        return gain == 1 ? samples : samples.map { $0 * gain }
    }
}

extension ProgramRenderer {
    /// The voice for a run, from its `<voice>` attributes and language.
    fileprivate func voice(for style: Style) throws -> VoiceCatalog.Resolved {
        try catalog.choose(style.voice, language: style.language ?? program.language, requestVoice: requestVoice)
    }
}

/// How `<emphasis>` changes delivery: stronger is slower, higher, louder and more lively.
struct EmphasisProsody {
    var rate = 1.0, pitch = 1.0, range = 1.0, volume = 1.0
    init(_ emphasis: Emphasis?) {
        switch emphasis {
        case .strong?: (rate, pitch, range, volume) = (0.85, 1.1, 1.4, 1.3)
        case .moderate?: (rate, pitch, range, volume) = (0.92, 1.05, 1.2, 1.15)
        case .reduced?: (rate, pitch, range, volume) = (1.1, 0.95, 0.7, 0.8)
        case .none?, nil: break
        }
    }
}
