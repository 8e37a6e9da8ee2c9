import FoundationEssentials
import Glibc

/// `spkhost speechd enable|disable`: registers sd_spk in the person's speech-dispatcher
/// configuration, `~/.config/speech-dispatcher/speechd.conf`, as one marked block at its end
/// that `disable` takes out again, leaving every other line as it was.
///
/// speech-dispatcher reads the user's file instead of the system one, not on top of it, so a
/// missing user file is started from the system file (as `spd-conf -u` does). And as soon as a
/// configuration has one `AddModule`, speech-dispatcher stops finding its modules by itself: a
/// file without AddModule lines gets, inside the block, one for each module it would have found
/// (the sd_* programs in its module directory), so adding spk takes no voice away.
public struct SpeechdUserConfig {
    public static let begin = "# >>> spk: added by `spkhost speechd enable`; `spkhost speechd disable` removes this block"
    public static let end = "# <<< spk"

    public var userPath: String
    public var systemPath: String
    public var moduleDirectory: String

    public init(userPath: String = SpeechdUserConfig.defaultUserPath(),
                systemPath: String = "/etc/speech-dispatcher/speechd.conf",
                moduleDirectory: String = "/usr/lib/speech-dispatcher-modules") {
        self.userPath = userPath
        self.systemPath = systemPath
        self.moduleDirectory = moduleDirectory
    }

    /// `$XDG_CONFIG_HOME/speech-dispatcher/speechd.conf`, by default under ~/.config.
    public static func defaultUserPath() -> String {
        if let x = getenv("XDG_CONFIG_HOME"), x.pointee != 0 { return String(cString: x) + "/speech-dispatcher/speechd.conf" }
        let home = getenv("HOME").map { String(cString: $0) } ?? "."
        return home + "/.config/speech-dispatcher/speechd.conf"
    }

    public struct ConfigError: Error, CustomStringConvertible { public let description: String }

    // MARK: the text

    /// `text` without a block from an earlier enable, then the new block.
    public static func enabled(_ text: String, module: String, config: String, makeDefault: Bool, otherModules: [(name: String, binary: String, config: String)]) -> String {
        var body = disabled(text)
        if !body.isEmpty && !body.hasSuffix("\n") { body += "\n" }
        var block = [begin]
        if !hasAddModule(body) {
            for other in otherModules where other.name != "spk" {
                block.append("AddModule \"\(other.name)\" \"\(other.binary)\" \"\(other.config)\"")
            }
        }
        block.append("AddModule \"spk\" \"\(module)\" \"\(config)\"")
        if makeDefault { block.append("DefaultModule spk") }
        block.append(end)
        return body + block.joined(separator: "\n") + "\n"
    }

    /// `text` without the block `enabled` added (exactly its lines).
    public static func disabled(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let start = lines.firstIndex(of: begin) {
            guard let stop = lines[start...].firstIndex(of: end) else { break }
            lines.removeSubrange(start...stop)
        }
        return lines.joined(separator: "\n")
    }

    public static func isEnabled(_ text: String) -> Bool {
        text.split(separator: "\n").contains { $0 == begin }
    }

    /// An AddModule line that is not commented out.
    static func hasAddModule(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            line.drop { $0 == " " || $0 == "\t" }.lowercased().hasPrefix("addmodule")
        }
    }

    // MARK: the files

    /// Adds (or replaces) the block; returns what was done, for the person.
    @discardableResult
    public func enable(module: String, config: String, makeDefault: Bool) throws -> String {
        guard module.hasPrefix("/"), config.hasPrefix("/") else {
            throw ConfigError(description: "the module and its configuration must be absolute paths (\(module), \(config))")
        }
        for path in [module, config] where access(path, R_OK) != 0 {
            throw ConfigError(description: "\(path) does not exist or cannot be read (run scripts/setup.sh first)")
        }
        let (current, started) = try currentText()
        let text = Self.enabled(current, module: module, config: config, makeDefault: makeDefault, otherModules: systemModules())
        if started { try copySystemDirectories() }
        try writeAtomically(text)
        return (started ? "started \(userPath) from \(systemPath); " : "") + "registered spk in \(userPath)"
            + (makeDefault ? " as the default module" : "")
    }

    /// Removes the block; the rest of the file stays as it is.
    @discardableResult
    public func disable() throws -> String {
        guard access(userPath, F_OK) == 0 else { return "\(userPath) does not exist: nothing to remove" }
        let text = try read(userPath)
        guard Self.isEnabled(text) else { return "spk is not registered in \(userPath)" }
        try writeAtomically(Self.disabled(text))
        return "removed spk from \(userPath)"
    }

    /// The user's file, or the system file a new one starts from.
    func currentText() throws -> (String, startedFromSystem: Bool) {
        if access(userPath, F_OK) == 0 { return (try read(userPath), false) }
        if access(systemPath, F_OK) == 0 { return (try read(systemPath), true) }
        return ("", false)
    }

    /// Like `spd-conf -u`: the system's clients/ and modules/ configuration beside a user file
    /// started from the system one, where the file's `Include "clients/*.conf"` and the modules'
    /// relative configuration names are looked for. Files already there are kept.
    func copySystemDirectories() throws {
        let fm = FileManager.default
        guard let slash = systemPath.lastIndex(of: "/"), let userSlash = userPath.lastIndex(of: "/") else { return }
        let systemDir = String(systemPath[..<slash]), userDir = String(userPath[..<userSlash])
        for sub in ["clients", "modules"] {
            let from = systemDir + "/" + sub, to = userDir + "/" + sub
            guard let files = try? fm.contentsOfDirectory(atPath: from) else { continue }
            do {
                try fm.createDirectory(atPath: to, withIntermediateDirectories: true)
                for file in files where !fm.fileExists(atPath: to + "/" + file) {
                    try fm.copyItem(atPath: from + "/" + file, toPath: to + "/" + file)
                }
            } catch {
                throw ConfigError(description: "cannot copy \(from) to \(to): \(error)")
            }
        }
    }

    /// The modules speech-dispatcher finds by itself: each sd_NAME program but the generic and
    /// dummy ones, with its NAME.conf.
    func systemModules() -> [(name: String, binary: String, config: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: moduleDirectory)) ?? []
        return names.sorted().compactMap { file in
            guard file.hasPrefix("sd_"), file != "sd_generic", file != "sd_dummy" else { return nil }
            let name = String(file.dropFirst(3))
            return (name, moduleDirectory + "/" + file, name + ".conf")
        }
    }

    private func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(description: "cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes beside the file and renames over it, so speech-dispatcher never reads half a file.
    private func writeAtomically(_ text: String) throws {
        let directory = String(userPath[..<(userPath.lastIndex(of: "/") ?? userPath.startIndex)])
        do {
            try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
        } catch {
            throw ConfigError(description: "cannot create \(directory): \(error)")
        }
        let temporary = userPath + ".spk-\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw ConfigError(description: "cannot write \(temporary)")
        }
        guard rename(temporary, userPath) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ConfigError(description: "cannot replace \(userPath): \(reason)")
        }
    }
}
