import Foundation
import SpkTestSupport
import XCTest

/// sd_spk inside a real speech-dispatcher 0.11, spoken to with spd-say and python3-speechd,
/// its audio taken from a headless ALSA device (see SpeechdServer).
final class SpeechdEndToEndTests: XCTestCase {
    static let rate = 22050
    static let longText = "This is a long message for the stop test. It goes on for several sentences, so that it " +
        "would take many seconds to speak to its end. Nobody should hear most of it, because the client stops it " +
        "soon after the first words are heard. The rest of this text is only here to be long enough."

    func testListsEverySpkVoice() throws {
        let server = try SpeechdServer()
        defer { server.stop() }
        let result = server.say(["-o", "spk", "-L"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 100, result.stdout)
        XCTAssertTrue(result.stdout.contains("English (America)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("CMU SLT"), "flite's voices too")
        XCTAssertTrue(lines.contains { $0.contains("CMU SLT") && $0.contains("en-US") && $0.contains("female") }, result.stdout)
    }

    func testSpeaksAudiblyThroughTheServer() throws {
        let server = try SpeechdServer()
        defer { server.stop() }
        let result = server.say(["-o", "spk", "-w", "Hello from spk, through speech dispatcher."])
        XCTAssertEqual(result.status, 0, result.stderr)
        let signal = Signal(samples: server.audio(), sampleRate: Self.rate)
        XCTAssertGreaterThan(signal.rms(), 0.01, "the device got sound")
        XCTAssertGreaterThan(signal.spokenDuration, 1.0)
        XCTAssertLessThan(signal.spokenDuration, 5.0)
    }

    func testIndexMarksReachThePythonClientInOrder() throws {
        let server = try SpeechdServer()
        defer { server.stop() }
        let result = server.python("""
        import speechd, threading
        c = speechd.SSIPClient('spk-test', autospawn=False)
        c.set_output_module('spk')
        c.set_data_mode(speechd.DataMode.SSML)
        marks, done = [], threading.Event()
        def callback(kind, index_mark=None):
            if kind == speechd.CallbackType.INDEX_MARK:
                marks.append(index_mark)
            elif kind in (speechd.CallbackType.END, speechd.CallbackType.CANCEL):
                done.set()
        c.speak('<speak>One <mark name="first"/>two <mark name="second"/>three. <mark name="third"/>Four.</speak>',
                callback=callback, event_types=(speechd.CallbackType.INDEX_MARK, speechd.CallbackType.END, speechd.CallbackType.CANCEL))
        print('ended' if done.wait(20) else 'timeout')
        print(' '.join(marks))
        c.close()
        """)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "ended", result.stdout + result.stderr)
        XCTAssertEqual(lines.dropFirst().first, "first second third", result.stdout)
    }

    /// STOP through the server: the message ends (the client hears CANCEL) and the device gets
    /// only the audio made before it, not the rest of a ~15 s message. sd_spk runs here with
    /// SpkAheadSeconds 1, so it is making audio when STOP comes (unbounded, it would have sent
    /// the whole message in milliseconds). How soon the module itself stops, in audio, is
    /// ModuleProcessTests' STOP test: nothing after it. On this headless device the server cannot
    /// cut short what it has already queued (its ALSA output never waits on the null slave, so
    /// it never looks at its stop pipe), so the time from STOP to silence is not measured here.
    func testStopEndsTheMessageThroughTheServer() throws {
        let server = try SpeechdServer(moduleConfig: "SpkSampleRate 22050\nSpkAheadSeconds 1\n")
        defer { server.stop() }
        let result = server.python("""
        import speechd, threading, time
        c = speechd.SSIPClient('spk-test', autospawn=False)
        c.set_output_module('spk')
        events, done = [], threading.Event()
        def callback(kind, index_mark=None):
            events.append(kind)
            if kind in (speechd.CallbackType.END, speechd.CallbackType.CANCEL):
                done.set()
        c.speak(\(pythonString(Self.longText)), callback=callback,
                event_types=(speechd.CallbackType.BEGIN, speechd.CallbackType.END, speechd.CallbackType.CANCEL))
        time.sleep(0.5)
        c.stop()
        print('ended' if done.wait(20) else 'timeout')
        print(' '.join(events))
        c.close()
        """)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").map(String.init), ["ended", "begin cancel"], result.stdout + result.stderr)
        let heard = Signal(samples: server.audio(settle: 1), sampleRate: Self.rate)
        print("stop: \(heard.seconds) s of audio reached the device")
        XCTAssertLessThan(heard.seconds, 2.5, "the rest of a ~15 s message never reached the device")
    }

    func testBreakOfOneSecondIsAOneSecondGap() throws {
        let server = try SpeechdServer()
        defer { server.stop() }
        let result = server.say(["-o", "spk", "-x", "-w", "<speak>Before the pause. <break time=\"1s\"/> After it.</speak>"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let segments = Signal(samples: server.audio(), sampleRate: Self.rate).soundingSegments(bridge: 0.5)
        XCTAssertEqual(segments.count, 2, "\(segments)")
        guard segments.count == 2 else { return }
        let gap = segments[1].start - segments[0].end
        XCTAssertEqual(gap, 1.0, accuracy: 0.15, "\(segments)")
    }

    func testRatePlus100IsAtLeast1_8TimesFaster() throws {
        let text = "The quick brown fox jumps over the lazy dog, and then it runs away into the forest."
        var durations: [Double] = []
        for rate in ["0", "100"] {
            let server = try SpeechdServer()
            defer { server.stop() }
            XCTAssertEqual(server.say(["-o", "spk", "-r", rate, "-w", text]).status, 0)
            durations.append(Signal(samples: server.audio(), sampleRate: Self.rate).spokenDuration)
        }
        print("rate 0: \(durations[0]) s, rate +100: \(durations[1]) s")
        XCTAssertGreaterThan(durations[1], 0.3)
        XCTAssertGreaterThanOrEqual(durations[0] / durations[1], 1.8, "\(durations)")
    }

    func testBadSSMLIsSpokenAsPlainTextAndLogged() throws {
        let server = try SpeechdServer()
        defer { server.stop() }
        let result = server.say(["-o", "spk", "-x", "-w", "<speak>Hello <b>there</speak>"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(Signal(samples: server.audio(), sampleRate: Self.rate).spokenDuration, 0.5, "it was spoken")
        XCTAssertTrue(server.log().contains("speaking it as plain text"), server.log())
    }
}

/// A Python string literal.
func pythonString(_ s: String) -> String {
    "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
}
