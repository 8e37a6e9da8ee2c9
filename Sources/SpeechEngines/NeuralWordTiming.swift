/// Where each word of a chunk starts in its audio, estimated: sherpa-onnx's C API returns the
/// audio of a sentence but not the durations of its phonemes. The chunk's clauses are placed
/// first: a clause boundary falls in one of the longest pauses of the audio (the voice pauses at
/// `,` `:` `;`), in order. Inside a clause, its spoken span is shared among its words in
/// proportion to their phoneme counts, and a word whose estimate lands near a short pause is
/// moved to where that pause ends (the word's onset).
enum NeuralWordTiming {
    /// A pause at least this long may be a clause boundary.
    static let clausePause = 0.1
    /// A pause at least this long near an estimate is taken as the silence before a word.
    static let wordPause = 0.03
    /// How far from the estimate such a pause may end, in seconds.
    static let snapDistance = 0.08

    /// `weights[c][w]` is word w of clause c. Returns the start sample of each word, by clause.
    static func starts(weights: [[Double]], loudness: NeuralLoudness, sampleRate: Double) -> [[Int]] {
        guard let speech = loudness.speech, !weights.isEmpty else { return weights.map { $0.map { _ in 0 } } }
        let spans = clauseSpans(weights: weights, speech: speech, pauses: loudness.pauses(atLeast: clausePause))
        let wordPauses = loudness.pauses(atLeast: wordPause)
        let snap = Int(snapDistance * sampleRate)
        return zip(weights, spans).map { clauseWeights, span in
            let share = proportional(clauseWeights)
            return share.enumerated().map { index, fraction in
                let estimate = span.lowerBound + Int(fraction * Double(span.count))
                guard index > 0 else { return span.lowerBound }
                let near = wordPauses.filter { abs($0.upperBound - estimate) <= snap && span.contains($0.upperBound) }
                return near.min { abs($0.upperBound - estimate) < abs($1.upperBound - estimate) }?.upperBound ?? estimate
            }
        }
    }

    /// The sample span of each clause: boundaries at the longest pauses, in order, or where the
    /// clauses' weights put them when the audio has too few pauses.
    private static func clauseSpans(weights: [[Double]], speech: Range<Int>, pauses: [Range<Int>]) -> [Range<Int>] {
        let totals = weights.map { max($0.reduce(0, +), 1) }
        let cumulative = proportional(totals) + [1]
        let boundaries = weights.count - 1
        let chosen = pauses.count >= boundaries
            ? Array(pauses.sorted { $0.count > $1.count }.prefix(boundaries)).sorted { $0.lowerBound < $1.lowerBound }
            : nil
        var spans: [Range<Int>] = []
        var start = speech.lowerBound
        for index in 0..<weights.count {
            let end: Int, next: Int
            if index == boundaries {
                (end, next) = (speech.upperBound, speech.upperBound)
            } else if let chosen {
                (end, next) = (chosen[index].lowerBound, chosen[index].upperBound)
            } else {
                let at = speech.lowerBound + Int(cumulative[index + 1] * Double(speech.count))
                (end, next) = (at, at)
            }
            spans.append(start..<max(start, end))
            start = next
        }
        return spans
    }

    /// Where each item starts as a fraction of the whole, by weight (equal when all are zero).
    private static func proportional(_ weights: [Double]) -> [Double] {
        let total = weights.reduce(0, +)
        var running = 0.0
        return weights.map { weight in
            defer { running += total > 0 ? weight / total : 1 / Double(weights.count) }
            return running
        }
    }
}
