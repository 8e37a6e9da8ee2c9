import Foundation
import SpeechDispatcherModule
import XCTest

/// `spkhost speechd enable|disable` on real files, and the result read by a real
/// speech-dispatcher.
final class SpeechdUserConfigTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ModuleFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    let system = """
    # The system file.
    LogLevel 3
    DefaultModule espeak-ng
    Include "clients/*.conf"
    """

    func testDisableRemovesExactlyWhatEnableAdded() {
        let enabled = SpeechdUserConfig.enabled(system, module: "/opt/sd_spk", config: "/opt/spk.conf", makeDefault: true,
                                                otherModules: [("espeak-ng", "/usr/lib/speech-dispatcher-modules/sd_espeak-ng", "espeak-ng.conf")])
        XCTAssertTrue(enabled.hasPrefix(system + "\n"), "the file's own lines stay first, untouched")
        XCTAssertTrue(enabled.contains("AddModule \"spk\" \"/opt/sd_spk\" \"/opt/spk.conf\"\nDefaultModule spk\n"))
        XCTAssertTrue(enabled.contains("AddModule \"espeak-ng\""), "modules found automatically before are kept")
        XCTAssertEqual(SpeechdUserConfig.disabled(enabled), system + "\n")
        // Enabling twice leaves one block.
        let twice = SpeechdUserConfig.enabled(enabled, module: "/opt/sd_spk", config: "/opt/spk.conf", makeDefault: false, otherModules: [])
        XCTAssertEqual(twice.components(separatedBy: SpeechdUserConfig.begin).count, 2)
        XCTAssertFalse(twice.contains("DefaultModule spk"))
    }

    func testAFileWithItsOwnModulesGetsOnlySpk() {
        let own = "AddModule \"flite\" \"sd_flite\" \"flite.conf\"\n"
        let enabled = SpeechdUserConfig.enabled(own, module: "/opt/sd_spk", config: "/opt/spk.conf", makeDefault: false,
                                                otherModules: [("espeak-ng", "/x/sd_espeak-ng", "espeak-ng.conf")])
        XCTAssertFalse(enabled.contains("espeak-ng"))
        XCTAssertEqual(SpeechdUserConfig.disabled(enabled), own)
    }

    /// spkhost's command on a missing user file: started from the system file, then enabled; a
    /// real speech-dispatcher reading it offers both spk's voices and espeak-ng's; disable
    /// gives back the system file's text.
    func testEnabledConfigurationWorksInSpeechDispatcher() throws {
        let conf = dir.appendingPathComponent("config/speech-dispatcher")
        let userFile = conf.appendingPathComponent("speechd.conf").path
        let moduleConfig = dir.appendingPathComponent("spk.conf")
        try "SpkSampleRate 22050\n".write(to: moduleConfig, atomically: true, encoding: .utf8)
        let env = ["XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "HOME": dir.path]
        let enable = ModuleFixture.run(ModuleFixture.spkhost, ["speechd", "enable", "--default", "--module", ModuleFixture.sdSpk,
                                                               "--config", moduleConfig.path], environment: env)
        XCTAssertEqual(enable.status, 0, enable.stderr)
        XCTAssertTrue(enable.stdout.contains("started \(userFile) from /etc/speech-dispatcher/speechd.conf"), enable.stdout)
        let text = try String(contentsOfFile: userFile, encoding: .utf8)
        let systemText = try String(contentsOfFile: "/etc/speech-dispatcher/speechd.conf", encoding: .utf8)
        XCTAssertTrue(text.hasPrefix(systemText))
        XCTAssertTrue(FileManager.default.fileExists(atPath: conf.appendingPathComponent("modules/espeak-ng.conf").path))

        // A server reading that directory, with its log and audio kept here.
        let socket = dir.appendingPathComponent("sock").path
        try (text.replacingOccurrences(of: "LogDir  \"default\"", with: "LogDir \"\(dir.path)\"")
             + "AudioOutputMethod \"alsa\"\n").write(toFile: userFile, atomically: true, encoding: .utf8)
        try "pcm.!default { type file\n slave.pcm \"null\"\n file \"\(dir.path)/audio.raw\"\n format \"raw\" }\n"
            .write(to: dir.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/speech-dispatcher")
        server.arguments = ["-s", "-C", conf.path, "-S", socket, "-t", "0"]
        server.environment = ProcessInfo.processInfo.environment.merging(env.merging(["LV2_PATH": ModuleFixture.lv2Path, "XDG_DATA_HOME": dir.path + "/data", "XDG_RUNTIME_DIR": dir.path]) { $1 }) { $1 }
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            kill(server.processIdentifier, SIGTERM)
            for _ in 0..<60 where server.isRunning { usleep(50_000) }
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
            server.waitUntilExit()
        }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(25_000) }
        let client = ["SPEECHD_ADDRESS": "unix_socket:" + socket]
        let modules = ModuleFixture.run("spd-say", ["-O"], environment: client)
        XCTAssertTrue(modules.stdout.contains("spk"), modules.stdout + modules.stderr)
        XCTAssertTrue(modules.stdout.contains("espeak-ng"), "espeak-ng is still offered: \(modules.stdout)")
        let spk = ModuleFixture.run("spd-say", ["-o", "spk", "-L"], environment: client)
        XCTAssertTrue(spk.stdout.contains("CMU SLT"), spk.stdout + spk.stderr)
        let said = ModuleFixture.run("spd-say", ["-w", "Default module."], environment: client)
        XCTAssertEqual(said.status, 0)
        XCTAssertGreaterThan((try? FileManager.default.attributesOfItem(atPath: dir.path + "/audio.raw")[.size] as? Int) ?? 0, 22050,
                             "spk, the default module, spoke")

        try text.write(toFile: userFile, atomically: true, encoding: .utf8)
        let disable = ModuleFixture.run(ModuleFixture.spkhost, ["speechd", "disable"], environment: env)
        XCTAssertEqual(disable.status, 0, disable.stderr)
        XCTAssertEqual(try String(contentsOfFile: userFile, encoding: .utf8), systemText)
    }

    func testEnableRefusesAMissingModule() {
        let result = ModuleFixture.run(ModuleFixture.spkhost, ["speechd", "enable", "--module", "/nonexistent/sd_spk", "--config", "/nonexistent/spk.conf",
                                                               "--user-config", dir.appendingPathComponent("speechd.conf").path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        XCTAssertTrue(result.stderr.hasPrefix("error: /nonexistent/sd_spk does not exist"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("speechd.conf").path), "nothing left behind")
    }
}
