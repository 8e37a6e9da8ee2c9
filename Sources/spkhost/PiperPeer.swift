import Foundation
import LV2Host

/// Piper itself, the peer of spk's neural voices (issue 21): `Benchmarks/piper-peer.py serve` in
/// Piper's own venv (made by `Benchmarks/piper-peer.py setup`), found through `SPK_PIPER_PEER`,
/// the path of that script. It loads the same model spk.neural.en-us-joe is converted from and
/// answers, per request, Piper's time to its first audio chunk or to the whole text.
final class PiperPeer {
    static let environment = "SPK_PIPER_PEER"
    private let child: BenchChild

    /// The peer, or nil when `SPK_PIPER_PEER` is not set; throws when it is set and the peer
    /// does not start.
    static func start() throws -> PiperPeer? {
        guard let script = ProcessInfo.processInfo.environment[environment], !script.isEmpty else { return nil }
        guard FileManager.default.fileExists(atPath: script) else {
            throw HostError("\(environment) names \(script), which does not exist (it is Benchmarks/piper-peer.py)")
        }
        return PiperPeer(child: try BenchChild(executable: URL(fileURLWithPath: "/usr/bin/env"),
                                               arguments: ["python3", script, "serve"], name: "the Piper peer (\(script))"))
    }

    private init(child: BenchChild) { self.child = child }

    /// Seconds from `PiperVoice.synthesize(text)` to its first audio chunk.
    func firstSound(_ text: String) throws -> Double {
        let answer = try child.ask(Self.request(text, mode: "first"))
        guard let seconds = answer.first.flatMap({ Double($0) }) else { throw HostError("the Piper peer answered '\(answer.joined(separator: " "))'") }
        return seconds
    }

    /// Seconds to synthesize `text` whole, and the seconds of audio it made.
    func whole(_ text: String) throws -> (seconds: Double, audio: Double) {
        let answer = try child.ask(Self.request(text, mode: "whole"))
        guard answer.count == 2, let seconds = Double(answer[0]), let audio = Double(answer[1]) else {
            throw HostError("the Piper peer answered '\(answer.joined(separator: " "))'")
        }
        return (seconds, audio)
    }

    var sampleRate: Double { child.sampleRate }

    private static func request(_ text: String, mode: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: ["text": text, "mode": mode])
        return String(decoding: data, as: UTF8.self)
    }
}
