import Foundation
import LV2Host
import SpkProtocol
import VoiceRegistry

/// An LV2 preset for every installed voice, in the user's LV2 path (`~/.lv2/spk-user-voices.lv2`),
/// so any LV2 host (a DAW, jalv) lists them. Each preset sets the plugin's `spk:voice`; a custom
/// voice's rate, pitch and volume come with it, since the plugin reads them from the registry.
enum UserPresets {
    static var bundle: URL {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".lv2/spk-user-voices.lv2")
    }

    static func write(_ voices: [Voice]) throws {
        let prefixes = """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        @prefix state: <http://lv2plug.in/ns/ext/state#> .
        @prefix spk: <urn:spk:ns#> .


        """
        var manifest = prefixes, presets = prefixes
        for voice in voices {
            let subject = "<urn:spk:voice-preset:\(voice.identifier)>"
            manifest += "\(subject) a pset:Preset ; lv2:appliesTo <\(voice.plugin)> ; rdfs:seeAlso <voices.ttl> .\n"
            presets += "\(subject) a pset:Preset ; lv2:appliesTo <\(voice.plugin)> ; rdfs:label \(literal(voice.name)) ;\n"
                + "\tstate:state [ spk:voice \(literal(voice.identifier)) ] .\n"
        }
        // Written beside the bundle and swapped in, so hosts never read half a bundle.
        let fm = FileManager.default
        let parent = bundle.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".spk-user-voices.lv2.\(getpid())")
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
            try manifest.write(to: staging.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
            try presets.write(to: staging.appendingPathComponent("voices.ttl"), atomically: true, encoding: .utf8)
            if fm.fileExists(atPath: bundle.path) { try fm.removeItem(at: bundle) }
            try fm.moveItem(at: staging, to: bundle)
        } catch {
            try? fm.removeItem(at: staging)
            throw HostError("cannot write the voice presets in \(bundle.path): \(error.localizedDescription)")
        }
    }

    /// A Turtle string literal.
    static func literal(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}

