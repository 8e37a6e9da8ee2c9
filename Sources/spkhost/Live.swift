import ArgumentParser
import Foundation
import LV2Host
import PersonalVoice
import SpkProtocol

struct Live: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Type to speak: each line is spoken at once, queued behind what is speaking.",
        discussion: """
        Commands: /stop cancels everything now; /pause pauses at the next word boundary and \
        /resume continues; /voice ID switches voice; /quit leaves. Works with a terminal and with \
        piped input (it exits when the input ends and everything has been spoken).
        """)

    @Option(help: "Voice identifier (spkhost voices lists them).") var voice: String?
    @Option(help: "Speaking rate multiplier, 0.25 to 4.") var rate: Float?
    @Flag(help: "Also print each word as it is spoken.") var words = false
    @OptionGroup var jack: JACKOptions

    func run() throws {
        try failing {
            askForPersonalVoice()
            var input = RequestInput()
            input.voice = voice
            let output = try LiveOutput(pluginURI: input.pluginURI, jack: jack)
            try output.speech.plugin.setControls(rate: rate, pitch: nil, volume: nil)
            let u = output.speech.plugin.urids.spk
            var printer = EventPrinter(sampleRate: output.sampleRate, words: words)
            var reader = LineReader()
            var voice = self.voice
            var pending = Set<Int64>()
            var next: Int64 = 1
            if isatty(0) != 0 { print("Type a line and press Enter to speak it. /stop /pause /resume /voice ID /quit") }

            var knownVoices: [String]?
            while !(reader.isFinished && pending.isEmpty) {
                try output.check()
                // Backpressure: a line is read only when the plugin's queue has room for it.
                for line in reader.lines(timeout: 0.02, limit: Self.maxQueued - pending.count) {
                    let command = line.trimmingCharacters(in: .whitespaces)
                    switch command {
                    case "": continue
                    case "/stop": try output.speech.send { $0.cancel(request: nil, u) }
                    case "/pause": try output.speech.send { $0.pause(atWord: true, u) }
                    case "/resume", "/continue": try output.speech.send { $0.resume(u) }
                    case "/quit":
                        try output.speech.send { $0.cancel(request: nil, u) }
                        output.drain()
                        return
                    case _ where command.hasPrefix("/voice "):
                        let wanted = String(command.dropFirst(7)).trimmingCharacters(in: .whitespaces)
                        var check = RequestInput()
                        check.voice = wanted
                        if knownVoices == nil { knownVoices = Self.installedVoices() }
                        if check.pluginURI != input.pluginURI {
                            printError("\(wanted) belongs to \(check.pluginURI); start spkhost live --voice \(wanted) to use it")
                        } else if let known = knownVoices, !known.contains(wanted.lowercased()) {
                            printError("unknown voice '\(wanted)' (spkhost voices lists them); still speaking with \(voice ?? "the default voice")")
                        } else {
                            voice = wanted
                            try output.speech.send { $0.patchSet(property: u.voice, string: wanted, u) }
                        }
                    case _ where command.hasPrefix("/"):
                        printError("unknown command \(command) (/stop /pause /resume /voice ID /quit)")
                    default:
                        let id = next
                        next += 1
                        printer.requested(id, text: line)
                        pending.insert(id)
                        try output.speech.speak(line, voice: voice, request: id)
                    }
                }
                for event in try output.speech.receive() {
                    printer.print(event)
                    switch event.event {
                    case .finished(let r), .cancelled(let r), .error(let r, _): pending.remove(r)
                    default: break
                    }
                }
            }
            output.drain()
        }
    }

    /// The most requests in the plugin's queue at once (it holds 256); more lines wait in the pipe.
    static let maxQueued = 64

    /// The identifiers and names (lower-cased) of the installed voices, from `spkhost voices` in
    /// a process of its own, so no second instance of the synth runs in this one; nil if that
    /// fails, and then `/voice` is not checked here.
    private static func installedVoices() -> [String]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["voices", "--json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return nil }
        return list.flatMap { [$0["identifier"] as? String, $0["name"] as? String].compactMap { $0?.lowercased() } }
    }

    /// Live Speech asks once whether it may use the person's own voice, and remembers the answer.
    private func askForPersonalVoice() {
        let authorization = Authorization()
        let client = Authorization.currentClient()
        guard isatty(0) != 0, !authorization.store.voices().isEmpty, authorization.status(of: client) == .notDetermined else { return }
        print("Allow \(client) live to speak with your personal voice? [y/N] ", terminator: "")
        fflush(stdout)
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        let status: AuthorizationStatus = answer.hasPrefix("y") ? .authorized : .denied
        do {
            try authorization.set(status, for: client)
            print(status == .authorized ? "Allowed. (spkhost personal-voice revoke \(client) takes it back.)"
                                        : "Not allowed. (spkhost personal-voice authorize \(client) allows it later.)")
        } catch {
            printError("\(error)")
        }
    }

    /// A problem with one line: said, and the session goes on.
    private func printError(_ message: String) {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    }
}
