import XCTest
@testable import SSML

/// The XML layer on its own: which events libxml2 reports, and the exact bytes of each.
final class SAXReaderTests: XCTestCase {
    private final class Recorder: XMLContentHandler {
        var events: [String] = []
        var failOn: String?
        let request: String
        init(_ request: String) { self.request = request }

        func startElement(_ element: XMLElementStart) throws(SSMLError) {
            events.append("start \(element.qualifiedName) \(excerpt(request, element.startTag))")
            if element.localName == failOn { throw SSMLError(line: 9, column: 9, message: "stop") }
        }
        func endElement(_ element: SourceRange) throws(SSMLError) {
            events.append("end \(excerpt(request, element))")
        }
        func text(_ text: String, pieces: [SourceMap.Piece]) throws(SSMLError) {
            let sources = pieces.map { excerpt(request, $0.source) }.joined(separator: "|")
            events.append("text \(text) <- \(sources)")
        }
    }

    private func events(_ request: String, failOn: String? = nil) throws -> [String] {
        let recorder = Recorder(request)
        recorder.failOn = failOn
        try SAXReader(source: SourceText(request), handler: recorder).parse()
        return recorder.events
    }

    func testEventsAndTheirBytes() throws {
        XCTAssertEqual(try events(#"<speak>a &amp; b <mark name="m"/>word</speak>"#), [
            "start speak <speak>",
            "text a  <- a ",
            "text & <- &amp;",
            "text  b  <- \u{20}b ",
            #"start mark <mark name="m"/>"#,
            #"end <mark name="m"/>"#,
            "text word <- word",
            #"end <speak>a &amp; b <mark name="m"/>word</speak>"#,
        ])
    }

    func testTagsWithSpacesAndGreaterThanInAttributes() throws {
        let request = "<speak ><sub alias=\"a>b\" >x</sub ><break /><p\n>y</p></speak\n>"
        XCTAssertEqual(try events(request), [
            "start speak <speak >",
            #"start sub <sub alias="a>b" >"#,
            "text x <- x",
            #"end <sub alias="a>b" >x</sub >"#,
            "start break <break />",
            "end <break />",
            "start p <p\n>",
            "text y <- y",
            "end <p\n>y</p>",
            "end " + request,
        ])
    }

    func testNamespacesAndAttributes() throws {
        let request = #"<s:speak xmlns:s="http://www.w3.org/2001/10/synthesis" xml:lang="de" a="1&amp;2"/>"#
        final class Capture: XMLContentHandler {
            var element: XMLElementStart?
            func startElement(_ element: XMLElementStart) throws(SSMLError) { self.element = element }
            func endElement(_ element: SourceRange) throws(SSMLError) {}
            func text(_ text: String, pieces: [SourceMap.Piece]) throws(SSMLError) {}
        }
        let capture = Capture()
        try SAXReader(source: SourceText(request), handler: capture).parse()
        let element = try XCTUnwrap(capture.element)
        XCTAssertEqual(element.localName, "speak")
        XCTAssertEqual(element.prefix, "s")
        XCTAssertEqual(element.namespaceURI, XMLNamespace.ssml)
        XCTAssertEqual(element.xmlLang, "de")
        XCTAssertEqual(element.attribute("a"), "1&2")
        XCTAssertNil(element.attribute("lang"), "xml:lang is not an SSML attribute named lang")
    }

    func testAHandlerErrorStopsTheParse() {
        XCTAssertThrowsError(try events("<speak>a<x/>b<y/></speak>", failOn: "x")) { error in
            XCTAssertEqual(error as? SSMLError, SSMLError(line: 9, column: 9, message: "stop"))
        }
        let recorder = Recorder("<speak>a<x/>b<y/></speak>")
        recorder.failOn = "x"
        _ = try? SAXReader(source: SourceText(recorder.request), handler: recorder).parse()
        XCTAssertEqual(recorder.events, ["start speak <speak>", "text a <- a", "start x <x/>"])
    }

    func testSourceTextLineAndColumn() {
        let source = SourceText("ab\ncé\r\nd\re")
        XCTAssertEqual(source.lineAndColumn(at: 0).line, 1)
        XCTAssertEqual(source.lineAndColumn(at: 2).column, 3)
        XCTAssertEqual(source.lineAndColumn(at: 3).line, 2)
        XCTAssertEqual(source.lineAndColumn(at: 6).column, 3, "é is one column")
        XCTAssertEqual(source.lineAndColumn(at: 8).line, 3, "CR LF is one line end")
        XCTAssertEqual(source.lineAndColumn(at: 10).line, 4, "a lone CR ends a line")
    }
}
