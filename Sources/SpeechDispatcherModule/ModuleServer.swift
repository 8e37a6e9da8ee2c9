import Dispatch
import Glibc
import SpkProtocol

/// sd_spk's command loop: answers the server's commands on the calling thread and speaks on a
/// thread of its own, so STOP and PAUSE are read while a message is being spoken.
public final class ModuleServer: @unchecked Sendable {
    /// The client name the personal voice's authorization is asked for.
    public static let client = "speech-dispatcher"

    private let configPath: String?
    private let output: ModuleOutput
    private let nextLine: () -> String?
    private var config = ModuleConfig()
    private var host: SynthHost?
    private var speaker: Speaker?
    private var settings = ModuleSettings()
    /// The voices as last listed: read at INIT and at each LIST VOICES (where installs, removals
    /// and authorizations show), not per message, which would cost every message a round of
    /// questions to every plugin.
    private var knownVoices = ModuleVoices([])
    private let speakingQueue = DispatchQueue(label: "sd_spk.speak")

    public init(configPath: String?, output: ModuleOutput = ModuleOutput(), nextLine: @escaping () -> String? = { readLine() }) {
        self.configPath = configPath
        self.output = output
        self.nextLine = nextLine
    }

    /// Runs until QUIT or the end of input; the exit status.
    public func run() -> Int32 {
        // Personal voices are offered to clients the person authorized by name.
        setenv("SPK_CLIENT", Self.client, 1)
        guard let first = nextLine() else { return 1 }
        guard ModuleCommand.parse(first) == .initialize else {
            ModuleLog.write("the server did not start with INIT (got '\(first)')")
            return 3
        }
        do {
            try start()
        } catch {
            ModuleLog.write("cannot start: \(error)")
            output.lines("399-\(Self.oneLine("\(error)"))", "399 ERR CANT INIT MODULE")
            return 1
        }
        knownVoices = ModuleVoices(host!.voices(), defaultIdentifier: config.defaultVoice)
        output.lines("299-spk: \(knownVoices.voices.count) voices from \(host!.pluginURIs.count) plugins", "299 OK LOADED SUCCESSFULLY")
        while let line = nextLine() {
            if handle(ModuleCommand.parse(line)) { return 0 }
        }
        // The server went away: stop speaking and leave.
        speaker?.request(.stop)
        return 0
    }

    private func start() throws {
        if let configPath { config = try ModuleConfig.load(configPath) }
        let host = try SynthHost(sampleRate: Double(config.sampleRate), block: config.blockFrames)
        self.host = host
        speaker = Speaker(host: host, output: output, lead: config.aheadSeconds)
    }

    /// Answers one command; true for QUIT.
    private func handle(_ command: ModuleCommand) -> Bool {
        switch command {
        case .initialize:
            output.lines("300 ERR UNKNOWN COMMAND")
        case .speak(let kind):
            speak(kind)
        case .stop:
            speaker?.request(.stop)
        case .pause:
            speaker?.request(.pause)
        case .quit:
            speaker?.request(.stop)
            speakingQueue.sync {}
            output.lines("210 OK QUIT")
            return true
        case .listVoices(let language, let variant):
            knownVoices = ModuleVoices(host?.voices() ?? [], defaultIdentifier: config.defaultVoice)
            let lines = knownVoices.listLines(language: language, variant: variant)
            if lines.isEmpty {
                output.lines("304 CANT LIST VOICES")
            } else {
                output.send(Array((lines.map { "200-\($0)\n" }.joined() + "200 OK VOICE LIST SENT\n").utf8))
            }
        case .set:
            output.lines("203 OK RECEIVING SETTINGS")
            guard let (pairs, malformed) = ModuleBody.readSettings(nextLine) else { return true }
            var bad = !malformed.isEmpty
            var updated = settings
            for (name, value) in pairs {
                do { try updated.apply(name, value) } catch {
                    ModuleLog.write("SET: \(error)")
                    bad = true
                }
            }
            settings = updated
            output.lines(bad ? "303 ERROR INVALID PARAMETER OR VALUE" : "203 OK SETTINGS RECEIVED")
        case .audio:
            output.lines("207 OK RECEIVING AUDIO SETTINGS")
            guard let (pairs, _) = ModuleBody.readSettings(nextLine) else { return true }
            let method = pairs.first { $0.0 == "audio_output_method" }?.1
            if method == "server" {
                output.lines("203 OK AUDIO INITIALIZED")
            } else {
                output.lines("300-sd_spk plays only through the server (audio_output_method=server), not '\(method ?? "none")'",
                             "300 MODULE ERROR")
            }
        case .logLevel:
            output.lines("207 OK RECEIVING LOGLEVEL SETTINGS")
            guard ModuleBody.readSettings(nextLine) != nil else { return true }
            output.lines("203 OK LOGLEVEL SET")
        case .debug(let on):
            output.lines("200 OK DEBUGGING \(on ? "ON" : "OFF")")
        case .unknown(let line):
            ModuleLog.write("unknown command '\(line)'")
            output.lines("300 ERR UNKNOWN COMMAND")
        }
        return false
    }

    private func speak(_ kind: MessageKind) {
        output.lines("202 OK RECEIVING MESSAGE")
        guard let body = ModuleBody.readMessage(nextLine) else { return }
        guard let speaker, !body.isEmpty else { return output.lines("301 ERROR CANT SPEAK") }
        if kind != .text && body.contains("\n") { return output.lines("305 DATA MORE THAN ONE LINE") }
        if speaker.isSpeaking {
            ModuleLog.write("SPEAK while still speaking")
            return output.lines("301 ERROR CANT SPEAK")
        }
        let message = MessageText.make(kind, body, settings: settings, mapping: config.mapping, soundIcons: config.soundIconFolder)
        if let problem = message.problem { ModuleLog.write("the message's SSML is not valid (\(problem)); speaking it as plain text") }
        guard let voice = knownVoices.choose(settings) else {
            ModuleLog.write("no voice to speak with")
            return output.lines("301 ERROR CANT SPEAK")
        }
        let controls = config.mapping.controls(settings)
        speaker.willSpeak()
        output.lines("200 OK SPEAKING")
        speakingQueue.async { speaker.speak(ssml: message.ssml, voice: voice, controls: controls) }
    }

    static func oneLine(_ s: String) -> String { String(s.map { $0 == "\n" || $0 == "\r" ? " " : $0 }) }
}
