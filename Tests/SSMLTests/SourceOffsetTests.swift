import XCTest
@testable import SSML

/// Every item must point at the request bytes it came from, exactly as the client sent them.
final class SourceOffsetTests: XCTestCase {
    /// Verbatim pieces must be byte-for-byte copies of the request (where a lone CR reads as the
    /// LF that XML makes of it), pieces must tile the text in order, and sources must lie inside
    /// the request.
    private func assertConsistentMaps(_ request: String, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(request.utf8).map { $0 == UInt8(ascii: "\r") ? UInt8(ascii: "\n") : $0 }
        func check(_ items: [SpeechItem]) {
            for item in items {
                switch item {
                case .text(let run):
                    let text = Array(run.text.utf8)
                    var expectedOffset = 0
                    for piece in run.sourceMap.pieces {
                        XCTAssertEqual(piece.textOffset, expectedOffset, "pieces tile \"\(run.text)\"", file: file, line: line)
                        expectedOffset = piece.textOffset + piece.textLength
                        XCTAssertLessThanOrEqual(piece.source.end, bytes.count, file: file, line: line)
                        if piece.isVerbatim && !run.spellOut {
                            XCTAssertEqual(Array(bytes[piece.source.offset..<piece.source.end]),
                                           Array(text[piece.textOffset..<piece.textOffset + piece.textLength]),
                                           "verbatim piece \(piece) of \"\(run.text)\"", file: file, line: line)
                        }
                    }
                    XCTAssertEqual(expectedOffset, text.count, "pieces cover \"\(run.text)\"", file: file, line: line)
                case .audio(let clip):
                    XCTAssertLessThanOrEqual(clip.source.end, bytes.count, file: file, line: line)
                    check(clip.fallback)
                case .pause(_, let source), .mark(_, let source), .boundary(_, let source):
                    XCTAssertLessThanOrEqual(source.end, bytes.count, file: file, line: line)
                    XCTAssertEqual(bytes[source.offset], UInt8(ascii: "<"), file: file, line: line)
                }
            }
        }
        check(parsed(request, file: file, line: line).items)
    }

    /// Each word of the runs' text must come from that same word in the request.
    private func assertWordsMapToThemselves(_ request: String, except entities: Set<String> = [],
                                            file: StaticString = #filePath, line: UInt = #line) {
        for run in parsed(request, file: file, line: line).runs {
            var offset = 0
            for word in run.text.split(separator: " ", omittingEmptySubsequences: false) {
                let length = word.utf8.count
                if length > 0 && !entities.contains(String(word)) {
                    let source = run.source(ofTextBytes: offset..<offset + length)
                    XCTAssertEqual(excerpt(request, source), String(word), file: file, line: line)
                }
                offset += length + 1
            }
        }
        assertConsistentMaps(request, file: file, line: line)
    }

