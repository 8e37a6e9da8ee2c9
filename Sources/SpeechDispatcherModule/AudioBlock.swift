/// A `705 AUDIO` event: a piece of audio handed back to the server, which plays it (the way
/// speech-dispatcher 0.11's own modules return audio). 16-bit little-endian mono PCM, with LF
/// and the escape byte 0x7d escaped HDLC-style (0x7d, then the byte with bit 5 inverted), so the
/// data stays on one line.
public enum AudioBlock {
    static let escape: UInt8 = 0x7d

    /// The whole event for `samples` (floats, clamped to -1...1).
    public static func event(_ samples: some Collection<Float>, sampleRate: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(samples.count * 2 + samples.count / 64 + 128)
        let header = "705-bits=16\n705-num_channels=1\n705-sample_rate=\(sampleRate)\n705-num_samples=\(samples.count)\n705-big_endian=0\n705-AUDIO"
        out.append(contentsOf: header.utf8)
        out.append(0)
        for sample in samples {
            let value = Int16(max(-1, min(1, sample)) * 32767)
            let bits = UInt16(bitPattern: value)
            append(UInt8(bits & 0xff), to: &out)
            append(UInt8(bits >> 8), to: &out)
        }
        out.append(0x0a)
        out.append(contentsOf: "705 AUDIO\n".utf8)
        return out
    }

    @inline(__always) private static func append(_ byte: UInt8, to out: inout [UInt8]) {
        if byte == 0x0a || byte == escape {
            out.append(escape)
            out.append(byte ^ 0x20)
        } else {
            out.append(byte)
        }
    }

    /// Undoes the escaping (what the server does): the PCM bytes of an event's data line.
    public static func unescape(_ data: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var escaped = false
        for byte in data {
            if escaped { out.append(byte ^ 0x20); escaped = false }
            else if byte == escape { escaped = true }
            else { out.append(byte) }
        }
        return out
    }
}
