import XCTest
@testable import SSML

final class ProsodyTests: XCTestCase {
    private func prosody(_ attributes: String, file: StaticString = #filePath, line: UInt = #line) -> Style? {
        contentStyle(of: "<prosody \(attributes)>a</prosody>", file: file, line: line)
    }

    func testRateForms() {
        let cases: [(String, Double)] = [
            ("x-slow", 0.5), ("slow", 0.75), ("medium", 1), ("fast", 1.5), ("x-fast", 2), ("default", 1),
            ("200%", 2), ("50%", 0.5), ("+10%", 1.1), ("-10%", 0.9), ("1.5", 1.5), ("0.8", 0.8), (".5", 0.5), ("2.", 2),
            (" FAST ", 1.5),
        ]
        for (value, expected) in cases {
            assertEqual(prosody(#"rate="\#(value)""#)?.rate, expected)
        }
    }

    func testPitchForms() throws {
        let cases: [(String, Double)] = [
            ("x-low", 0.7), ("low", 0.85), ("medium", 1), ("high", 1.15), ("x-high", 1.3), ("default", 1),
            ("+2st", 1.122462048309373), ("-3st", 0.8408964152537145), ("12st", 2), ("+10%", 1.1), ("-10%", 0.9),
            ("+20Hz", 1 + 20.0 / 120), ("-30Hz", 0.75), ("110%", 1.1),
        ]
        for (value, expected) in cases {
            let style = prosody(#"pitch="\#(value)""#)
            assertEqual(style?.pitch, expected)
            XCTAssertNil(style?.pitchHz, value)
        }
        let absolute = try XCTUnwrap(prosody(#"pitch="150Hz""#))
        XCTAssertEqual(absolute.pitchHz, 150)
        XCTAssertEqual(absolute.pitch, 1)
    }

    func testRelativeHzUsesTheAbsolutePitchWhenThereIsOne() throws {
        let style = try XCTUnwrap(contentStyle(of: #"<prosody pitch="150Hz"><prosody pitch="+30Hz">a</prosody></prosody>"#))
        XCTAssertEqual(style.pitchHz, 150)
        XCTAssertEqual(style.pitch, 1.2, accuracy: 1e-12)  // 180 Hz
        let scaled = try XCTUnwrap(contentStyle(of: #"<prosody pitch="150Hz"><prosody pitch="x-high"><prosody pitch="-15Hz">a</prosody></prosody></prosody>"#))
        XCTAssertEqual(scaled.pitchHz! * scaled.pitch, 150 * 1.3 - 15, accuracy: 1e-9)
        let reset = try XCTUnwrap(contentStyle(of: #"<prosody pitch="150Hz"><prosody pitch="default">a</prosody></prosody>"#))
        XCTAssertNil(reset.pitchHz)
        XCTAssertEqual(reset.pitch, 1)
    }

    func testRangeForms() {
        let cases: [(String, Double)] = [
            ("x-low", 0.7), ("low", 0.85), ("medium", 1), ("high", 1.15), ("x-high", 1.3), ("default", 1),
            ("+10%", 1.1), ("0%", 0), ("-100%", 0), ("-2st", 0.8908987181403393), ("30Hz", 0.5), ("+30Hz", 1.5), ("-60Hz", 0),
        ]
        for (value, expected) in cases {
            assertEqual(prosody(#"range="\#(value)""#)?.pitchRange, expected)
        }
    }

    func testVolumeForms() {
        let cases: [(String, Double)] = [
            ("silent", 0), ("x-soft", 0.25), ("soft", 0.5), ("medium", 1), ("loud", 1.5), ("x-loud", 2), ("default", 1),
            ("+6dB", 1.9952623149688795), ("-6dB", 0.5011872336272722), ("0dB", 1), ("+20db", 10),
            ("50", 0.5), ("0", 0), ("100", 1), ("50%", 0.5), ("+10%", 1.1),
        ]
        for (value, expected) in cases {
            assertEqual(prosody(#"volume="\#(value)""#)?.volume, expected)
        }
    }

    func testNestedProsodyMultiplies() throws {
        let style = try XCTUnwrap(contentStyle(of: """
            <prosody rate="200%" pitch="high" volume="soft" range="x-low">\
            <prosody rate="fast" pitch="+10%" volume="loud" range="50%">a</prosody></prosody>
            """))
        XCTAssertEqual(style.rate, 3, accuracy: 1e-12)
        XCTAssertEqual(style.pitch, 1.15 * 1.1, accuracy: 1e-12)
        XCTAssertEqual(style.volume, 0.75, accuracy: 1e-12)
        XCTAssertEqual(style.pitchRange, 0.35, accuracy: 1e-12)
        let reset = try XCTUnwrap(contentStyle(of: #"<prosody rate="x-fast" volume="loud"><prosody rate="default" volume="default">a</prosody></prosody>"#))
        XCTAssertEqual(reset.rate, 1)
        XCTAssertEqual(reset.volume, 1)
    }

    func testProsodyEndsWithItsElement() {
        let runs = parsed(#"<speak><prosody rate="slow">a<prosody rate="slow">b</prosody>c</prosody>d</speak>"#).runs
        XCTAssertEqual(runs.map(\.text), ["a", "b", "c", "d"])
        XCTAssertEqual(runs.map(\.style.rate), [0.75, 0.5625, 0.75, 1])
    }

    func testBadValuesAreErrorsAtTheElement() {
        let bad: [(String, String)] = [
            (#"rate="fast-ish""#, #"rate "fast-ish" is not valid"#), (#"rate="-2""#, "rate must be greater than zero"),
            (#"rate="0""#, "greater than zero"), (#"rate="0%""#, "greater than zero"), (#"rate="-100%""#, "greater than zero"),
            (#"rate="1e3""#, "not valid"), (#"rate="""#, "not valid"), (#"rate="+2""#, "not valid"), (#"rate="2st""#, "not valid"),
            (#"pitch="abc""#, #"pitch "abc" is not valid"#), (#"pitch="2""#, "not valid"), (#"pitch="0Hz""#, "greater than zero"),
            (#"pitch="-100%""#, "greater than zero"), (#"pitch="-120Hz""#, "0 Hz or below"), (#"pitch="+1.2.3st""#, "not valid"),
            (#"range="wide""#, #"range "wide" is not valid"#), (#"range="-61Hz""#, "negative"),
            (#"volume="abc""#, #"volume "abc" is not valid"#), (#"volume="101""#, "from 0 to 100"), (#"volume="-6""#, "not valid"),
            (#"volume="-110%""#, "below silent"), (#"volume="nan""#, "not valid"), (#"volume="inf""#, "not valid"),
        ]
        for (attribute, message) in bad {
            assertSSMLError("<speak>x <prosody \(attribute)>a</prosody></speak>", line: 1, column: 10, "<prosody>: ")
            assertSSMLError("<speak>x <prosody \(attribute)>a</prosody></speak>", line: 1, column: 10, message)
        }
    }

    func testBadValueInAMultiLineDocument() {
        let request = """
            <speak>
              <p>
                <s>Fine.</s> <prosody
                  rate="fast-ish">Not fine.</prosody>
              </p>
            </speak>
            """
        assertSSMLError(request, line: 3, column: 18, #"<prosody>: rate "fast-ish" is not valid"#)
    }

    func testQuantityGrammar() {
        XCTAssertEqual(Quantity("+10%"), Quantity(sign: .plus, magnitude: 10, unit: "%"))
        XCTAssertEqual(Quantity(" -3st "), Quantity(sign: .minus, magnitude: 3, unit: "st"))
        XCTAssertEqual(Quantity("150Hz")?.unit, "hz")
        XCTAssertEqual(Quantity("0.5")?.magnitude, 0.5)
        for bad in ["", "+", ".", "1..2", "1e5", "x1", "1 s", "--1", "1%%x9"] {
            XCTAssertNil(Quantity(bad), bad)
        }
    }
}

private extension Quantity {
    init(sign: Sign, magnitude: Double, unit: String) {
        self = Quantity("0")!
        self.sign = sign
        self.magnitude = magnitude
        self.unit = unit
    }
}
