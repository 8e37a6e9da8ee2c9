import CSndfile

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
    /// Reads any format libsndfile knows (WAV, FLAC, Ogg, AIFF, ...).
    public static func readMono(path: String) throws -> MonoAudio {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let channels = Int(info.channels)
        let frames = Int(info.frames)
        guard channels > 0, info.samplerate > 0 else { throw AudioFileError(path: path, reason: "no audio channels") }
        var interleaved = [Float](repeating: 0, count: frames * channels)
        let read = Int(interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(frames)) })
        var mono = [Float](repeating: 0, count: read)
        let scale = 1 / Float(channels)
        for frame in 0..<read {
            var sum: Float = 0
            for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
            mono[frame] = sum * scale
        }
        return MonoAudio(samples: mono, sampleRate: Int(info.samplerate))
    }
}
