/// A request's text cut into the messages that carry it: one `spk:Speak`, then as many
/// `spk:Append`s as it takes, each sent once the plugin has answered `spk:Ready` for the one
/// before. So a request of any size up to `maximumBytes` reaches a plugin whose control port
/// holds `chunkBytes` plus room to spare, and no more than two chunks wait in the plugin at once.
/// The plugin joins the bytes back together: marker offsets point into the whole text.
public struct RequestChunks: Sendable {
    /// The largest request a plugin takes: 100 MiB.
    public static let maximumBytes = 100 << 20
    /// Bytes of text per message: half of the 64 KiB control port spk's plugins ask for.
    public static let chunkBytes = 32 << 10

    public let text: String
    private let utf8: String.UTF8View
    private var position: String.Index

    public init(_ text: String, chunkBytes: Int = RequestChunks.chunkBytes) {
        self.text = text
        utf8 = text.utf8
        position = text.utf8.startIndex
        self.chunkBytes = chunkBytes
    }

    private let chunkBytes: Int

    /// Whether text remains to be sent.
    public var hasMore: Bool { position < utf8.endIndex }

    /// The message that carries the next chunk: the request's `spk:Speak` for the first (with
    /// `spk:more` when more follows), an `spk:Append` for each after it.
    public mutating func nextMessage(request: Int64, voice: String?, _ u: SpkURIDs) -> (inout AtomWriter) -> Void {
        let first = position == utf8.startIndex
        let (text, more) = next()
        if first { return { $0.speak(ssml: text, voice: voice, request: request, more: more, u) } }
        return { $0.append(request: request, ssml: text, more: more, u) }
    }

    /// The next chunk, cut between UTF-8 characters, and whether more follows it.
    public mutating func next() -> (text: Substring, more: Bool) {
        var end = utf8.index(position, offsetBy: chunkBytes, limitedBy: utf8.endIndex) ?? utf8.endIndex
        while end < utf8.endIndex && UTF8.isContinuation(utf8[end]) {
            end = utf8.index(before: end)
        }
        let chunk = Substring(utf8[position..<end])
        position = end
        return (chunk, hasMore)
    }
}

/// Why a request cannot be sent.
public struct RequestTooLarge: Error, CustomStringConvertible, Sendable {
    public let bytes: Int
    public init(bytes: Int) { self.bytes = bytes }
    public var description: String {
        "the request is \(bytes) bytes; spk speaks requests of at most \(RequestChunks.maximumBytes) bytes (100 MiB)"
    }
}
