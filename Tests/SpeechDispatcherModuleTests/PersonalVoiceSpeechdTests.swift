import Foundation
import SpkTestSupport
import XCTest

/// A personal voice is a speech-dispatcher voice only once the person authorized the client
/// `speech-dispatcher` (sd_spk asks for it under that name).
final class PersonalVoiceSpeechdTests: XCTestCase {
    static let phrases = ["Yes.", "No.", "Thank you.", "Please.", "Hello.", "Goodbye.", "I love you.", "I need help.",
                          "I am tired.", "I am in pain.", "I'm hungry.", "I'm thirsty.", "Could you call my family?",
                          "I need to use the bathroom.", "Please give me a moment.", "I don't understand.",
                          "Can you repeat that?", "Good morning.", "Good night.", "See you soon."]

    func testPersonalVoiceIsListedOnlyOnceSpeechDispatcherIsAuthorized() throws {
        let home = ModuleFixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let data = home.appendingPathComponent("data").path
        let env = ["LV2_PATH": ModuleFixture.lv2Path, "XDG_DATA_HOME": data, "HOME": home.path, "SPK_CLIENT": "test-app"]
        // "Recordings": flite's awb speaking the phrases, as PersonalVoiceTests makes them.
        let takes = home.appendingPathComponent("takes")
        try FileManager.default.createDirectory(at: takes, withIntermediateDirectories: true)
        for (n, phrase) in Self.phrases.enumerated() {
            let name = String(format: "%03d", n + 1)
            let render = ModuleFixture.run(ModuleFixture.spkhost, ["render", "--voice", "spk.flite.awb", "--text", phrase, "--sample-rate", "44100",
                                                                   "--output", takes.appendingPathComponent("\(name).wav").path], environment: env)
            XCTAssertEqual(render.status, 0, render.stderr)
            try (phrase + "\n").write(to: takes.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
        }
        let create = ModuleFixture.run(ModuleFixture.spkhost, ["personal-voice", "create", "--name", "My Voice", "--from", takes.path], environment: env)
        XCTAssertEqual(create.status, 0, create.stdout + create.stderr)

        do {
            let server = try SpeechdServer(dataHome: data)
            defer { server.stop() }
            let list = server.say(["-o", "spk", "-L"])
            XCTAssertTrue(list.stdout.contains("CMU SLT"), list.stdout)
            XCTAssertFalse(list.stdout.contains("My Voice"), "not authorized yet: \(list.stdout)")
        }
        let authorize = ModuleFixture.run(ModuleFixture.spkhost, ["personal-voice", "authorize", "speech-dispatcher"], environment: env)
        XCTAssertEqual(authorize.status, 0, authorize.stderr)
        let server = try SpeechdServer(dataHome: data)
        defer { server.stop() }
        let list = server.say(["-o", "spk", "-L"])
        XCTAssertTrue(list.stdout.contains("My Voice"), list.stdout)
        let said = server.say(["-o", "spk", "-y", "My Voice", "-w", "Thank you."])
        XCTAssertEqual(said.status, 0, said.stderr)
        XCTAssertGreaterThan(Signal(samples: server.audio(), sampleRate: 22050).spokenDuration, 0.3, server.log())
    }
}
