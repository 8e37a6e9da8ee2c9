import XCTest
@testable import SSML

final class SayAsTests: XCTestCase {
    private func say(_ content: String, _ interpretAs: String, format: String? = nil, lang: String? = nil,
                     file: StaticString = #filePath, line: UInt = #line) -> String? {
        let formatAttribute = format.map { #" format="\#($0)""# } ?? ""
        let langAttribute = lang.map { #" xml:lang="\#($0)""# } ?? ""
        let request = #"<speak\#(langAttribute)><say-as interpret-as="\#(interpretAs)"\#(formatAttribute)>\#(content)</say-as></speak>"#
        let runs = parsed(request, file: file, line: line).runs
        XCTAssertLessThanOrEqual(runs.count, 1, file: file, line: line)
        return runs.first?.text
    }

    func testCharacters() throws {
        XCTAssertEqual(say("abc", "characters"), "a b c")
        XCTAssertEqual(say(" NASA ", "spell-out"), "N A S A")
        XCTAssertEqual(say("AT&amp;T 4", "characters"), "A T & T 4")
        let run = try XCTUnwrap(parsed(#"<speak>ID <say-as interpret-as="characters">x1</say-as> ok</speak>"#).runs.dropFirst().first)
        XCTAssertTrue(run.spellOut)
        XCTAssertEqual(run.text, "x 1")
        XCTAssertEqual(parsed(#"<speak>ID <say-as interpret-as="characters">x1</say-as> ok</speak>"#).runs.map(\.text),
                       ["ID ", "x 1", " ok"], "spelled runs stand alone")
    }

    func testCardinal() {
        XCTAssertEqual(say("12,345", "cardinal"), "12345")
        XCTAssertEqual(say("-1,234.5", "cardinal"), "-1234.5")
        XCTAssertEqual(say("+7", "cardinal"), "+7")
        XCTAssertEqual(say("1 000 000", "cardinal"), "1000000")
        XCTAssertEqual(say("twelve", "cardinal"), "twelve")
        XCTAssertEqual(say("1.2.3", "cardinal"), "1.2.3")
    }

    func testOrdinal() {
        let english = ["1": "1st", "2": "2nd", "3": "3rd", "4": "4th", "11": "11th", "12": "12th", "13": "13th",
                       "21": "21st", "22": "22nd", "23": "23rd", "101": "101st", "111": "111th", "112": "112th", "1,000": "1000th", "0": "0th"]
        for (number, spoken) in english {
            XCTAssertEqual(say(number, "ordinal"), spoken, number)
        }
        XCTAssertEqual(say("3", "ordinal", lang: "de-DE"), "3.")
        XCTAssertEqual(say("3", "ordinal", lang: "en-AU"), "3rd")
        XCTAssertEqual(parsed(#"<speak xml:lang="fr"><p><say-as interpret-as="ordinal">1</say-as></p></speak>"#).runs.first?.text, "1.")
        XCTAssertEqual(say("first", "ordinal"), "first")
    }

    func testDigits() {
        XCTAssertEqual(say("123", "digits"), "1 2 3")
        XCTAssertEqual(say("12-34", "digits"), "1 2 3 4")
    }

    func testDates() {
        XCTAssertEqual(say("2024-03-05", "date"), "March 5th, 2024")
        XCTAssertEqual(say("2024-03-05", "date", format: "ymd"), "March 5th, 2024")
        XCTAssertEqual(say("03/05/2024", "date", format: "mdy"), "March 5th, 2024")
        XCTAssertEqual(say("3/5/2024", "date"), "March 5th, 2024")
        XCTAssertEqual(say("05.03.2024", "date", format: "dmy"), "March 5th, 2024")
        XCTAssertEqual(say("12/22", "date", format: "md"), "December 22nd")
        XCTAssertEqual(say("1/11", "date", format: "dm"), "November 1st")
        XCTAssertEqual(say("2024-03", "date", format: "ym"), "March 2024")
        XCTAssertEqual(say("10/1999", "date", format: "my"), "October 1999")
        XCTAssertEqual(say("1999", "date", format: "y"), "1999")
        XCTAssertEqual(say("7", "date", format: "m"), "July")
        XCTAssertEqual(say("23", "date", format: "d"), "23rd")
        XCTAssertEqual(say("2024-02-29", "date"), "February 29th, 2024")
        XCTAssertEqual(say("2000-02-29", "date"), "February 29th, 2000")
        XCTAssertEqual(say("2/29", "date", format: "md"), "February 29th")
    }

    func testInvalidDatesAreSpokenAsWritten() {
        XCTAssertEqual(say("2023-02-29", "date"), "2023-02-29")
        XCTAssertEqual(say("1900-02-29", "date"), "1900-02-29")
        XCTAssertEqual(say("2024-13-01", "date"), "2024-13-01")
        XCTAssertEqual(say("4/31/2024", "date"), "4/31/2024")
        XCTAssertEqual(say("March 5", "date", format: "md"), "March 5")
        XCTAssertEqual(say("2024-03-05", "date", format: "md"), "2024-03-05")
    }

    func testDatesInOtherLanguages() {
        XCTAssertEqual(say("2024-03-05", "date", lang: "de"), "5.3.2024")
        XCTAssertEqual(say("3/5", "date", format: "md", lang: "fr"), "5.3.")
    }

    func testTimes() {
        XCTAssertEqual(say("14:30", "time"), "14 30")
        XCTAssertEqual(say("14:30", "time", format: "hms24"), "14 30")
        XCTAssertEqual(say("2:30pm", "time"), "2 30 PM")
        XCTAssertEqual(say("2:30 P.M.", "time", format: "hms12"), "2 30 PM")
        XCTAssertEqual(say("11:45 am", "time"), "11 45 AM")
        XCTAssertEqual(say("14:00", "time"), "14 o'clock")
        XCTAssertEqual(say("0:00", "time"), "0 o'clock")
        XCTAssertEqual(say("2:00pm", "time"), "2 PM")
        XCTAssertEqual(say("7am", "time"), "7 AM")
        XCTAssertEqual(say("9:05", "time"), "9 oh 5")
        XCTAssertEqual(say("14:30:15", "time"), "14 30 and 15 seconds")
        XCTAssertEqual(say("14:00:01", "time"), "14 o'clock and 1 second")
        XCTAssertEqual(say("14:05", "time", lang: "de"), "14 05")
        XCTAssertEqual(say("14:00", "time", lang: "de"), "14")
    }

    func testInvalidTimesAreSpokenAsWritten() {
        XCTAssertEqual(say("25:00", "time"), "25:00")
        XCTAssertEqual(say("13:00", "time", format: "hms12"), "13:00")
        XCTAssertEqual(say("13:00pm", "time"), "13:00pm")
        XCTAssertEqual(say("10:7", "time"), "10:7")
        XCTAssertEqual(say("14", "time"), "14")
        XCTAssertEqual(say("noon", "time"), "noon")
    }

    func testTelephone() {
        XCTAssertEqual(say("555-1234", "telephone"), "5 5 5, 1 2 3 4")
        XCTAssertEqual(say("+1 (555) 123-4567", "telephone"), "+ 1, 5 5 5, 1 2 3, 4 5 6 7")
        XCTAssertEqual(say("1-800-FLOWERS", "telephone"), "1, 8 0 0, F L O W E R S")
    }

    func testUnknownInterpretationsAreSpokenAsWritten() {
        XCTAssertEqual(say("rain", "vxml:weather"), "rain")
        XCTAssertEqual(say(" two  words ", "address"), " two  words ")
    }

    func testFormatAndAttributeErrors() {
        assertSSMLError(#"<speak>On <say-as interpret-as="date" format="iso">2024-01-01</say-as></speak>"#,
                        line: 1, column: 11, #"<say-as>: format "iso" is not a date format"#)
        assertSSMLError(#"<speak><say-as interpret-as="time" format="hms">1:00</say-as></speak>"#,
                        line: 1, column: 8, #"format "hms" is not a time format"#)
        assertSSMLError("<speak><say-as>12</say-as></speak>", line: 1, column: 8, #""interpret-as" is required"#)
        assertSSMLError(#"<speak><say-as interpret-as="cardinal">1<emphasis>2</emphasis></say-as></speak>"#,
                        line: 1, column: 41, "<say-as> may contain only text, not <emphasis>")
        XCTAssertEqual(say("12", "cardinal", format: "whatever"), "12", "format is only checked where it means something")
    }

    func testSayAsMapsAsAWholeAndJoinsItsNeighbours() throws {
        let element = #"<say-as interpret-as="cardinal">12,345</say-as>"#
        let request = "<speak>I have \(element) apples</speak>"
        let runs = parsed(request).runs
        XCTAssertEqual(runs.map(\.text), ["I have 12345 apples"])
        let run = try XCTUnwrap(runs.first)
        XCTAssertEqual(sourceOf("12345", in: run, request: request), element)
        XCTAssertEqual(sourceOf("234", in: run, request: request), element)
        XCTAssertEqual(sourceOf("apples", in: run, request: request), "apples")
        XCTAssertEqual(sourceOf("have", in: run, request: request), "have")
    }

    func testSayAsInheritsStyle() {
        let runs = parsed(#"<speak><prosody rate="slow"><say-as interpret-as="characters">ab</say-as></prosody></speak>"#).runs
        XCTAssertEqual(runs.first?.style.rate, 0.75)
        XCTAssertEqual(runs.first?.spellOut, true)
    }
}
