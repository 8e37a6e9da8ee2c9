import Glibc

/// The top level of an ONNX model file, a protobuf `ModelProto`, read and written without a
/// protobuf library. spk needs two things from it: the `metadata_props` (field 14) that
/// sherpa-onnx reads, which the installer writes, and to know before onnxruntime sees the file
/// that it is whole: every top-level field well formed, the graph there, the file ending where
/// the last field does.
public struct ONNXModelFile {
    public let path: String
    public let size: Int
    /// `metadata_props` in file order; a key set twice keeps its last value here.
    public private(set) var metadata: [String: String] = [:]
    /// Each top-level field: its number and where its bytes (key included) are in the file.
    private var fields: [(number: Int, bytes: Range<Int>)] = []

    /// ModelProto fields and their protobuf wire types (0 varint, 2 length-delimited).
    private static let knownFields: [Int: Int] = [
        1: 0, 2: 2, 3: 2, 4: 2, 5: 0, 6: 2, 7: 2, 8: 2, 14: 2, 20: 2, 25: 2, 26: 2,
    ]
    private static let irVersion = 1, graph = 7, metadataProps = 14

    /// Reads the top-level structure; throws naming the file when it is not a whole model.
    public init(path: String) throws(NeuralVoiceError) {
        self.path = path
        let file = try PositionalFile(path: path)
        size = file.size
        var offset = 0
        while offset < size {
            let start = offset
            let header = try file.read(at: offset, count: 20)
            var cursor = 0
            guard let key = Self.varint(header, &cursor), key >> 3 > 0 else { throw .damaged(path, "not an ONNX model (bad field at byte \(start))") }
            let number = Int(key >> 3), wireType = Int(key & 7)
            if let expected = Self.knownFields[number], expected != wireType {
                throw .damaged(path, "not an ONNX model (field \(number) has wire type \(wireType) at byte \(start))")
            }
            switch wireType {
            case 0:
                guard Self.varint(header, &cursor) != nil else { throw .damaged(path, "not an ONNX model (bad number at byte \(start))") }
                offset += cursor
            case 1: offset += cursor + 8
            case 5: offset += cursor + 4
            case 2:
                guard let length = Self.varint(header, &cursor), length < 1 << 40 else {
                    throw .damaged(path, "not an ONNX model (bad length at byte \(start))")
                }
                offset += cursor + Int(length)
                guard offset <= size else { throw .damaged(path, "is cut short: \(size) bytes, field \(number) needs \(offset)") }
                if number == Self.metadataProps {
                    let (key, value) = try Self.entry(file.read(at: start + cursor, count: Int(length)), path: path)
                    metadata[key] = value
                }
            default:
                throw .damaged(path, "not an ONNX model (wire type \(wireType) at byte \(start))")
            }
            guard offset <= size else { throw .damaged(path, "is cut short at byte \(size)") }
            fields.append((number, start..<offset))
        }
        guard fields.contains(where: { $0.number == Self.graph }), fields.contains(where: { $0.number == Self.irVersion }) else {
            throw .damaged(path, "not an ONNX model (no graph)")
        }
    }

    /// Writes this model to `destination` with `metadata` set: other fields are copied as they
    /// are, earlier values of the same keys dropped, the new entries appended.
    public func write(to destination: String, metadata newEntries: [(String, String)]) throws(NeuralVoiceError) {
        let source = try PositionalFile(path: path)
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw .damaged(destination, "cannot create: \(String(cString: strerror(errno)))") }
        defer { close(output) }
        let replaced = Set(newEntries.map(\.0))
        for field in fields {
            if field.number == Self.metadataProps {
                let body = try source.read(at: field.bytes.lowerBound, count: field.bytes.count)
                var cursor = 0
                _ = Self.varint(body, &cursor)
                _ = Self.varint(body, &cursor)
                if let entry = try? Self.entry(Array(body[cursor...]), path: path), replaced.contains(entry.0) { continue }
            }
            try source.copy(field.bytes, to: output, outputPath: destination)
        }
        var tail: [UInt8] = []
        for (key, value) in newEntries {
            var entry: [UInt8] = []
            Self.appendField(1, Array(key.utf8), to: &entry)
            Self.appendField(2, Array(value.utf8), to: &entry)
            Self.appendField(Self.metadataProps, entry, to: &tail)
        }
        let written = tail.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
        guard written == tail.count, fsync(output) == 0 else {
            throw .damaged(destination, "cannot write: \(String(cString: strerror(errno)))")
        }
    }

    // MARK: protobuf wire format

    private static func varint(_ bytes: [UInt8], _ cursor: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while cursor < bytes.count, shift < 64 {
            let byte = bytes[cursor]
            cursor += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// A `StringStringEntryProto`: key (1) and value (2).
    private static func entry(_ bytes: [UInt8], path: String) throws(NeuralVoiceError) -> (String, String) {
        var key = "", value = ""
        var cursor = 0
        while cursor < bytes.count {
            guard let tag = varint(bytes, &cursor), tag & 7 == 2, let length = varint(bytes, &cursor),
                  cursor + Int(length) <= bytes.count else { throw .damaged(path, "has a malformed metadata entry") }
            let text = String(decoding: bytes[cursor..<cursor + Int(length)], as: UTF8.self)
            cursor += Int(length)
            if tag >> 3 == 1 { key = text } else if tag >> 3 == 2 { value = text }
        }
        return (key, value)
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    private static func appendField(_ number: Int, _ payload: [UInt8], to bytes: inout [UInt8]) {
        appendVarint(UInt64(number << 3 | 2), to: &bytes)
        appendVarint(UInt64(payload.count), to: &bytes)
        bytes += payload
    }
}
