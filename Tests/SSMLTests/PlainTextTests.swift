import XCTest
@testable import SSML

final class PlainTextTests: XCTestCase {
    func testPlainTextIsOneRunMappedByteForByte() throws {
        let request = "Hello world. How are you?"
        let program = try SSMLParser.parse(request)
        let expected = TextRun(text: request, sourceMap: SourceMap(text: request, source: SourceRange(offset: 0, length: 25)),
                               style: Style())
        XCTAssertEqual(program, SpeechProgram(items: [.text(expected)], language: nil))
        XCTAssertEqual(expected.source(ofTextBytes: 13..<16), SourceRange(offset: 13, length: 3))
    }

    func testPlainTextIsNotUnescaped() throws {
        let request = "Tom &amp; Jerry <3 > 2"
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(run.text, request)
        XCTAssertEqual(sourceOf("Jerry", in: run, request: request), "Jerry")
    }

    func testUnicodePlainTextOffsetsAreUTF8Bytes() throws {
        let request = "Grüße, 世界! 👋🏽 done"
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(run.sourceMap.pieces, [SourceMap.Piece(textOffset: 0, textLength: request.utf8.count,
                                                              source: SourceRange(offset: 0, length: request.utf8.count))])
        XCTAssertEqual(sourceOf("世界", in: run, request: request), "世界")
        XCTAssertEqual(sourceOf("done", in: run, request: request), "done")
        let done = run.source(ofTextBytes: request.utf8.count - 4..<request.utf8.count)
        XCTAssertEqual(done.offset, "Grüße, 世界! 👋🏽 ".utf8.count)
    }

    func testLeadingWhitespaceBeforeTextIsPartOfTheText() throws {
        let request = "\n  Hi"
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(run.text, request)
        XCTAssertEqual(run.sourceMap.pieces.first?.source, SourceRange(offset: 0, length: 5))
    }

    func testLeadingWhitespaceBeforeMarkupIsStillMarkup() throws {
        let request = "\n  <speak>Hi <mark name=\"x\"/>there</speak>"
        let program = parsed(request)
        XCTAssertEqual(program.runs.map(\.text), ["Hi ", "there"])
        XCTAssertEqual(sourceOf("there", in: program.runs[1], request: request), "there")
        XCTAssertEqual(program.runs[1].sourceMap.pieces.first?.source.offset, 29)
    }

    func testByteOrderMarkBeforeMarkup() throws {
        let request = "\u{FEFF}<speak>Hi <mark name=\"x\"/>there</speak>"
        let program = parsed(request)
        XCTAssertEqual(program.runs.map(\.text), ["Hi ", "there"])
        XCTAssertEqual(sourceOf("there", in: program.runs[1], request: request), "there")
        XCTAssertEqual(program.runs[1].sourceMap.pieces.first?.source.offset, 29)
    }

    func testEmptyAndBlankRequestsAreErrors() {
        assertSSMLError("", line: 1, column: 1, "empty")
        assertSSMLError("  \n\t ", line: 1, column: 1, "empty")
        assertSSMLError("\u{FEFF}", line: 1, column: 1, "empty")
    }
}
