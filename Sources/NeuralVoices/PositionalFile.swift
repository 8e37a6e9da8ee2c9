import Glibc

/// A file read at given offsets (pread), for looking at a large model's structure without
/// reading all of it.
final class PositionalFile {
    let path: String
    let size: Int
    private let fd: Int32

    init(path: String) throws(NeuralVoiceError) {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .damaged(path, String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw .damaged(path, String(cString: strerror(errno)))
        }
        size = Int(info.st_size)
    }

    deinit { close(fd) }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    func read(at offset: Int, count: Int) throws(NeuralVoiceError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, min(count, size - offset)))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            guard n > 0 else { throw .damaged(path, n == 0 ? "ends early" : String(cString: strerror(errno))) }
            done += n
        }
        return bytes
    }

    /// Copies `range` of this file to the end of `output`.
    func copy(_ range: Range<Int>, to output: Int32, outputPath: String) throws(NeuralVoiceError) {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let chunk = try read(at: offset, count: min(1 << 20, range.upperBound - offset))
            var written = 0
            while written < chunk.count {
                let n = chunk.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + written, $0.count - written) }
                guard n > 0 else { throw .damaged(outputPath, "cannot write: \(String(cString: strerror(errno)))") }
                written += n
            }
            offset += chunk.count
        }
    }
}
