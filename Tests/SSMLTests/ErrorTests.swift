import XCTest
@testable import SSML

final class ErrorTests: XCTestCase {
    func testMismatchedTagsUseLibxmlPosition() {
        assertSSMLError("<speak>Hello <break></speak>", line: 1, column: 29, "Opening and ending tag mismatch: break line 1 and speak")
    }

    func testLibxmlErrorsInAMultiLineDocument() {
        let request = """
            <speak>
              <p>Hello
                <emphasis>big</emphasis
              world</p>
            </speak>
            """
        assertSSMLError(request, line: 4, column: 3, "expected '>'")
        assertSSMLError("<speak>\n  <p>a < b</p>\n</speak>", line: 2, column: 9, "StartTag: invalid element name")
        assertSSMLError("<speak>\n <mark name=\"a\" name=\"b\"/></speak>", line: 2, column: 25, "Attribute name redefined")
    }

    func testSemanticErrorsUseTheElementStart() {
        let request = """
            <speak>
              <p>
                Fine <emphasis>still fine</emphasis>
                <s>and then <shout>this</shout></s>
              </p>
            </speak>
            """
        assertSSMLError(request, line: 4, column: 17, "unknown element <shout>")
        assertSSMLError("<speak>\r\n<p>\r\n  <break time=\"x\"/></p></speak>", line: 3, column: 3, "<break>: time \"x\" is not valid")
        assertSSMLError("<speak>\n  é 世界 <bad/></speak>", line: 2, column: 8, "unknown element <bad>")
    }

    func testUndefinedEntityIsAnError() {
        assertSSMLError("<speak>&foo;</speak>", line: 1, column: 13, "Entity 'foo' not defined")
        assertSSMLError("<speak>&nbsp;</speak>", line: 1, column: 14, "Entity 'nbsp' not defined")
    }

    func testNotWellFormedDocuments() {
        assertSSMLError("<speak>Hi", line: 1, column: 10, "Premature end of data in tag speak")
        assertSSMLError("<speak/>junk", line: 1, column: 9, "Extra content at the end of the document")
        assertSSMLError("<speak>AT&T</speak>", line: 1, column: 12, "EntityRef: expecting ';'")
        assertSSMLError("<speak a=1/>", line: 1, column: 10, "AttValue: \" or ' expected")
        assertSSMLError("<", line: 1, column: 2, "StartTag: invalid element name")
    }

    func testMessagesAreTrimmedAndDescribed() throws {
        do {
            _ = try SSMLParser.parse("<speak>Hello <break></speak>")
            XCTFail("expected an error")
        } catch let error as SSMLError {
            XCTAssertFalse(error.message.hasSuffix("\n"))
            XCTAssertEqual(error.description, "SSML line 1, column 29: \(error.message)")
        }
    }

    func testParsingAgainAfterAnErrorWorks() {
        assertSSMLError("<speak><oops/></speak>", line: 1, column: 8, "unknown element <oops>")
        XCTAssertEqual(parsed("<speak>fine</speak>").runs.map(\.text), ["fine"])
    }
}
