import Foundation
import LV2Host

/// The progress line of a long render, on standard error when it is a terminal: share of the
/// text spoken, audio written, speed as a multiple of real time, and time left. It appears once
/// the render has taken a second and is redrawn at most five times a second.
struct RenderProgress {
    private let textBytes: Int
    private let sampleRate: Double
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn: TimeInterval = 0
    private var textDone = 0
    private var drawn = false

    init(textBytes: Int, sampleRate: Int, quiet: Bool) {
        self.textBytes = max(textBytes, 1)
        self.sampleRate = Double(sampleRate)
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Where the speech has got to in the text: the end of the latest marker.
    mutating func reached(_ timed: SpeechSynth.TimedEvent) {
        if case .marker(let m) = timed.event { textDone = max(textDone, m.textOffset + m.textLength) }
    }

    /// Redraws the line, given the audio frames written so far.
    mutating func update(frames: Int) {
        guard enabled else { return }
        let elapsed = Date().timeIntervalSince(started)
        guard elapsed >= 1, elapsed - lastDrawn >= 0.2 else { return }
        lastDrawn = elapsed
        let share = min(Double(textDone) / Double(textBytes), 1)
        let audio = Double(frames) / sampleRate
        var line = String(format: "%3.0f%% of the text, %@ of audio, %.0fx real time", share * 100,
                          Self.clock(audio) as NSString, audio / elapsed)
        if share > 0.01 { line += ", \(Self.clock(elapsed * (1 - share) / share)) left" }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
        drawn = true
    }

    /// Clears the line, so what follows starts on a clean one.
    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    private static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