    func testEntityThenMarkThenWord() throws {
        let request = #"<speak>a &amp; b <mark name="m"/>word</speak>"#
        let program = parsed(request)
        XCTAssertEqual(program.runs.map(\.text), ["a & b ", "word"])
        let word = program.runs[1]
        XCTAssertEqual(word.sourceMap.pieces, [SourceMap.Piece(textOffset: 0, textLength: 4, source: SourceRange(offset: 33, length: 4))])
        XCTAssertEqual(excerpt(request, SourceRange(offset: 33, length: 4)), "word")
        let first = program.runs[0]
        XCTAssertEqual(sourceOf("&", in: first, request: request), "&amp;")
        XCTAssertEqual(sourceOf("b", in: first, request: request), "b")
        XCTAssertEqual(sourceOf("a", in: first, request: request), "a")
        XCTAssertEqual(first.source(ofTextBytes: 0..<6), SourceRange(offset: 7, length: 10), "the whole run spans its source")
        guard case .mark(let name, let source) = program.items[1] else { return XCTFail("\(program.items)") }
        XCTAssertEqual(name, "m")
        XCTAssertEqual(excerpt(request, source), #"<mark name="m"/>"#)
        assertConsistentMaps(request)
    }

    func testCharacterReferencesMapAsAWhole() throws {
        let request = "<speak>caf&#233; &#x1F600; &lt;tag&gt; &quot;q&apos; end</speak>"
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(run.text, "café 😀 <tag> \"q' end")
        XCTAssertEqual(sourceOf("é", in: run, request: request), "&#233;")
        XCTAssertEqual(sourceOf("😀", in: run, request: request), "&#x1F600;")
        XCTAssertEqual(sourceOf("café", in: run, request: request), "caf&#233;")
        XCTAssertEqual(sourceOf("<tag>", in: run, request: request), "&lt;tag&gt;")
        XCTAssertEqual(sourceOf("end", in: run, request: request), "end")
        assertConsistentMaps(request)
    }

    func testMultiByteText() {
        let request = "<speak>Grüße an 世界 und 👋🏽 <emphasis>Émile</emphasis> ça va</speak>"
        assertWordsMapToThemselves(request)
        XCTAssertEqual(parsed(request).runs.map(\.text), ["Grüße an 世界 und 👋🏽 ", "Émile", " ça va"])
    }

    func testLongTextsAcrossLibxmlBuffers() {
        // libxml2 hands long non-ASCII text over in chunks of about 300 bytes, and moves its
        // input window along long documents: offsets must survive both.
        let accented = (0..<400).map { "mot\($0)é" }.joined(separator: " ")
        assertWordsMapToThemselves("<speak>\(accented)</speak>")
        let words = (0..<5000).map { "word\($0)" }.joined(separator: " ")
        let request = "<speak><p>\(words) <mark name=\"end\"/>last &amp; \(accented) final</p></speak>"
        assertWordsMapToThemselves(request, except: ["&"])
        let mark = parsed(request).items.compactMap { item -> SourceRange? in
            if case .mark(_, let source) = item { return source } else { return nil }
        }
        XCTAssertEqual(mark.map { excerpt(request, $0) }, [#"<mark name="end"/>"#])
    }

    func testLineEndsAreNormalisedButStillMapped() throws {
        let request = "<speak>one\r\ntwo\rthree\r\n\r\nfour é\r\nfive</speak>"
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(run.text, "one\ntwo\nthree\n\nfour é\nfive")
        for word in ["one", "two", "three", "four", "five", "é"] {
            XCTAssertEqual(sourceOf(word, in: run, request: request), word)
        }
        assertConsistentMaps(request)
    }

    func testCDATAMapsToItsContent() throws {
        let request = "<speak>if <![CDATA[x < y && y > z]]> then</speak>"
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(run.text, "if x < y && y > z then")
        XCTAssertEqual(sourceOf("x < y", in: run, request: request), "x < y")
        XCTAssertEqual(sourceOf("then", in: run, request: request), "then")
        assertConsistentMaps(request)
    }

    func testCommentsAndProcessingInstructionsAreSkipped() {
        let request = "<?xml version=\"1.0\"?>\n<!-- before -->\n<?style x?>\n<speak>one<!-- <b>not</b> -->two<?pi <x>?>three</speak>\n<!-- after -->"
        XCTAssertEqual(parsed(request).runs.map(\.text), ["onetwothree"])
        for word in ["one", "two", "three"] {
            XCTAssertEqual(sourceOf(word, in: parsed(request).runs[0], request: request), word)
        }
        assertConsistentMaps(request)
    }

    func testEncodingDeclarationsDoNotChangeTheBytes() throws {
        let request = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<speak>héllo wörld</speak>"
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(run.text, "héllo wörld")
        XCTAssertEqual(sourceOf("wörld", in: run, request: request), "wörld")
    }

    func testAttributeEntitiesAreDecoded() throws {
        let request = #"<speak><sub alias="AT&amp;T &#38; &lt;Co&gt; &#233;">ATT</sub><mark name="a&amp;b"/></speak>"#
        let program = parsed(request)
        XCTAssertEqual(program.runs.first?.text, "AT&T & <Co> é")
        guard case .mark(let name, let source) = program.items.last else { return XCTFail("\(program.items)") }
        XCTAssertEqual(name, "a&b")
        XCTAssertEqual(source, SourceRange(offset: 62, length: 22))
        XCTAssertEqual(excerpt(request, source), #"<mark name="a&amp;b"/>"#)
        let phoneme = parsed(#"<speak><phoneme ph="a&#38;#38;b">x</phoneme></speak>"#).runs.first?.phonemes
        XCTAssertEqual(phoneme?.symbols, "a&#38;b", "an escaped reference stays a reference")
    }

    func testElementSourcesAreExact() throws {
        let request = """
            <speak xml:lang="en">
              <p>Intro <break strength="weak" /> and
                <audio src="bell.wav">ding</audio>
                <s>Said <sub alias="doctor">Dr.</sub> <say-as interpret-as="digits">42</say-as>.</s>
              </p>
            </speak>
            """
        let program = parsed(request)
        XCTAssertEqual(program.pauses, [0.25])
        var sources: [String] = []
        for item in program.items {
            switch item {
            case .pause(_, let source), .boundary(_, let source), .mark(_, let source): sources.append(excerpt(request, source))
            case .audio(let clip): sources.append(excerpt(request, clip.source))
            case .text: break
            }
        }
        XCTAssertEqual(sources, ["<p>", #"<break strength="weak" />"#, #"<audio src="bell.wav">ding</audio>"#, "<s>"])
        let said = try XCTUnwrap(program.runs.first { $0.text.hasPrefix("Said") })
        XCTAssertEqual(said.text, "Said doctor 4 2.")
        XCTAssertEqual(sourceOf("doctor", in: said, request: request), #"<sub alias="doctor">Dr.</sub>"#)
        XCTAssertEqual(sourceOf("4 2", in: said, request: request), #"<say-as interpret-as="digits">42</say-as>"#)
        XCTAssertEqual(sourceOf(".", in: said, request: request), ".")
        assertConsistentMaps(request)
    }

    func testWhitespaceBetweenElementsIsKeptAsText() {
        let program = parsed("<speak>\n  <p>Hi</p>\n</speak>")
        XCTAssertEqual(program.runs.map(\.text), ["\n  ", "Hi", "\n"])
        XCTAssertEqual(program.spokenRuns.map(\.text), ["Hi"])
    }
}
