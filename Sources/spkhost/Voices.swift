import ArgumentParser
import Foundation
import LV2Host
import SpkProtocol
import VoiceRegistry

struct Voices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List installed voices (--all: every voice that can be installed).",
        discussion: """
        Installed voices and custom voices live in the voice registry, \
        $XDG_DATA_HOME/spk/voices.json. Until the first `spkhost voice install` or `remove`, \
        every voice counts as installed.
        """)

    @Option(help: "Only voices speaking this BCP 47 language (en matches en-US).") var language: String?
    @Flag(help: "Every voice of every installed spk synthesizer, installed or not.") var all = false
    @Flag(help: "Print JSON (with --watch, one JSON object per line).") var json = false
    @Flag(help: "Keep running and print each voice added, removed or changed, as it happens.") var watch = false

    func run() throws {
        try failing {
            let book = try VoiceBook()
            if watch { return try watchChanges(book) }
            let contents = try book.contents()
            var voices = all ? book.all(contents) : book.installed(contents)
            if let language { voices = voices.filter { LanguageTag.matches($0.supportedLanguages, wanted: [language]) } }
            if json { return try printJSON(voices) }
            printTable(["IDENTIFIER", "NAME", "LANGUAGES", "GENDER"], voices.map {
                [$0.identifier, $0.name, $0.supportedLanguages.joined(separator: " "), $0.gender.rawValue]
            })
        }
    }

    /// Like Apple's availableVoicesDidChangeNotification: a line per change, until stopped.
    private func watchChanges(_ book: VoiceBook) throws {
        let watcher = try RegistryWatcher(registry: book.registry)
        var before = try snapshot(book)
        FileHandle.standardError.write(Data("watching \(book.registry.path)\n".utf8))
        while true {
            guard watcher.wait(timeout: 1) else { continue }
            let after: [String: String]
            do {
                after = try snapshot(book)
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                continue
            }
            var changes: [(String, String)] = []
            for id in after.keys.sorted() where before[id] == nil { changes.append(("added", id)) }
            for id in before.keys.sorted() where after[id] == nil { changes.append(("removed", id)) }
            for id in after.keys.sorted() where before[id] != nil && before[id] != after[id] { changes.append(("changed", id)) }
            for (change, id) in changes {
                if json {
                    print(#"{"change":"\#(change)","identifier":"\#(id)"}"#)
                } else {
                    print("\(change) \(id)")
                }
            }
            fflush(stdout)
            before = after
        }
    }

    /// What identifies each installed voice's current form: for a custom voice, its settings
    /// too, so a change of rate, pitch or volume is reported as a change.
    private func snapshot(_ book: VoiceBook) throws -> [String: String] {
        let contents = try book.contents()
        var voices: [String: String] = [:]
        for voice in book.installed(contents) { voices[voice.identifier] = voice.name }
        for c in contents.custom where voices[c.identifier] != nil {
            voices[c.identifier] = "\(c.name) \(c.base) \(c.rate) \(c.pitch) \(c.volume)"
        }
        return voices
    }
}
