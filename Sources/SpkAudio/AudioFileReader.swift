import CSndfile
import Glibc

/// A sound file read whole into memory, mixed down to mono.
public struct MonoAudio: Sendable {
    public var samples: [Float]
    public var sampleRate: Int
    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }
    public var seconds: Double { Double(samples.count) / Double(sampleRate) }
}

public enum AudioFileReader {
    /// The longest clip `readMono` reads (an SSML `<audio>`, a personal voice take).
    public static let maxSeconds = 300.0

    /// Reads any format libsndfile knows (WAV, FLAC, Ogg, AIFF, ...). Only regular files: a FIFO
    /// or a device would block or never end. A file longer than `maxSeconds` is refused before
    /// anything is allocated; its header is checked against its real size, so a sparse file
    /// claiming hours is refused too.
    public static func readMono(path: String, maxSeconds: Double = AudioFileReader.maxSeconds) throws -> MonoAudio {
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
            throw AudioFileError(path: path, reason: "not a regular file (\(kind(of: status.st_mode)))", kind: .notRegularFile)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var info = SF_INFO()
        guard let file = sf_open_fd(fd, Int32(SFM_READ), &info, Int32(SF_TRUE)) else {
            close(fd)
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let channels = Int(info.channels)
        guard channels > 0, info.samplerate > 0, info.frames >= 0 else { throw AudioFileError(path: path, reason: "no audio channels") }
        let seconds = Double(info.frames) / Double(info.samplerate)
        guard seconds <= maxSeconds else {
            throw AudioFileError(path: path, reason: "lasts \(Int(seconds)) s: a clip may last at most \(Int(maxSeconds)) s", kind: .tooLong)
        }
        // Read a block at a time and mix down as it comes: memory is the mono clip only, and a
        // header claiming more frames than the file holds ends at the file's end.
        let frames = Int(info.frames)
        var mono: [Float] = []
        mono.reserveCapacity(min(frames, Int(status.st_size) / max(channels, 1)))
        let block = 4096
        var interleaved = [Float](repeating: 0, count: block * channels)
        let scale = 1 / Float(channels)
        while mono.count < frames {
            let want = min(block, frames - mono.count)
            let read = Int(interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(want)) })
            guard read > 0 else { break }
            for frame in 0..<read {
                var sum: Float = 0
                for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
                mono.append(sum * scale)
            }
        }
        return MonoAudio(samples: mono, sampleRate: Int(info.samplerate))
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
