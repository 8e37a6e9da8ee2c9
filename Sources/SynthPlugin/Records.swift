// What run() and the worker tell each other through their rings. Plain fixed-layout headers
// followed by bytes, so both sides read and write them without allocating.

/// run() -> worker.
struct CommandHeader {
    enum Kind: UInt32 { case speak = 1, cancel, cancelAll, setVoice, getVoices, getCatalog, append, missingPhrase }
    var kind: UInt32
    var voiceLength: UInt32 = 0
    var request: Int64 = 0
    var rate: Float = 1
    var pitch: Float = 1
    var textLength: UInt32 = 0
    var flags: UInt32 = 0
    /// speak: where the text starts in `spk:text` (a phrase-bank line), added to marker offsets;
    /// missingPhrase: how many lines `spk:text` has (the note is in `request`).
    var textBase: UInt32 = 0
    // followed by voiceLength bytes of voice identifier, then textLength bytes of SSML or text

    /// `flags` of a speak: drop the engine's silence before the request's first sound.
    static let trimLeadingSilence: UInt32 = 1
    /// `flags` of a speak or append: more of the request's text follows in appends.
    static let more: UInt32 = 2

    static var size: Int { MemoryLayout<CommandHeader>.stride }
}

/// worker -> run(), on the audio timeline: each record takes effect when playback reaches
/// `position`, the number of frames the worker had written to the frame ring before it.
struct EventHeader {
    enum Kind: UInt32 {
        /// A request's audio starts here.
        case begin = 1
        /// A prepared notify atom (marker, error) for the request, bytes follow.
        case atom
        /// A request's audio ends here; `flags` says how.
        case end
    }
    enum End: UInt32 { case finished = 0, failed, cancelled }
    /// `flags` bit of an `.atom` record that is a word marker: where a pause at `spk:word` stops.
    static let wordBoundary: UInt32 = 1
    var kind: UInt32
    var flags: UInt32 = 0
    var request: Int64
    var position: Int64 = 0
    var atomLength: UInt32 = 0
    var reserved: UInt32 = 0
    // followed by atomLength bytes: one complete atom (header and body)

    static var size: Int { MemoryLayout<EventHeader>.stride }
}
