import Foundation
import LV2Host

/// Writes the markers JSON of shared/DESIGN.md (`[{"type", "frame", "seconds", "textOffset",
/// "textLength", "name"?}]`) as the markers come, so a book's markers are never held in memory.
/// Like the audio, it goes to a hidden file beside the target and is renamed into place by
/// `commit()`; without it (a failed render) the hidden file is removed and the target left alone.
final class MarkerFileWriter {
    struct Entry: Encodable {
        var type: String
        var frame: Int64
        var seconds: Double
        var textOffset: Int
        var textLength: Int
        var name: String?
    }

    let path: String
    private let temporaryPath: String
    private let sampleRate: Double
    private var file: UnsafeMutablePointer<FILE>?
    private var count = 0
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    init(path: String, sampleRate: Double) throws {
        self.path = path
        self.sampleRate = sampleRate
        let url = URL(fileURLWithPath: path)
        temporaryPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).part").path
        guard let file = fopen(temporaryPath, "w") else {
            throw HostError("cannot write markers file '\(path)': \(String(cString: strerror(errno)))")
        }
        self.file = file
        fputs("[", file)
    }

    deinit { abandon() }

    /// Adds the event if it is a marker.
    func add(_ timed: SpeechSynth.TimedEvent) throws {
        guard case .marker(let m) = timed.event, let file else { return }
        let entry = Entry(type: m.type.rawValue, frame: timed.frame, seconds: Double(timed.frame) / sampleRate,
                          textOffset: m.textOffset, textLength: m.textLength, name: m.name)
        let json = try encoder.encode(entry)
        fputs(count == 0 ? "\n  " : ",\n  ", file)
        _ = json.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        count += 1
    }

    func commit() throws {
        guard let file else { return }
        self.file = nil
        fputs(count == 0 ? "]\n" : "\n]\n", file)
        let failed = ferror(file) != 0
        if fclose(file) != 0 || failed {
            unlink(temporaryPath)
            throw HostError("cannot write markers file '\(path)': \(String(cString: strerror(errno)))")
        }
        if rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw HostError("cannot write markers file '\(path)': \(reason)")
        }
    }

    func abandon() {
        guard let file else { return }
        self.file = nil
        fclose(file)
        unlink(temporaryPath)
    }
}
