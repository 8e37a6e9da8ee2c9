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
    public init(id: Int64, ssml: String, voice: String? = nil, rate: Double = 1, pitch: Double = 1) {
        self.id = id
        self.ssml = ssml
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
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

/// Turns a request into audio at the output rate, one program item at a time, with any engine:
/// breaks become silence, `<audio>` is read with libsndfile (or its fallback spoken), marks and the
/// engine's word and sentence boundaries become markers mapped back to the request's bytes.
public final class ProgramRenderer {
    public let request: SpeechRequest
    public let engine: SpeechEngine
    public let catalog: VoiceCatalog
    public let outputRate: Double
    private let program: SpeechProgram
    private let requestVoice: VoiceCatalog.Resolved
    private var steps: [SpeechItem]
    private var nextStep = 0
    private let resampler: Resampler
    /// Engine-rate samples fed to the resampler so far, and output frames taken from it.
    private var engineSamples = 0
    private var outputFrames = 0
    /// Markers at absolute output frames, waiting for their audio to come out of the resampler.
    private var waitingMarkers: [(frame: Int, marker: RenderedMarker)] = []
    private var spokeSomething = false
    public private(set) var isFinished = false

    /// Parses the request and checks its voice; throws `SSMLError` or `SpeechError`.
    public init(request: SpeechRequest, catalog: VoiceCatalog, outputRate: Double, defaultVoice: String) throws {
        self.request = request
        self.catalog = catalog
        engine = catalog.engine
        self.outputRate = outputRate
        program = try SSMLParser.parse(request.ssml)
        requestVoice = try catalog.resolve(request.voice ?? defaultVoice)
        steps = program.items
        resampler = try Resampler(from: engine.sampleRate, to: outputRate)
    }

    /// With the engine's own voices only.
    public convenience init(request: SpeechRequest, engine: SpeechEngine, outputRate: Double, defaultVoice: String) throws {
        try self.init(request: request, catalog: VoiceCatalog(engine: engine), outputRate: outputRate, defaultVoice: defaultVoice)
    }

    /// Renders the next item (or, after the last, flushes the resampler), handing audio on as it
    /// comes: a long run arrives in several chunks, the first as soon as the engine has it.
    public func next(isCancelled: () -> Bool = { false }, emit: (RenderedChunk) throws -> Void) throws {
        guard nextStep < steps.count else {
            try feed([], markers: [], final: true, emit: emit)
            isFinished = true
            return
        }
        let item = steps[nextStep]
        nextStep += 1
        try render(item, isCancelled: isCancelled) { pcm, markers in
            try feed(pcm, markers: markers, final: false, isCancelled: isCancelled, emit: emit)
        }
    }

    /// The next item whole, in one chunk.
    public func next(isCancelled: () -> Bool = { false }) throws -> RenderedChunk {
        var whole = RenderedChunk()
        try next(isCancelled: isCancelled) { chunk in
            whole.markers += chunk.markers.map { var m = $0; m.frame += whole.samples.count; return m }
            whole.samples += chunk.samples
        }
        return whole
    }

    /// Engine-rate samples resampled and handed on at a time. An engine that delivers a whole
    /// sentence at once (flite) is then heard once its first slice is resampled, instead of after
    /// the whole sentence is (resampling a 3-second sentence whole to 48 kHz took 23 ms with the
    /// libsamplerate spk used before libsoxr, longer than the engine's own wait; see BENCHMARKS.md).
    static let slice = 512

    /// Resamples engine-rate audio to the output rate and hands on what comes out, slice by
    /// slice, with the markers whose audio has come out (on the last chunk, all of them). A
    /// cancel stops it between slices: the rest of a cancelled request is not worth resampling.
    private func feed(_ pcm: [Float], markers: [(sample: Int, marker: RenderedMarker)], final: Bool,
                      isCancelled: () -> Bool = { false }, emit: (RenderedChunk) throws -> Void) throws {
        let ratio = resampler.ratio
        for (sample, marker) in markers {
            waitingMarkers.append((Int((Double(engineSamples + sample) * ratio).rounded()), marker))
        }
        engineSamples += pcm.count
        guard pcm.count > Self.slice else { return try feedSlice(pcm[...], final: final, emit: emit) }
        var offset = 0
        while offset < pcm.count {
            if offset > 0 && isCancelled() { return }
            let end = min(offset + Self.slice, pcm.count)
            try feedSlice(pcm[offset..<end], final: final && end == pcm.count, emit: emit)
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

    /// Turns one item into engine-rate audio and markers (sample offsets into that audio),
    /// delivered in one or more pieces.
    private func render(_ item: SpeechItem, isCancelled: () -> Bool,
                        deliver: ([Float], [(sample: Int, marker: RenderedMarker)]) throws -> Void) throws {
        func marker(_ type: MarkType, _ source: SourceRange, name: String? = nil) -> RenderedMarker {
            RenderedMarker(frame: 0, type: type, source: source, name: name)
        }
        switch item {
        case .text(let run):
            guard run.text.contains(where: { !$0.isWhitespace }) else { return }
            let style = run.style
            let voice = try voice(for: style)
            let emphasis = EmphasisProsody(style.emphasis)
            let prosody = EngineProsody(rate: style.rate * request.rate * emphasis.rate * voice.rate,
                                        pitch: style.pitch * request.pitch * emphasis.pitch * voice.pitch,
                                        pitchHz: style.pitchHz, pitchRange: style.pitchRange * emphasis.range)
            let gain = Float(style.volume * emphasis.volume * voice.volume)
            spokeSomething = true
            try engine.synthesize(SynthesisText(text: run.text, spellOut: run.spellOut, phonemes: run.phonemes),
                                  voice: voice.voice, prosody: prosody) { chunk in
                let markers = chunk.boundaries.map { ($0.sample, marker($0.kind, run.source(ofTextBytes: $0.textRange))) }
                try deliver(gain == 1 ? chunk.samples : chunk.samples.map { $0 * gain }, markers)
                return !isCancelled()
            }
        case .pause(let seconds, _):
            try deliver([Float](repeating: 0, count: Int((seconds * engine.sampleRate).rounded())), [])
        case .mark(let name, let source):
            try deliver([], [(0, marker(.bookmark, source, name: name))])
        case .boundary(let kind, let source):
            // A new sentence or paragraph after speech gets the pause a reader would make.
            var pause: [Float] = []
            if spokeSomething {
                let seconds = (kind == .paragraph ? 0.5 : 0.25) / max(request.rate, 0.1)
                pause = [Float](repeating: 0, count: Int(seconds * engine.sampleRate))
            }
            try deliver(pause, [(pause.count, marker(kind == .paragraph ? .paragraph : .sentence, source))])
        case .audio(let clip):
            do {
                let audio = try AudioFileReader.readMono(path: clip.path)
                let samples = try Resampler.convert(audio.samples, from: Double(audio.sampleRate), to: engine.sampleRate)
                let gain = Float(clip.style.volume)
                spokeSomething = true
                try deliver(gain == 1 ? samples : samples.map { $0 * gain }, [])
            } catch let error as AudioFileError where error.isLimit {
                throw SpeechError("<audio> \(error)")  // a refused file is the request's error, not a fallback
            } catch {
                // SSML: when the audio cannot be played, its content is spoken instead.
                steps.insert(contentsOf: clip.fallback, at: nextStep)
            }
        }
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
