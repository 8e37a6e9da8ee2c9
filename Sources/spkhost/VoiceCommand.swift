import ArgumentParser
import Foundation
import LV2Host
import SpkProtocol
import VoiceRegistry

struct VoiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voice",
        abstract: "Install, remove, create and show voices in the voice registry.",
        subcommands: [Install.self, Remove.self, Create.self, Show.self])

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Install a voice (spkhost voices --all lists them).")
        @Argument(help: "Voice identifier.") var identifier: String

        func run() throws {
            try failing {
                let book = try VoiceBook()
                guard book.engineVoice(identifier) != nil else {
                    throw HostError("unknown voice '\(identifier)' (spkhost voices --all lists the voices that can be installed)")
                }
                try NeuralInstall.installFiles(for: identifier)  // neural voices: fetched and checked before they are registered
                try book.registry.update(initial: { book.everything }) { c in
                    if !c.installed.contains(identifier) { c.installed.append(identifier) }
                }
                try UserPresets.write { book.installed(try book.contents()) }
                print("installed \(identifier)")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an installed voice, or delete a custom voice.")
        @Argument(help: "Voice identifier.") var identifier: String

        func run() throws {
            try failing {
                let book = try VoiceBook()
                try book.registry.update(initial: { book.everything }) { c in
                    if let index = c.custom.firstIndex(where: { $0.identifier == identifier }) {
                        c.custom.remove(at: index)
                    } else if let index = c.installed.firstIndex(of: identifier) {
                        c.installed.remove(at: index)
                    } else {
                        throw HostError("voice '\(identifier)' is not installed")
                    }
                }
                try NeuralInstall.removeFiles(for: identifier)  // neural voices: their files go once unregistered
                try UserPresets.write { book.installed(try book.contents()) }
                print("removed \(identifier)")
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a custom voice over an installed engine voice (like Apple's Screen Reader Voice).")
        @Option(help: "Its name, e.g. \"Screen Reader Voice\".") var name: String
        @Option(help: "The engine voice it speaks with.") var base: String
        @Option(help: "Rate multiplier, 0.25 to 4.") var rate: Double = 1
        @Option(help: "Pitch multiplier, 0.5 to 2.") var pitch: Double = 1
        @Option(help: "Volume multiplier, 0 to 2.") var volume: Double = 1

        func validate() throws {
            guard CustomVoice.rateRange.contains(rate) else { throw ValidationError("--rate \(rate) is outside 0.25...4") }
            guard CustomVoice.pitchRange.contains(pitch) else { throw ValidationError("--pitch \(pitch) is outside 0.5...2") }
            guard CustomVoice.volumeRange.contains(volume) else { throw ValidationError("--volume \(volume) is outside 0...2") }
        }

        func run() throws {
            try failing {
                let book = try VoiceBook()
                guard book.engineVoice(base) != nil else {
                    throw HostError("unknown base voice '\(base)' (it must be an engine voice: spkhost voices --all)")
                }
                guard let identifier = CustomVoice.identifier(name: name, base: base) else {
                    throw HostError("the name '\(name)' has no letters or digits to make an identifier from")
                }
                guard book.engineVoice(identifier) == nil else {
                    throw HostError("'\(identifier)' is already an engine voice; choose another name")
                }
                let voice = CustomVoice(identifier: identifier, name: name, base: base, rate: rate, pitch: pitch, volume: volume)
                try book.registry.update(initial: { book.everything }) { c in
                    if let index = c.custom.firstIndex(where: { $0.identifier == identifier }) {
                        c.custom[index] = voice
                    } else {
                        c.custom.append(voice)
                    }
                }
                try UserPresets.write { book.installed(try book.contents()) }
                print("created \(identifier)")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Describe one voice.")
        @Argument(help: "Voice identifier.") var identifier: String
        @Flag(help: "Print JSON.") var json = false

        struct Description: Encodable {
            var voice: Voice
            var installed: Bool
            var custom: CustomVoice?
        }

        func run() throws {
            try failing {
                let book = try VoiceBook()
                let contents = try book.contents()
                let custom = contents.custom(identifier)
                guard let voice = custom.flatMap(book.voice(for:)) ?? book.engineVoice(identifier) else {
                    throw HostError("unknown voice '\(identifier)' (spkhost voices --all lists them)")
                }
                let description = Description(voice: voice, installed: custom != nil || contents.installed.contains(identifier), custom: custom)
                if json { return try printJSON(description) }
                var rows = [["identifier", voice.identifier], ["name", voice.name], ["plugin", voice.plugin],
                            ["languages", voice.supportedLanguages.joined(separator: " ")], ["gender", voice.gender.rawValue],
                            ["installed", description.installed ? "yes" : "no"]]
                if let custom {
                    rows += [["base", custom.base], ["rate", "\(custom.rate)"], ["pitch", "\(custom.pitch)"], ["volume", "\(custom.volume)"]]
                }
                printTable(["FIELD", "VALUE"], rows)
            }
        }
    }
}
