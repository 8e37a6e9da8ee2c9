import Foundation
import JACKBackend
import LV2Host
import LockFree
import PersonalVoice
import SpkAudio
import Synchronization

/// Records the phrase script from a JACK input, a take at a time: Enter starts and stops a take,
/// a take that is clipped, silent or too noisy is refused with the reason and recorded again,
/// `r` records the last one again, `s` skips a phrase, `q` finishes.
final class JACKTakeRecorder {
    private let client: JACKClient
    private let ring = FrameRing(capacityPowerOfTwo: 1 << 22)  // about 87 s at 48 kHz
    private let switch_ = RecordSwitch()
    private var reader = LineReader()

    init(server: String?, port: String?) throws {
        client = try JACKClient(name: "spk-recorder", server: server)
        try client.registerInputs(["in"])
        // The JACK thread holds the ring and the switch, not the recorder, which may go first.
        let ring = self.ring, recording = switch_
        try client.activate(capture: { frames, inputs in
            if recording.on.load(ordering: .acquiring) { _ = ring.write(UnsafeBufferPointer(start: inputs[0], count: frames)) }
        })
        guard let source = port ?? client.capturePorts().first else {
            throw HostError("no JACK capture port to record from (name one with --port)")
        }
        try client.connect(source, to: client.inputName(0))
    }

    /// Moves what the JACK thread recorded so far into `take`.
    private func drain(into take: inout [Float]) {
        let available = ring.available
        guard available > 0 else { return }
        let start = take.count
        take += repeatElement(0, count: available)
        take.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress! + start, count: available) }
    }

    /// Waits for a line, keeping `take` drained from the ring meanwhile. Nil at end of input.
    private func nextLine(draining take: inout [Float]) throws -> String? {
        while true {
            if client.shutDown.load(ordering: .acquiring) { throw HostError(client.shutdownMessage) }
            drain(into: &take)
            if let line = reader.lines(timeout: 0.02).first { return line.trimmingCharacters(in: .whitespaces).lowercased() }
            if reader.closed { return nil }
        }
    }

    func recordScript(into directory: String, store: PersonalStore) throws -> Int {
        let phrases = PhraseScript.phrases
        var kept = 0
        var ignored: [Float] = []
        var index = 0
        while index < phrases.count {
            let phrase = phrases[index]
            print("[\(index + 1)/\(phrases.count)] Say: \"\(phrase)\"   Enter: record  s: skip  q: finish")
            fflush(stdout)
            guard let command = try nextLine(draining: &ignored) else { break }
            if command == "q" { break }
            if command == "s" { index += 1; continue }
            ignored.removeAll(keepingCapacity: true)
            var take: [Float] = []
            switch_.on.store(true, ordering: .releasing)
            print("  recording... Enter: stop")
            fflush(stdout)
            let end = try nextLine(draining: &take)
            switch_.on.store(false, ordering: .releasing)
            drain(into: &take)
            let audio = MonoAudio(samples: take, sampleRate: client.sampleRate)
            if let problem = TakeCheck.problem(in: audio.samples, sampleRate: audio.sampleRate) {
                print("  not kept: \(problem). Again.")
                if end == nil { break }
                continue
            }
            let name = String(format: "%03d", index + 1)
            try TakeFiles.save(audio, text: phrase, name: name, in: directory, store: store)
            kept += 1
            print("  kept (\(String(format: "%.1f", audio.seconds)) s). Enter: next  r: record it again")
            fflush(stdout)
            guard let after = try nextLine(draining: &ignored) else { break }
            if after == "r" { kept -= 1; continue }
            if after == "q" { break }
            index += 1
        }
        return kept
    }
}

/// Whether the JACK thread keeps what it hears.
private final class RecordSwitch: Sendable {
    let on = Atomic<Bool>(false)
}
