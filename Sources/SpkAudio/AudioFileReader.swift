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
    /// The longest clip spk reads (an SSML `<audio>`, a personal voice take).
    public static let maxSeconds = 300.0

    /// Reads a whole file (any format libsndfile knows), with `AudioFileStream`'s checks: a
    /// regular file, at most `maxSeconds` long, refused before anything is allocated. Memory is
    /// the mono clip only; a header claiming more frames than the file holds ends at its end.
    public static func readMono(path: String, maxSeconds: Double = AudioFileReader.maxSeconds) throws -> MonoAudio {
        let stream = try AudioFileStream(path: path, maxSeconds: maxSeconds)
        var mono: [Float] = []
        while mono.count < stream.frames {
            let block = stream.read(min(4096, stream.frames - mono.count))
            if block.isEmpty { break }
            mono += block
        }
        return MonoAudio(samples: mono, sampleRate: stream.sampleRate)
    }
}
