import ArgumentParser
import Foundation
import LV2Host
import SpkAudio
import SpkProtocol
import SSML

/// Where a request's text comes from: exactly one of --ssml, --text, --input, or `-` (stdin).
struct RequestInput: ParsableArguments {
    @Option(help: "An SSML document (or plain text) to speak.") var ssml: String?
    @Option(help: "Plain text to speak.") var text: String?
    @Option(help: "A file holding SSML or plain text.") var input: String?
    @Argument(help: "`-` reads the request from standard input.") var stdin: String?
    @Option(help: "Voice identifier (spkhost voices lists them).") var voice: String?
    @Option(help: "Speaking rate multiplier, 0.25 to 4.") var rate: Float?
    @Option(help: "Pitch multiplier, 0.5 to 2.") var pitch: Float?
    @Option(help: "Volume, 0 to 1.") var volume: Float?
    @Flag(help: "Keep the engine's silence before the first sound (dropped by default).") var keepLeadingSilence = false

    func validate() throws {
        let given = [ssml != nil, text != nil, input != nil, stdin != nil].filter { $0 }.count
        guard given == 1 else { throw ValidationError("give exactly one of --ssml, --text, --input or -") }
        if let stdin, stdin != "-" { throw ValidationError("unexpected argument '\(stdin)' (use - for standard input)") }
    }

    /// The request as the plugin receives it, at most `RequestChunks.maximumBytes` long.
    func request() throws -> String {
        let text = try unchecked()
        guard text.utf8.count <= RequestChunks.maximumBytes else { throw HostError(RequestTooLarge(bytes: text.utf8.count).description) }
        return text
    }

    private func unchecked() throws -> String {
        if let ssml { return ssml }
        if let text {
            // Text that looks like markup is escaped into a document, so it is read, not parsed.
            guard text.drop(while: \.isWhitespace).first == "<" else { return text }
            return "<speak>" + XMLEscape.text(text) + "</speak>"
        }
        if let input {
            // A file over the limit is refused before it is read.
            if let size = (try? FileManager.default.attributesOfItem(atPath: input))?[.size] as? Int, size > RequestChunks.maximumBytes {
                throw HostError("'\(input)': \(RequestTooLarge(bytes: size))")
            }
            guard let data = FileManager.default.contents(atPath: input) else {
                throw HostError("cannot read input file '\(input)': \(FileManager.default.fileExists(atPath: input) ? "permission denied" : "no such file")")
            }
            return String(decoding: data, as: UTF8.self)
        }
        // One byte past the limit is enough to know it is too large.
        return String(decoding: FileHandle.standardInput.readData(ofLength: RequestChunks.maximumBytes + 1), as: UTF8.self)
    }

    /// The synth plugin that speaks `voice`: `spk.<engine>.<name>` belongs to `urn:spk:synth:<engine>`.
    var pluginURI: String { RequestParts.synth(forVoice: voice, fallback: SpkURI.espeakPlugin) }

    /// The synth's `trim` control: set only to keep the silence, so the plugin's default holds otherwise.
    var trim: Float? { keepLeadingSilence ? 0 : nil }

    var synthControls: RenderGraph.SynthControls { RenderGraph.SynthControls(rate: rate, pitch: pitch, volume: volume, trim: trim) }
}

/// How a request is spoken: by its synth alone (the plain path, as always), or through a render
/// graph when effects are asked for or the request switches engines.
enum SpeechRoute {
    case synth
    case graph(GraphSpec, parts: [SpeechPart])

    init(request: RequestInput, text: String, options: GraphOptions) throws {
        let spec = try options.spec(synth: request.pluginURI)
        // Without --voice, a graph's own synth node says which engine speaks.
        let graphSynth = request.voice == nil ? spec?.nodes.first(where: { GraphSpec.isSynth($0.plugin) })?.plugin : nil
        let parts = try RequestParts.split(text, defaultVoice: request.voice, defaultSynth: graphSynth ?? request.pluginURI)
        if spec == nil, parts.count == 1, parts[0].synth == request.pluginURI {
            self = .synth
        } else {
            self = .graph(spec ?? .voices(parts[0].synth), parts: parts)
        }
    }
}

extension [SpeechPart] {
    /// The synth plugins the parts speak with, each once, in order.
    var synths: [String] { reduce(into: []) { if !$0.contains($1.synth) { $0.append($1.synth) } } }
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Speak a request to a WAV or FLAC file.")

    @OptionGroup var request: RequestInput
    @Option(help: "Output file (.wav or .flac).") var output: String
    @Option(help: "Output sample rate in Hz.") var sampleRate: Int = 48000
    @Option(help: "Frames per block.") var block: Int = SpeechSynth.offlineBlock
    @Option(help: "Also write the markers as JSON to this file.") var markers: String?
    @Flag(help: "No progress line on a terminal.") var quiet = false
    @OptionGroup var effects: GraphOptions

    func run() throws {
        try failing {
            guard (8000...384_000).contains(sampleRate) else { throw HostError("sample rate \(sampleRate) is outside 8000...384000") }
            let text = try request.request()
            try OutputClash.check(output: output, markers: markers, input: request.input, request: text)
            let world = LV2World()
            // Audio, markers and progress go out as they come: nothing grows with the text.
            var progress = RenderProgress(textBytes: text.utf8.count, sampleRate: sampleRate, quiet: quiet)
            defer { progress.finish() }
            var writer: AudioFileWriter?
            var markerFile: MarkerFileWriter?
            func open() throws -> AudioFileWriter {
                let audio = try AudioFileWriter(path: output, sampleRate: sampleRate)
                writer = audio
                markerFile = try markers.map { try MarkerFileWriter(path: $0, sampleRate: Double(sampleRate)) }
                return audio
            }
            func event(_ timed: SpeechSynth.TimedEvent) throws {
                try markerFile?.add(timed)
                progress.reached(timed)
            }
            switch try SpeechRoute(request: request, text: text, options: effects) {
            case .synth:
                let synth = try SpeechSynth(world: world, uri: request.pluginURI, sampleRate: Double(sampleRate), block: block)
                try synth.setControls(rate: request.rate, pitch: request.pitch, volume: request.volume, trim: request.trim)
                let audio = try open()
                try synth.render(ssml: text, voice: request.voice, sink: { frames in
                    try audio.write(frames)
                    progress.update(frames: audio.framesWritten)
                }, events: event)
            case .graph(let spec, let parts):
                // Every graph problem is found here, before a file is made or a frame rendered.
                let graph = try RenderGraph(spec: spec, world: world, sampleRate: Double(sampleRate), maxBlock: block,
                                            engines: parts.synths, synthControls: request.synthControls)
                let audio = try open()
                try GraphRenderer(graph: graph).render(parts, sink: { channels in
                    if channels.count == 1 { try audio.write(channels[0]) } else { try audio.write(mono(channels)) }
                    progress.update(frames: audio.framesWritten)
                }, events: event)
            }
            try markerFile?.commit()
            try writer?.commit()
        }
    }

    /// Files are mono: a graph's channels are averaged, as hosts mix stereo down to mono.
    private func mono(_ channels: [UnsafeBufferPointer<Float>]) -> [Float] {
        let scale = 1 / Float(channels.count)
        return (0..<channels[0].count).map { i in channels.reduce(0) { $0 + $1[i] } * scale }
    }
}
