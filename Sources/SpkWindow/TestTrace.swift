import Glibc

/// The window's test hook: with `SPK_UI_TRACE=FILE` in the host's environment, the window
/// appends a line to FILE for each thing a person would see change (the lit word, an error, the
/// voice list, the text it sent), so tests follow the window without reading pixels or timing.
/// Off (nil) otherwise.
final class TestTrace {
    private let file: UnsafeMutablePointer<FILE>

    init?() {
        guard let path = getenv("SPK_UI_TRACE"), let file = fopen(path, "a") else { return nil }
        self.file = file
    }

    deinit { fclose(file) }

    func line(_ text: String) {
        // One line per event: newlines inside a value would split it.
        let flat = text.replacingNewlines()
        fputs(flat + "\n", file)
        fflush(file)
    }
}

extension String {
    func replacingNewlines() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\n" ? "\u{23CE}" : $0 }))
    }
}
