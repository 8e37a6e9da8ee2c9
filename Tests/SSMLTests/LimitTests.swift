import XCTest
@testable import SSML

/// The documented limits (README "Limits"): each refused at parse time with its own error.
final class LimitTests: XCTestCase {
    func testBreaksLongerThanTheMaximumAreRefusedNotOverflowed() {
        for time in ["99999999999999999999ms", "9223372036854775807ms", "99999999999999s", "61s", "60001ms"] {
            assertSSMLError("<speak>a<break time=\"\(time)\"/>b</speak>", line: 1, column: 9, "a break may last at most 60 s")
        }
    }

    func testABreakOfTheMaximumIsKept() {
        XCTAssertEqual(parsed("<speak>a<break time=\"60s\"/>b</speak>").pauses, [60])
        XCTAssertEqual(parsed("<speak>a<break time=\"60000ms\"/>b</speak>").pauses, [60])
    }

    func testPhonemeStringsLongerThanTheMaximumAreRefused() {
        let long = String(repeating: "ə", count: SSMLLimits.maxPhonemeCharacters + 1)
        assertSSMLError("<speak><phoneme alphabet=\"ipa\" ph=\"\(long)\">x</phoneme></speak>", line: 1, column: 8,
                        "ph has 129 characters: a phoneme string may have at most 128")
        let atLimit = String(repeating: "ə", count: SSMLLimits.maxPhonemeCharacters)
        XCTAssertEqual(parsed("<speak><phoneme alphabet=\"ipa\" ph=\"\(atLimit)\">x</phoneme></speak>").spokenRuns.first?.phonemes?.symbols, atLimit)
    }

    func testAnUnfinishedCDATASectionIsOneLine() {
        do {
            _ = try SSMLParser.parse("<speak>a <![CDATA[ b\nc </speak>")
            XCTFail("should not parse")
        } catch {
            XCTAssertFalse("\(error)".contains("\n"), "\(error)")
            XCTAssertTrue("\(error)".contains("CData section not finished"), "\(error)")
        }
    }
}
