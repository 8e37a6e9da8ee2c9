// Helpers shared by the SSML tests.

import XCTest
@testable import SSML

/// The request text a source range covers.
func excerpt(_ request: String, _ range: SourceRange) -> String {
    String(decoding: Array(request.utf8)[range.offset..<range.end], as: UTF8.self)
}

/// The request text that the first occurrence of `word` in a run's text came from.
func sourceOf(_ word: String, in run: TextRun, request: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
    let text = Array(run.text.utf8)
    let needle = Array(word.utf8)
    guard let start = (0...max(0, text.count - needle.count)).first(where: { text[$0..<min(text.count, $0 + needle.count)].elementsEqual(needle) }) else {
        XCTFail("\"\(word)\" is not in \"\(run.text)\"", file: file, line: line)
        return nil
    }
    return excerpt(request, run.source(ofTextBytes: start..<start + needle.count))
}

extension SpeechProgram {
    var runs: [TextRun] {
        items.compactMap { if case .text(let run) = $0 { return run } else { return nil } }
    }

    /// Runs with something to say (whitespace between elements left out).
    var spokenRuns: [TextRun] { runs.filter { !$0.text.allSatisfy(\.isWhitespace) } }

    var pauses: [Double] {
        items.compactMap { if case .pause(let seconds, _) = $0 { return seconds } else { return nil } }
    }

    var audioClips: [AudioClip] {
        items.compactMap { if case .audio(let clip) = $0 { return clip } else { return nil } }
    }
}

/// Parses, failing the test on an error.
func parsed(_ request: String, file: StaticString = #filePath, line: UInt = #line) -> SpeechProgram {
    do {
        return try SSMLParser.parse(request)
    } catch {
        XCTFail("unexpected error: \(error)", file: file, line: line)
        return SpeechProgram(items: [])
    }
}

/// The style of the only spoken run of `<speak>` + `inner` + `</speak>`.
func contentStyle(of inner: String, file: StaticString = #filePath, line: UInt = #line) -> Style? {
    let runs = parsed("<speak>\(inner)</speak>", file: file, line: line).spokenRuns
    XCTAssertEqual(runs.count, 1, "runs: \(runs.map(\.text))", file: file, line: line)
    return runs.first?.style
}

/// Expects parsing to fail with this position and a message containing `message`.
func assertSSMLError(_ request: String, line expectedLine: Int, column: Int, _ message: String,
                     file: StaticString = #filePath, line: UInt = #line) {
    do {
        let program = try SSMLParser.parse(request)
        XCTFail("expected an error, got \(program)", file: file, line: line)
    } catch let error as SSMLError {
        XCTAssertEqual(error.line, expectedLine, "line of \(error)", file: file, line: line)
        XCTAssertEqual(error.column, column, "column of \(error)", file: file, line: line)
        XCTAssertTrue(error.message.contains(message), "\"\(error.message)\" should contain \"\(message)\"", file: file, line: line)
    } catch {
        XCTFail("not an SSMLError: \(error)", file: file, line: line)
    }
}

func assertEqual(_ value: Double?, _ expected: Double, accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
    guard let value else { return XCTFail("no value", file: file, line: line) }
    XCTAssertEqual(value, expected, accuracy: accuracy, file: file, line: line)
}
