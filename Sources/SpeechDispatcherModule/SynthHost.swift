import LV2Host
import SpkProtocol
import Synchronization
import VoiceRegistry

/// The spk synth plugins, hosted in this process through LV2Host: one offline instance per
/// plugin, made when first needed, run block by block by whoever holds `lock`.
public final class SynthHost: @unchecked Sendable {
    public let sampleRate: Double
    public let block: Int
    public let pluginURIs: [String]
    private let world: LV2World
    private var synths: [String: SpeechSynth] = [:]
    /// Held around every use of a plugin: the speaking thread holds it a block at a time, so the
    /// command thread can list voices between blocks.
    let lock = Mutex(())

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Finds the plugins and reads the voice registry, or says what is wrong.
    public init(sampleRate: Double, block: Int, registry: VoiceRegistry = VoiceRegistry()) throws {
        self.sampleRate = sampleRate
        self.block = block
        world = LV2World()
        pluginURIs = world.plugins.map(\.uri).filter { $0.hasPrefix("urn:spk:synth:") }
        guard !pluginURIs.isEmpty else {
            throw StartError(description: "no spk synth plugins found (LV2_PATH: \(LV2World.searchPath)); install them with scripts/setup.sh")
        }
        if registry.exists {
            do { _ = try registry.load() } catch { throw StartError(description: "\(error)") }
        }
    }

    /// The plugin instance for `uri`; the caller holds `lock`.
    func synth(_ uri: String) throws -> SpeechSynth {
        if let synth = synths[uri] { return synth }
        let synth = try SpeechSynth(world: world, uri: uri, sampleRate: sampleRate, block: block)
        synths[uri] = synth
        return synth
    }

    /// Every voice the plugins have installed (the personal plugin's only for an authorized
    /// client). A plugin that cannot be loaded is logged and left out.
    public func voices() -> [Voice] {
        lock.withLock { _ in
            var all: [Voice] = []
            for uri in pluginURIs {
                do { all += try synth(uri).voices() } catch { ModuleLog.write("\(uri): \(error)") }
            }
            return all
        }
    }
}
