@testable import SpeechEngines
import XCTest

/// Clause ends and words as Piper's phonemizer sees them, from the text alone.
final class NeuralClausesTests: XCTestCase {
    func clauses(_ text: String) -> [(String, NeuralClause.Punctuation?, Bool, [String])] {
        let bytes = Array(text.utf8)
        func s(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }
        return NeuralClauses.split(bytes).map { (s($0.range), $0.punctuation, $0.endsSentence, $0.words.map(s)) }
    }

    func testPunctuationEndsClausesAndSentences() {
        let found = clauses("Hello, nice to meet you! I said: go; now. Really?")
        XCTAssertEqual(found.map(\.0), ["Hello,", "nice to meet you!", "I said:", "go;", "now.", "Really?"])
        XCTAssertEqual(found.map(\.1), [.comma, .exclamation, .colon, .semicolon, .period, .question])
        XCTAssertEqual(found.map(\.2), [false, true, false, false, true, true])
        XCTAssertEqual(found[1].3, ["nice", "to", "meet", "you"])
    }

    func testAFullStopBeforeALowercaseWordEndsNothing() {
        XCTAssertEqual(clauses("It costs $3.50, e.g. a coffee.").map(\.0), ["It costs $3.50,", "e.g. a coffee."])
    }

    func testQuotesAndBracketsAroundPunctuation() {
        let found = clauses(#""Yes," she said (quietly). Then “no.”"#)
        XCTAssertEqual(found.map(\.0), [#""Yes,""#, "she said (quietly).", "Then “no.”"])
        XCTAssertEqual(found.map(\.3), [["Yes"], ["she", "said", "quietly"], ["Then", "no"]])
    }

    func testTheLastClauseAndABlankLineEndSentences() {
        let found = clauses("First line\n\nsecond line without a stop")
        XCTAssertEqual(found.map(\.0), ["First line", "second line without a stop"])
        XCTAssertEqual(found.map(\.1), [nil, nil])
        XCTAssertEqual(found.map(\.2), [true, true])
    }

    func testDashesAndLoneMarksAreNoWords() {
        XCTAssertEqual(clauses("wait — what…").first?.3, ["wait", "what"])
        XCTAssertEqual(clauses("wait — what…").first?.1, .period)
    }

    func testChunksSpeakTheFirstClauseAloneThenSentences() {
        func clause(_ range: Range<Int>, ends: Bool) -> NeuralPhonemizer.Clause {
            .init(clause: NeuralClause(range: range, words: [range], punctuation: nil, endsSentence: ends), phonemes: [97], wordWeights: [1])
        }
        let input = [clause(0..<1, ends: false), clause(2..<3, ends: false), clause(4..<5, ends: true),
                     clause(6..<7, ends: false), clause(8..<9, ends: true)]
        let ours = NeuralChunks.plan(input, chunking: .firstClauseAlone)
        XCTAssertEqual(ours.map { $0.clauses.count }, [1, 2, 2])
        XCTAssertEqual(ours.map(\.sentence), [0..<5, nil, 6..<9])
        let pipers = NeuralChunks.plan(input, chunking: .sentences)
        XCTAssertEqual(pipers.map { $0.clauses.count }, [3, 2])
    }

    func testLongSentencesAreCutAtClauseEnds() {
        let long = [Int32](repeating: 97, count: NeuralChunks.maximumPhonemes / 2 + 10)
        let input = (0..<3).map { i in
            NeuralPhonemizer.Clause(clause: NeuralClause(range: i..<i + 1, words: [], punctuation: .comma, endsSentence: i == 2),
                                    phonemes: long, wordWeights: [])
        }
        XCTAssertEqual(NeuralChunks.plan(input, chunking: .sentences).map { $0.clauses.count }, [1, 1, 1])
    }
}
