import CSndfile
import Glibc

/// A sound file read a stretch at a time, mixed down to mono, so a long clip is never held
/// whole in memory. Only regular files open (a FIFO or a device would block or never end), and
/// only those of at most `maxSeconds`, checked before anything is read.
public final class AudioFileStream {
    public let path: String
    public let sampleRate: Int
    /// Frames in the file, as its header says (reading ends at the file's real end if sooner).
    public let frames: Int
    private let channels: Int
    private let file: OpaquePointer
    private var interleaved: [Float] = []

    /// Opens any format libsndfile knows (WAV, FLAC, Ogg, AIFF, ...).
    public init(path: String, maxSeconds: Double = AudioFileReader.maxSeconds) throws {
        // O_NONBLOCK: opening a FIFO must not wait for a writer before we can look at it.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw AudioFileError(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw AudioFileError(path: path, reason: reason)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw AudioFileError(path: path, reason: "not a regular file (\(Self.kind(of: status.st_mode)))", kind: .notRegularFile)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var info = SF_INFO()
        guard let file = sf_open_fd(fd, Int32(SFM_READ), &info, Int32(SF_TRUE)) else {
            close(fd)
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        guard info.channels > 0, info.samplerate > 0, info.frames >= 0 else {
            sf_close(file)
            throw AudioFileError(path: path, reason: "no audio channels")
        }
        let seconds = Double(info.frames) / Double(info.samplerate)
        guard seconds <= maxSeconds else {
            sf_close(file)
            throw AudioFileError(path: path, reason: "lasts \(Int(seconds)) s: a clip may last at most \(Int(maxSeconds)) s", kind: .tooLong)
        }
        self.path = path
        self.file = file
        channels = Int(info.channels)
        sampleRate = Int(info.samplerate)
        frames = Int(info.frames)
    }

    deinit { sf_close(file) }

    /// Up to `count` more frames, mono; empty at the end of the file.
    public func read(_ count: Int) -> [Float] {
        if interleaved.count < count * channels { interleaved = [Float](repeating: 0, count: count * channels) }
        let read = Int(interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(count)) })
        guard read > 0 else { return [] }
        if channels == 1 { return Array(interleaved[..<read]) }
        var mono = [Float](repeating: 0, count: read)
        let scale = 1 / Float(channels)
        for frame in 0..<read {
            var sum: Float = 0
            for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
            mono[frame] = sum * scale
        }
        return mono
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }
}
