import Foundation
import LV2Host
import NeuralVoices

/// Fetches wheels from PyPI with pip, unpacked into a directory of their own (`--target`), not
/// into any Python environment. Python is `SPK_PYTHON` or `python3`; pip's own settings (an
/// index mirror, `PIP_FIND_LINKS`, proxies) apply as usual.
enum Pip {
    static func install(_ packages: [PyPIPackage], into target: String, log: String) throws {
        let python = ProcessInfo.processInfo.environment["SPK_PYTHON"] ?? "python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-m", "pip", "install", "--quiet", "--no-deps", "--only-binary=:all:", "--no-compile",
                             "--disable-pip-version-check", "--no-input", "--retries", "2", "--target", target]
            + packages.map(\.requirement)
        var environment = ProcessInfo.processInfo.environment
        environment["PIP_ROOT_USER_ACTION"] = "ignore"
        process.environment = environment
        FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw HostError("cannot run \(python): \(error.localizedDescription) (neural voices are fetched with pip: apt-get install python3-pip)")
        }
        process.waitUntilExit()
        try? output.close()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let reason = lines.last(where: { $0.hasPrefix("ERROR") }) ?? lines.last ?? "exit status \(process.terminationStatus)"
            let what = packages.map(\.requirement).joined(separator: " ")
            if text.contains("No module named pip") {
                throw HostError("\(python) has no pip (apt-get install python3-pip): cannot fetch \(what)")
            }
            throw HostError("pip could not fetch \(what) from PyPI: \(reason)")
        }
    }
}
