/// How a run's clauses are grouped into calls to the model.
///
/// Piper speaks a sentence per call, so its first sound waits for the whole first sentence.
/// spk speaks the first clause of a run on its own (its sound comes after a few words' worth of
/// synthesis) and then the rest sentence by sentence, which keeps each sentence's intonation
/// and the real-time factor of whole sentences. A sentence longer than `maximumPhonemes` is cut
/// at clause ends, so no single call keeps the audio waiting long.
public enum NeuralChunking: Sendable {
    /// spk's way: the first clause alone, then sentences.
    case firstClauseAlone
    /// Piper's way: a sentence per call (for comparison in the benchmark).
    case sentences
}

struct NeuralChunk {
    var clauses: [NeuralPhonemizer.Clause]
    /// The sentence that starts with this chunk, as bytes of the run's text; nil when the chunk
    /// continues a sentence.
    var sentence: Range<Int>?
    var phonemes: [Int32] { clauses.flatMap(\.phonemes) }
}

enum NeuralChunks {
    static let maximumPhonemes = 400

    static func plan(_ clauses: [NeuralPhonemizer.Clause], chunking: NeuralChunking) -> [NeuralChunk] {
        var chunks: [NeuralChunk] = []
        for sentence in sentences(clauses) {
            let range = sentence.first!.clause.range.lowerBound..<sentence.last!.clause.range.upperBound
            var pieces: [[NeuralPhonemizer.Clause]] = []
            var current: [NeuralPhonemizer.Clause] = []
            for clause in sentence {
                let alone = chunking == .firstClauseAlone && chunks.isEmpty && pieces.isEmpty && !current.isEmpty
                let tooLong = !current.isEmpty && current.reduce(0, { $0 + $1.phonemes.count }) + clause.phonemes.count > maximumPhonemes
                if alone || tooLong {
                    pieces.append(current)
                    current = []
                }
                current.append(clause)
            }
            pieces.append(current)
            for (index, piece) in pieces.enumerated() {
                chunks.append(NeuralChunk(clauses: piece, sentence: index == 0 ? range : nil))
            }
        }
        return chunks
    }

    private static func sentences(_ clauses: [NeuralPhonemizer.Clause]) -> [[NeuralPhonemizer.Clause]] {
        var result: [[NeuralPhonemizer.Clause]] = []
        var current: [NeuralPhonemizer.Clause] = []
        for clause in clauses {
            current.append(clause)
            if clause.clause.endsSentence {
                result.append(current)
                current = []
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
