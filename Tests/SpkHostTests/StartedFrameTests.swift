import LV2Host
import SpkProtocol
import XCTest

/// spk:Started belongs at the request's first frame, also live, where the worker needs longer than
/// a block for the engine's first chunk (flite makes a whole sentence before any audio): the plugin
/// must not report the start and then play silence while it waits.
final class StartedFrameTests: XCTestCase {
    func testStartedComesWithTheRequestsFirstFrameLive() throws {
        _ = Fixture.lv2Path
        let world = LV2World()
        let text = "The quick brown fox jumps over the lazy dog."
        let voice = "spk.flite.slt"
        // Offline the worker works inside run(): the request's first frame is frame 0, and the
        // engine's own silence before its first sound is what comes before the first non-zero frame.
        // flite's output differs slightly from one utterance to the next (its first samples are
        // around 1e-6), so that silence is a range of a few frames, taken over several renders.
        let offline = try SpeechSynth(world: world, uri: "urn:spk:synth:flite", sampleRate: 48000, block: 1024)
        var silences: [Int] = []
        for _ in 0..<4 {
            var leadIn: Int?
            var frames = 0
            _ = try offline.render(ssml: text, voice: voice) { audio in
                if leadIn == nil, let first = audio.firstIndex(where: { $0 != 0 }) { leadIn = frames + first }
                frames += audio.count
            }
            silences.append(try XCTUnwrap(leadIn))
        }
        let silence = silences.min()!...silences.max()! + 8  // live requests are further utterances

        let block = 64
        let probe = try LiveProbe(world: world, uri: "urn:spk:synth:flite", block: block)
        for _ in 0..<3 {
            let first = try probe.firstAudio(ssml: text, voice: voice, settle: 0.1)
            let started = try XCTUnwrap(first.startedBlocks, "spk:Started came by the first sound")
            XCTAssertGreaterThan(first.firstSoundBlocks, 1, "the engine's first chunk takes longer than a 64-frame block")
            let firstFrameBlocks = Set(silence.map { (first.firstSoundFrames - $0) / block })
            XCTAssertTrue(firstFrameBlocks.contains(started),
                          "spk:Started in block \(started), the request's first frame in \(firstFrameBlocks) (first sound in block \(first.firstSoundBlocks), silence \(silence))")
        }
    }
}
