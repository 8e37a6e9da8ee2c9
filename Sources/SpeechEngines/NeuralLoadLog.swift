import Glibc

/// A test hook: when `SPK_NEURAL_LOAD_LOG` names a file, each model load appends lines to it
/// (`loading DIR threads=N`, then `loaded DIR threads=N new-threads=K` with K the threads the
/// process gained meanwhile, onnxruntime's pool among them, or `failed DIR ERROR`), so tests see
/// when a voice was loaded and with how many threads, without timing anything.
struct NeuralLoadLog {
    private let path = getenv("SPK_NEURAL_LOAD_LOG").map { String(cString: $0) }

    func write(_ line: String) {
        guard let path, let file = fopen(path, "a") else { return }
        fputs(line + "\n", file)
        fclose(file)
    }

    /// The process's threads now (/proc/self/task), or 0 when it cannot be read.
    static func threadCount() -> Int {
        guard let directory = opendir("/proc/self/task") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != 46 { count += 1 }  // not "." or ".."
        }
        return count
    }
}
