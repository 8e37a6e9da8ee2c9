import ArgumentParser
import Foundation

@main
struct SpkHost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spkhost",
        abstract: "Speak SSML with spk's LV2 speech synthesizers.",
        subcommands: [Plugins.self, Voices.self, VoiceCommand.self, PersonalVoiceCommand.self, Render.self, Play.self, Live.self, Bench.self, BenchEngine.self, SpeechdCommand.self])
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
