import Foundation
import LV2Host
import SSML

/// A render must not write over what it reads: the output may not be the input file, the
/// markers file, or a file an `<audio>` of the request plays. Checked before anything is
/// written, by device and inode when the file exists, else by its canonical path.
enum OutputClash {
    static func check(output: String, markers: String?, input: String?, request: String) throws {
        if let markers, same(markers, output) {
            throw HostError("--markers '\(markers)' is the same file as --output '\(output)'")
        }
        if let input, same(input, output) {
            throw HostError("--input '\(input)' is the same file as --output '\(output)': the render would overwrite its own request")
        }
        // A request that does not parse is reported by the synth as usual.
        guard let program = try? SSMLParser.parse(request) else { return }
        for clip in audioClips(program.items) {
            for target in [output] + (markers.map { [$0] } ?? []) where same(clip.path, target) {
                throw HostError("<audio src=\"\(clip.path)\"> is the output file '\(target)': the render would overwrite a file it plays")
            }
        }
    }

    /// Every `<audio>`, also those inside another's fallback.
    private static func audioClips(_ items: [SpeechItem]) -> [AudioClip] {
        items.flatMap { item -> [AudioClip] in
            if case .audio(let clip) = item { return [clip] + audioClips(clip.fallback) }
            return []
        }
    }

    /// Whether two paths name one file.
    static func same(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        if stat(a, &sa) == 0, stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        return canonical(a) == canonical(b)
    }

    /// The path with its directory resolved (symbolic links, `..`), for files not made yet.
    private static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        guard let resolved = realpath(directory, nil) else { return url.standardizedFileURL.path }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + url.lastPathComponent
    }
}
