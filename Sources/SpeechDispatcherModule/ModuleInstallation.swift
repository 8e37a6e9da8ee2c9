import Glibc

/// Where scripts/setup.sh puts sd_spk and its configuration: one directory,
/// /usr/local/lib/speech-dispatcher-modules as root, ~/.local/lib/speech-dispatcher-modules
/// otherwise; or beside spkhost itself (a build directory).
public enum ModuleInstallation {
    public static let programName = "sd_spk"
    public static let configName = "spk.conf"

    public static func directories(besideExecutable executable: String?) -> [String] {
        var dirs: [String] = []
        if let executable, let slash = executable.lastIndex(of: "/") { dirs.append(String(executable[..<slash])) }
        dirs.append("/usr/local/lib/speech-dispatcher-modules")
        if let home = getenv("HOME") { dirs.append(String(cString: home) + "/.local/lib/speech-dispatcher-modules") }
        return dirs
    }

    /// The first directory holding `name`.
    public static func find(_ name: String, besideExecutable executable: String?) -> String? {
        directories(besideExecutable: executable).map { $0 + "/" + name }.first { access($0, R_OK) == 0 }
    }
}
