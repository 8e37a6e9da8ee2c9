import Foundation
import SpkTestSupport
import XCTest

/// The plugin window (urn:spk:ui:window) in real hosts under Xvfb: jalv.gtk3 (GTK 3) and
/// jalv.qt5 (Qt 5), against a dummy jackd, driven with xdotool as a person would: type, press
/// Speak, save. The window's test hook (SPK_UI_TRACE) says what it showed.
final class PluginWindowTests: XCTestCase {
    /// Two lines: Enter in the field is a new line, Ctrl+Enter speaks.
    let sentence = "The window speaks what you type.\nAnd the next line."

    /// A host process with the X display, the JACK server, the staged bundles and the trace file.
    func startHost(_ program: String, _ arguments: [String], x: XServer, jack: JackServer, trace: URL, output: URL) throws -> Process {
        guard FileManager.default.isExecutableFile(atPath: program) else { throw XCTSkip("\(program) is not installed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment.merging(jack.environment) { $1 }.merging(x.environment) { $1 }
        env["LV2_PATH"] = Fixture.lv2Path
        env["SPK_UI_TRACE"] = trace.path
        p.environment = env
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        p.standardInput = Pipe()
        p.standardOutput = try FileHandle(forWritingTo: output)
        p.standardError = p.standardOutput
        try p.run()
        return p
    }

    func clipboardFile(_ text: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent("clipboard.txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func lines(_ url: URL) -> [String] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func testJalvGtk3ShowsTheWindowSpeaksTypedTextLightsItsWordsAndSavesIt() throws {
        let x = try XServer(), jack = try JackServer()
        defer { jack.stop(); x.stop() }
        let dir = Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("trace"), log = dir.appendingPathComponent("jalv.log")
        let jalv = try startHost("/usr/bin/jalv.gtk3", ["--jack-name", "spk-win", "-x", "urn:spk:synth:espeak-ng"],
                                 x: x, jack: jack, trace: trace, output: log)
        defer { JackServer.stop(jalv) }

        // jalv chose the spk window, not its generic UI, and the window got the voice list and
        // the plugin's parameters through the host.
        XCTAssertNotNil(x.waitForWindow(named: "spk-window"), "no spk window; jalv said: \(lines(log))")
        XCTAssertTrue(waitUntil(seconds: 10) { self.lines(trace).contains { $0.hasPrefix("voices ") } }, "\(lines(trace))")
        XCTAssertEqual(lines(trace).first, "open urn:spk:synth:espeak-ng")
        XCTAssertTrue(lines(trace).contains("voice-set spk.espeak-ng.en-us"), "the bare patch:Get's answer: \(lines(trace))")
        XCTAssertTrue(lines(trace).contains("focus text"), "the text field has the keyboard at once: \(lines(trace))")

        // Typed into the field (it has the focus: no click), kept in the plugin's state.
        let typed = sentence.split(separator: "\n").map(String.init)
        x.run("xdotool", ["type", "--delay", "10", typed[0]])
        x.run("xdotool", ["key", "Return"])
        x.run("xdotool", ["type", "--delay", "10", typed[1]])
        let sent = "text-sent " + sentence.replacingOccurrences(of: "\n", with: "\u{23CE}")
        XCTAssertTrue(waitUntil(seconds: 5) { self.lines(trace).contains(sent) }, "\(lines(trace))")
        XCTAssertFalse(lines(trace).contains { $0.hasPrefix("speak ") }, "Enter alone does not speak")

        // Ctrl+Enter speaks it: recorded from the plugin's output.
        XCTAssertTrue(jack.waitForPort("spk-win:out"))
        let recorded = dir.appendingPathComponent("spoken.wav").path
        let recorder = try jack.startCapture(path: recorded, seconds: 5)
        XCTAssertEqual(Fixture.run("jack_connect", ["spk-win:out", "jack_capture:input1"], environment: jack.environment).status, 0)
        x.run("xdotool", ["key", "ctrl+Return"])
        recorder.waitUntilExit()
        let reference = dir.appendingPathComponent("reference.wav").path
        let render = Fixture.spkhost(["render", "--text", sentence, "--sample-rate", "48000", "--output", reference])
        XCTAssertEqual(render.status, 0, render.stderr)
        let heard = try Signal(path: recorded), expected = try Signal(path: reference)
        XCTAssertGreaterThan(heard.rms(), 0.01, "the window's Speak made the plugin speak")
        XCTAssertEqual(heard.spokenDuration, expected.spokenDuration, accuracy: expected.spokenDuration * 0.1,
                       "the whole sentence, as spkhost renders it")

        // Each word the plugin marked was lit in turn, at its bytes in the text; then none.
        let lit = lines(trace).filter { $0.hasPrefix("lit ") && $0 != "lit none" }.map { $0.split(separator: " ", maxSplits: 3) }
        let bytes = Array(sentence.utf8)
        XCTAssertGreaterThanOrEqual(lit.count, 5, "\(lines(trace))")
        var lastOffset = -1
        for entry in lit {
            let offset = Int(entry[1])!, length = Int(entry[2])!
            XCTAssertEqual(String(entry[3]), String(decoding: bytes[offset..<(offset + length)], as: UTF8.self))
            XCTAssertGreaterThan(offset, lastOffset, "words lit in order")
            lastOffset = offset
        }
        XCTAssertEqual(lit.first.map { String($0[3]) }, "The")
        XCTAssertEqual(lit.last.map { String($0[3]) }, "line")
        XCTAssertEqual(lines(trace).last(where: { $0.hasPrefix("lit") }), "lit none", "nothing lit once speech ends")

        // The voice list from the keyboard: Tab to it (text, Speak, Pause, Stop, voices), Up
        // chooses the voice above; the plugin takes it (its state below holds it).
        x.run("xdotool", ["key", "Tab", "Tab", "Tab", "Tab", "Up"])
        XCTAssertTrue(waitUntil(seconds: 5) { self.lines(trace).contains { $0.hasPrefix("voice ") } }, "\(lines(trace))")
        let chosen = try XCTUnwrap(lines(trace).last { $0.hasPrefix("voice ") }).dropFirst("voice ".count)
        XCTAssertNotEqual(chosen, "spk.espeak-ng.en-us")

        // Pause and Continue with the mouse while it speaks again (Ctrl+Enter from the list).
        let window = try XCTUnwrap(x.waitForWindow(named: "spk-window"))
        let spoken = lines(trace).count
        x.run("xdotool", ["key", "ctrl+Return"])
        XCTAssertTrue(waitUntil(seconds: 5) { self.lines(trace).dropFirst(spoken).contains { $0.hasPrefix("lit ") && $0 != "lit none" } })
        let pause = WindowLayoutProbe.pauseButtonCenter
        x.run("xdotool", ["mousemove", "--window", window, "\(pause.x)", "\(pause.y)", "click", "1"])
        XCTAssertTrue(waitUntil(seconds: 5) { self.lines(trace).dropFirst(spoken).contains("paused") }, "\(lines(trace).dropFirst(spoken))")
        x.run("xdotool", ["mousemove", "--window", window, "\(pause.x)", "\(pause.y)", "click", "1"])
        XCTAssertTrue(waitUntil(seconds: 5) { self.lines(trace).dropFirst(spoken).contains("continued") }, "\(lines(trace).dropFirst(spoken))")
        XCTAssertTrue(waitUntil(seconds: 10) { self.lines(trace).dropFirst(spoken).contains("finished") }, "\(lines(trace).dropFirst(spoken))")

        // jalv's File > Save writes the plugin's state: the typed text is in it.
        let saved = dir.appendingPathComponent("saved")
        x.run("xdotool", ["mousemove", "20", "12", "click", "1"])
        usleep(500_000)
        x.run("xdotool", ["mousemove", "46", "37", "click", "1"])
        let dialog = try XCTUnwrap(x.waitForWindow(named: "Save State"), "jalv's save dialog did not open")
        x.run("xdotool", ["windowfocus", "--sync", dialog])
        x.run("xdotool", ["type", "--delay", "10", saved.path])
        // The file chooser's completion pop-up may take the first Enter.
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: saved.appendingPathComponent("state.ttl").path) {
            usleep(500_000)
            x.run("xdotool", ["key", "Return"])
            waitUntil(seconds: 2) { FileManager.default.fileExists(atPath: saved.appendingPathComponent("state.ttl").path) }
        }
        let state = try String(contentsOf: saved.appendingPathComponent("state.ttl"), encoding: .utf8)
        XCTAssertTrue(state.contains("<urn:spk:ns#text> \"\"\"\(sentence)\"\"\"") || state.contains("<urn:spk:ns#text> \"\(sentence.replacingOccurrences(of: "\n", with: "\\n"))\""), state)
        XCTAssertTrue(state.contains("<urn:spk:ns#voice> \"\(chosen)\""), state)
        XCTAssertTrue(jalv.isRunning, "jalv.gtk3 is still up")
    }

    func testJalvQt5ShowsTheWindowTakesKeysAfterAClickAndShowsAnSSMLError() throws {
        let x = try XServer(), jack = try JackServer()
        defer { jack.stop(); x.stop() }
        let dir = Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("trace"), log = dir.appendingPathComponent("jalv.log")
        let jalv = try startHost("/usr/bin/jalv.qt5", ["--jack-name", "spk-win-qt", "urn:spk:synth:espeak-ng"],
                                 x: x, jack: jack, trace: trace, output: log)
        defer { JackServer.stop(jalv) }
        let window = try XCTUnwrap(x.waitForWindow(named: "spk-window"), "no spk window in jalv.qt5: \(lines(log))")
        XCTAssertTrue(waitUntil(seconds: 10) { self.lines(trace).contains { $0.hasPrefix("voices ") } }, "\(lines(trace))")
        // jalv.qt5 passes keys to an embedded window only once it is clicked.
        x.run("xdotool", ["mousemove", "--window", window, "100", "60", "click", "1"])
        let broken = "<speak><s>Broken</speak>"
        x.run("xdotool", ["type", "--delay", "10", broken])
        x.run("xdotool", ["key", "ctrl+Return"])
        XCTAssertTrue(waitUntil(seconds: 5) { self.lines(trace).contains { $0.hasPrefix("error ") } }, "\(lines(trace))")
        XCTAssertEqual(lines(trace).first { $0.hasPrefix("error ") },
                       "error SSML line 1, column 25: Opening and ending tag mismatch: s line 1 and speak")
        XCTAssertTrue(lines(trace).contains("text-sent \(broken)"))
        // Tab moves to the next control; Escape stops from anywhere.
        x.run("xdotool", ["key", "Tab"])
        x.run("xdotool", ["key", "Escape"])
        XCTAssertTrue(waitUntil(seconds: 5) { self.lines(trace).suffix(2) == ["focus speak", "stop"] }, "\(lines(trace))")
        // Back to the text (Shift+Tab), and Ctrl+V pastes the clipboard at the cursor.
        x.run("xdotool", ["key", "shift+Tab"])
        x.run("xdotool", ["key", "ctrl+End"])
        // xclip owns the clipboard in the foreground (-quiet) until it has served it once.
        let clipboard = Process()
        clipboard.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
        clipboard.arguments = ["-quiet", "-selection", "clipboard", "-loops", "1", "-i", try clipboardFile(" Pasted words.", in: dir)]
        clipboard.environment = ProcessInfo.processInfo.environment.merging(x.environment) { $1 }
        clipboard.standardOutput = FileHandle.nullDevice
        clipboard.standardError = FileHandle.nullDevice
        try clipboard.run()
        defer { JackServer.stop(clipboard) }
        usleep(300_000)
        x.run("xdotool", ["key", "ctrl+v"])
        XCTAssertTrue(waitUntil(seconds: 5) { self.lines(trace).contains("text-sent \(broken) Pasted words.") }, "\(lines(trace))")
        XCTAssertTrue(jalv.isRunning)
    }

    /// A state with a text and a voice, loaded with -l: jalv.gtk3's own (generic) controls are
    /// given both, as the plugin's answer to jalv's bare patch:Get (-d dumps what jalv's UI gets).
    func testLoadedStateReachesJalvsOwnTextAndVoiceFields() throws {
        let x = try XServer(), jack = try JackServer()
        defer { jack.stop(); x.stop() }
        let dir = Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try writeJalvState(in: dir, properties: "spk:text \"A text from the session.\" ; spk:voice \"spk.espeak-ng.en-gb-scotland\"")
        let log = dir.appendingPathComponent("jalv.log")
        // stdbuf: jalv's dump goes to a file, which stdio would otherwise buffer until exit.
        let jalv = try startHost("/usr/bin/stdbuf", ["-oL", "/usr/bin/jalv.gtk3", "-g", "-d", "--jack-name", "spk-gen", "-l", dir.path],
                                 x: x, jack: jack, trace: dir.appendingPathComponent("trace"), output: log)
        defer { JackServer.stop(jalv) }
        let text = "patch:property <urn:spk:ns#text> ;\n\tpatch:value \"A text from the session.\""
        let voice = "patch:property <urn:spk:ns#voice> ;\n\tpatch:value \"spk.espeak-ng.en-gb-scotland\""
        let dumped = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        XCTAssertTrue(waitUntil(seconds: 10) { dumped().contains(text) && dumped().contains(voice) }, dumped())
        XCTAssertTrue(dumped().contains("## UI => Plugin"), "jalv asked")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("trace").path), "-g: the generic UI, not the window")
    }
}

/// Where the window's Pause button is at its default size (Sources/SpkWindow/WindowLayout.swift:
/// a 460-pixel-high window, the buttons under the text field, Pause the second).
enum WindowLayoutProbe {
    static let pauseButtonCenter = (x: 195, y: 248)
}
