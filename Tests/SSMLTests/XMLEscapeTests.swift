import SSML
import XCTest

/// Text and attribute values escaped with XMLEscape come back unchanged through the parser.
final class XMLEscapeTests: XCTestCase {
    static let awkward = ["a < b & c > d", "\"quoted\" & 'single'", "&amp; already", "<speak>not markup</speak>", "plain"]

    func testEscapedTextParsesBackToItself() throws {
        for text in Self.awkward {
            let program = try SSMLParser.parse("<speak>" + XMLEscape.text(text) + "</speak>")
            let spoken = program.items.compactMap { if case .text(let run) = $0 { run.text } else { nil } }.joined()
            XCTAssertEqual(spoken, text)
        }
    }

    func testEscapedAttributesParseBackToThemselves() throws {
        for name in Self.awkward {
            let program = try SSMLParser.parse("<speak>x<mark name=\"" + XMLEscape.attribute(name) + "\"/>y</speak>")
            let marks = program.items.compactMap { if case .mark(let n, _) = $0 { n } else { nil } }
            XCTAssertEqual(marks, [name])
        }
    }
}
