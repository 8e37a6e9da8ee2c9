import CSndfile

/// A sound file read a stretch at a time, mixed down to mono, so a long clip is never held
/// whole in memory.
public final class AudioFileStream {
    public let path: String
    public let sampleRate: Int
    /// Frames in the file, as its header says.
    public let frames: Int
    private let channels: Int
    private let file: OpaquePointer
    private var interleaved: [Float] = []

    /// Opens any format libsndfile knows (WAV, FLAC, Ogg, AIFF, ...).
    public init(path: String) throws {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(file)
            throw AudioFileError(path: path, reason: "no audio channels")
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
}
