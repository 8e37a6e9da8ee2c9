import ArgumentParser
import Foundation

@main
struct SpkHost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spkhost",
        abstract: "Speak SSML with spk's LV2 speech synthesizers.",
        subcommands: [Plugins.self, Voices.self, VoiceCommand.self, PersonalVoiceCommand.self, Render.self, Play.self, Live.self, Bench.self, BenchEngine.self, SpeechdCommand.self])

    /// ArgumentParser's own `main`, except that a usage error (a bad or missing option, a failed
    /// `validate()`) is one `error:` line and exit status 1, as every other failure; help and
    /// `--version` print as ArgumentParser prints them.
    static func main() {
        SignalCleanup.install()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            let message = self.message(for: error).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
            FileHandle.standardError.write(Data("error: \(message.isEmpty ? "\(error)" : message)\n".utf8))
            Glibc.exit(1)
        }
    }
}

/// Every failure ends here: one `error:` line on stderr and exit status 1.
func failing<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode.failure
    }
}

/// Writes one JSON document to stdout.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value))
    FileHandle.standardOutput.write(Data("\n".utf8))
}

/// Prints rows as columns padded to their widest cell.
func printTable(_ header: [String], _ rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    for row in all {
        let cells = row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
        print(cells.joined(separator: "  "))
    }
}
