/// Rewrites the version a shared library requires of one of its dependencies (an ELF64
/// `.gnu.version_r` entry), as patchelf would: sherpa-onnx-core 2.0.1's C API asks for
/// `OrtGetApiBase@VERS_1.28.2`, the onnxruntime it ships, and spk gives it onnxruntime 1.32
/// (`VERS_1.32.0`), whose sessions are made in half the time. onnxruntime's C API is versioned by
/// number inside `OrtGetApiBase()`, and every later release serves the older numbers, so only
/// the ELF symbol version stands in the way. The two names are the same length, so the string
/// is rewritten in place and its hash updated; nothing else in the file moves.
public enum ELFVersionNeed {
    /// `library`'s bytes with its need of `old` (from `dependency`) turned into `new`; throws when
    /// the file is not a little-endian ELF64 library needing exactly that.
    public static func replace(_ old: String, with new: String, dependency: String, in library: [UInt8]) throws(NeuralVoiceError) -> [UInt8] {
        guard old.utf8.count == new.utf8.count else { throw NeuralVoiceError("version names differ in length: \(old), \(new)") }
        var bytes = library
        func fail(_ why: String) -> NeuralVoiceError { NeuralVoiceError("cannot re-version the sherpa-onnx library: \(why)") }
        guard bytes.count > 64, bytes[0..<4] == [0x7f, 0x45, 0x4c, 0x46], bytes[4] == 2, bytes[5] == 1 else { throw fail("not a little-endian ELF64 file") }
        func int(_ at: Int, _ size: Int) throws(NeuralVoiceError) -> Int {
            guard at >= 0, at + size <= bytes.count else { throw fail("truncated") }
            var value = 0
            for i in (0..<size).reversed() { value = value << 8 | Int(bytes[at + i]) }
            return value
        }
        func string(_ at: Int) throws(NeuralVoiceError) -> String {
            guard at >= 0, at < bytes.count, let end = bytes[at...].firstIndex(of: 0) else { throw fail("bad string offset") }
            return String(decoding: bytes[at..<end], as: UTF8.self)
        }
        let sectionTable = try int(0x28, 8), sectionSize = try int(0x3A, 2), sections = try int(0x3C, 2)
        func section(_ index: Int) throws(NeuralVoiceError) -> (type: Int, offset: Int, link: Int, info: Int) {
            let at = sectionTable + index * sectionSize
            return (try int(at + 4, 4), try int(at + 24, 8), try int(at + 40, 4), try int(at + 44, 4))
        }
        var replaced = 0
        for index in 0..<sections {
            let need = try section(index)
            guard need.type == 0x6fff_fffe else { continue }  // SHT_GNU_verneed
            let strings = try section(need.link).offset
            var entry = need.offset
            for _ in 0..<need.info {
                let count = try int(entry + 2, 2), file = try string(strings + int(entry + 4, 4))
                var aux = entry + (try int(entry + 8, 4))
                for _ in 0..<count {
                    let nameOffset = strings + (try int(aux + 8, 4))
                    if file == dependency, try string(nameOffset) == old {
                        bytes.replaceSubrange(nameOffset..<(nameOffset + new.utf8.count), with: Array(new.utf8))
                        let hash = elfHash(new)
                        for i in 0..<4 { bytes[aux + i] = UInt8(truncatingIfNeeded: hash >> (8 * i)) }
                        replaced += 1
                    }
                    aux += try int(aux + 12, 4)
                }
                entry += try int(entry + 12, 4)
            }
        }
        guard replaced > 0 else { throw fail("it does not need \(old) of \(dependency)") }
        return bytes
    }

    /// The System V ELF hash of a symbol or version name.
    static func elfHash(_ name: String) -> UInt32 {
        var h: UInt32 = 0
        for c in name.utf8 {
            h = (h << 4) &+ UInt32(c)
            let g = h & 0xf000_0000
            if g != 0 { h ^= g >> 24 }
            h &= ~g
        }
        return h
    }
}
