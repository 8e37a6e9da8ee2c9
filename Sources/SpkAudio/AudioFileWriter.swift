import CSndfile
import Glibc

/// Writes mono audio to a WAV or FLAC file through libsndfile.
///
/// Frames go to a hidden temporary file beside the target; `commit()` renames it into place and
/// `abandon()` (or deinit without commit) deletes it, so a failed render never leaves a
/// half-written file where the user asked for one.
public final class AudioFileWriter {
    public let path: String
    public let sampleRate: Int
    private let temporaryPath: String
    private var file: OpaquePointer?
    public private(set) var framesWritten = 0

    public enum Format: Sendable { case wav, flac }

    /// The format a path's extension asks for, or nil if libsndfile should not guess.
    public static func format(forPath path: String) -> Format? {
        let lower = path.lowercased()
        if lower.hasSuffix(".wav") { return .wav }
        if lower.hasSuffix(".flac") { return .flac }
        return nil
    }

    public init(path: String, sampleRate: Int) throws {
        guard let format = Self.format(forPath: path) else {
            throw AudioFileError(path: path, reason: "unsupported output format (use .wav or .flac)")
        }
        self.path = path
        self.sampleRate = sampleRate
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporaryPath = "\(directory).\(name).\(getpid()).part"
        // What a killed render of the same file left behind.
        ScratchFiles.removeDeadLeftovers(in: directory, prefix: ".\(name).", suffix: ".part")

        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        let container = format == .wav ? SF_FORMAT_WAV : SF_FORMAT_FLAC
        info.format = Int32(container | SF_FORMAT_PCM_16)
        ScratchFiles.register(temporaryPath)
        guard let handle = sf_open(temporaryPath, Int32(SFM_WRITE), &info) else {
            ScratchFiles.unregister(temporaryPath)
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        // Clip rather than wrap around when speech peaks above full scale.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        file = handle
    }

    public func write(_ frames: UnsafeBufferPointer<Float>) throws {
        guard let file, let base = frames.baseAddress, !frames.isEmpty else { return }
        let written = sf_writef_float(file, base, sf_count_t(frames.count))
        framesWritten += Int(written)
        if written != frames.count {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(file)))
        }
    }

    public func write(_ frames: [Float]) throws {
        try frames.withUnsafeBufferPointer { try write($0) }
    }

    /// Finishes the file and moves it to `path`.
    public func commit() throws {
        guard let handle = file else { return }
        file = nil
        defer { ScratchFiles.unregister(temporaryPath) }
        if sf_close(handle) != 0 {
            unlink(temporaryPath)
            throw AudioFileError(path: path, reason: "could not finish the file")
        }
        if rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw AudioFileError(path: path, reason: reason)
        }
    }

    /// Drops everything written; the target path is left as it was.
    public func abandon() {
        guard let handle = file else { return }
        file = nil
        sf_close(handle)
        unlink(temporaryPath)
        ScratchFiles.unregister(temporaryPath)
    }

    deinit { abandon() }
}
