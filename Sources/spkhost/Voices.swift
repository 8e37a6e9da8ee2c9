import ArgumentParser
import LV2Host
import SpkProtocol

struct Voices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the voices of every installed spk synthesizer.")

    @Option(help: "Only voices speaking this BCP 47 language (en matches en-US).") var language: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try failing {
            let world = LV2World()
            var voices: [Voice] = []
            for plugin in world.plugins where plugin.kind == "synth" {
                let synth = try SpeechSynth(world: world, uri: plugin.uri, sampleRate: 48000, block: 256)
                voices += try synth.voices()
            }
            if let language { voices = voices.filter { LanguageTag.matches($0.supportedLanguages, wanted: [language]) } }
            if json { return try printJSON(voices) }
            printTable(["IDENTIFIER", "NAME", "LANGUAGES", "GENDER"], voices.map {
                [$0.identifier, $0.name, $0.supportedLanguages.joined(separator: " "), $0.gender.rawValue]
            })
        }
    }
}
