import Foundation
import LV2Host
import SpkAudio
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

    /// Writes the bundle for the voices `voices()` gives, read under the bundle's lock: writers
    /// (several `voice create` at once) take turns, and each writes what the registry holds when
    /// its turn comes, so the last one leaves every voice in and all of them succeed.
    static func write(_ voices: () throws -> [Voice]) throws {
        let fm = FileManager.default
        let parent = bundle.deletingLastPathComponent()
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw HostError("cannot write the voice presets in \(bundle.path): \(error.localizedDescription)")
        }
        // The lock lives with the registry: lilv reads every entry of ~/.lv2 as a bundle.
        let lockDirectory = SpkFiles.dataDirectory()
        try? fm.createDirectory(atPath: lockDirectory, withIntermediateDirectories: true)
        let lockPath = lockDirectory + "/user-presets.lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw HostError("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw HostError("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        defer { flock(lock, LOCK_UN) }
        // What killed writers left beside the bundle.
        ScratchFiles.removeDeadLeftovers(in: parent.path, prefix: ".spk-user-voices.lv2.", suffix: "")
        ScratchFiles.removeDeadLeftovers(in: parent.path, prefix: ".spk-user-voices.lv2.old.", suffix: "")
        try writeLocked(try voices())
    }

    private static func writeLocked(_ voices: [Voice]) throws {
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
        let old = parent.appendingPathComponent(".spk-user-voices.lv2.old.\(getpid())")
        ScratchFiles.register(staging.path)
        ScratchFiles.register(old.path)
        defer {
            ScratchFiles.removeTree(staging.path)
            ScratchFiles.removeTree(old.path)
            ScratchFiles.unregister(staging.path)
            ScratchFiles.unregister(old.path)
        }
        do {
            ScratchFiles.removeTree(staging.path)
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
            try manifest.write(to: staging.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
            try presets.write(to: staging.appendingPathComponent("voices.ttl"), atomically: true, encoding: .utf8)
            if fm.fileExists(atPath: bundle.path) { try fm.moveItem(at: bundle, to: old) }
            try fm.moveItem(at: staging, to: bundle)
        } catch {
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

