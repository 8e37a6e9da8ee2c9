// Speech Dispatcher's output-module protocol ("Communication Protocol for Output Modules" in
// `info speech-dispatcher`): commands arrive on stdin a line at a time, LF-separated.

/// What kind of message a speak command carries.
public enum MessageKind: String, Sendable, Equatable {
    case text = "SPEAK", char = "CHAR", key = "KEY", soundIcon = "SOUND_ICON"
}

/// One command line from the server, before any body it announces is read.
public enum ModuleCommand: Equatable, Sendable {
    case initialize
    /// SPEAK, CHAR, KEY, SOUND_ICON: a body follows, ended by a line holding only ".".
    case speak(MessageKind)
    case stop, pause, quit
    /// LIST VOICES [language [variant]]
    case listVoices(language: String?, variant: String?)
    /// SET, AUDIO, LOGLEVEL: `name=value` lines follow, ended by ".".
    case set, audio, logLevel
    /// DEBUG ON file / DEBUG OFF: answered, nothing else to do (the module logs to stderr).
    case debug(on: Bool)
    case unknown(String)

    /// Reads one command line (without its LF).
    public static func parse(_ line: String) -> ModuleCommand {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words.first ?? "" {
        case "INIT" where words.count == 1: return .initialize
        case "SPEAK" where words.count == 1: return .speak(.text)
        case "CHAR" where words.count == 1: return .speak(.char)
        case "KEY" where words.count == 1: return .speak(.key)
        case "SOUND_ICON" where words.count == 1: return .speak(.soundIcon)
        case "STOP" where words.count == 1: return .stop
        case "PAUSE" where words.count == 1: return .pause
        case "QUIT" where words.count == 1: return .quit
        case "SET" where words.count == 1: return .set
        case "AUDIO" where words.count == 1: return .audio
        case "LOGLEVEL" where words.count == 1: return .logLevel
        case "LIST" where words.count >= 2 && words[1] == "VOICES" && words.count <= 4:
            return .listVoices(language: words.count > 2 ? words[2] : nil, variant: words.count > 3 ? words[3] : nil)
        case "DEBUG" where words.count >= 2 && (words[1] == "ON" || words[1] == "OFF"):
            return .debug(on: words[1] == "ON")
        default: return .unknown(line)
        }
    }
}

/// The lines of a command's body, as the server sends them.
public enum ModuleBody {
    /// A message: the lines up to the one holding only ".", joined with LF; the server doubles a
    /// dot that starts a line, and that dot is dropped here. Nil at end of input.
    public static func readMessage(_ nextLine: () -> String?) -> String? {
        var lines: [Substring] = []
        while let line = nextLine() {
            if line == "." { return lines.joined(separator: "\n") }
            lines.append(line.hasPrefix(".") ? line.dropFirst() : Substring(line))
        }
        return nil
    }

    /// `name=value` settings up to ".": pairs in order, and the lines that are not `name=value`.
    public static func readSettings(_ nextLine: () -> String?) -> (pairs: [(String, String)], malformed: [String])? {
        var pairs: [(String, String)] = [], malformed: [String] = []
        while let line = nextLine() {
            if line == "." { return (pairs, malformed) }
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex, line.index(after: equals) != line.endIndex else {
                malformed.append(line)
                continue
            }
            pairs.append((String(line[..<equals]), String(line[line.index(after: equals)...])))
        }
        return nil
    }
}
