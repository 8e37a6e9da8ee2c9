import ArgumentParser
import LV2Host

struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the LV2 plugins lilv finds: spk synthesizers and effects.")

    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try failing {
            let plugins = LV2World().plugins
            if json { return try printJSON(plugins) }
            printTable(["URI", "KIND", "NAME"], plugins.map { [$0.uri, $0.kind, $0.name] })
        }
    }
}

extension PluginInfo {
    /// What the plugin is to spk: a speech synth, an effect it can chain, or something else.
    var kind: String {
        if uri.hasPrefix("urn:spk:synth:") { return "synth" }
        let audioIn = ports.contains { $0.kind == .audio && $0.isInput }
        let audioOut = ports.contains { $0.kind == .audio && !$0.isInput }
        if audioIn && audioOut { return "effect" }
        if audioOut { return "instrument" }
        return "other"
    }
}
