import SpkProtocol

/// One part of a request: what one synth node is sent, and how to tell where the part ends.
///
/// A request that switches engines is cut into parts that follow each other (spkhost makes them
/// from the SSML). Each part's `ssml` keeps the byte offsets of the original request, so its
/// markers need no mapping; markers at `ignoredOffsets` (another part's `<p>` or `<s>`) and the
/// end mark are the host's own and are dropped.
public struct SpeechPart: Sendable, Equatable {
    /// The synth plugin that speaks it (`urn:spk:synth:<engine>`).
    public var synth: String
    public var ssml: String
    /// `spk:voice` for the request, or nil for the plugin's default.
    public var voice: String?
    /// The `spk:textOffset` of the bookmark at which the part ends; nil when it ends where the
    /// synth finishes it.
    public var endMark: Int?
    public var ignoredOffsets: Set<Int>

    public init(synth: String, ssml: String, voice: String?, endMark: Int? = nil, ignoredOffsets: Set<Int> = []) {
        self.synth = synth
        self.ssml = ssml
        self.voice = voice
        self.endMark = endMark
        self.ignoredOffsets = ignoredOffsets
    }
}

/// Turns the events of requests' parts back into the events of the requests (control thread):
/// the first part's start and the last part's finish, every marker but the host's own, errors.
struct PartEvents {
    private struct Entry {
        var request: Int64
        var part: SpeechPart
        var isFirst: Bool
        var isLast: Bool
    }
    private var entries: [Int64: Entry] = [:]
    /// Added to every frame: the graph's latency when it is not trimmed away.
    var latency: Int64 = 0

    mutating func add(_ part: SpeechPart, id: Int64, request: Int64, isFirst: Bool, isLast: Bool) {
        entries[id] = Entry(request: request, part: part, isFirst: isFirst, isLast: isLast)
    }

    mutating func translate(frame: Int64, _ event: SpkEvent) -> SpeechSynth.TimedEvent? {
        func timed(_ event: SpkEvent) -> SpeechSynth.TimedEvent { .init(frame: frame + latency, event: event) }
        switch event {
        case .started(let id):
            guard let entry = entries[id], entry.isFirst else { return nil }
            return timed(.started(request: entry.request))
        case .finished(let id):
            guard let entry = entries[id] else { return nil }
            entries[id] = nil
            return entry.isLast ? timed(.finished(request: entry.request)) : nil
        case .cancelled(let id):
            entries[id] = nil  // a part cut at its end mark
            return nil
        case .paused(let id):
            return entries[id].map { timed(.paused(request: $0.request)) }
        case .continued(let id):
            return entries[id].map { timed(.continued(request: $0.request)) }
        case .error(let id, let message):
            return entries[id].map { timed(.error(request: $0.request, message: message)) }
        case .marker(var marker):
            guard let entry = entries[marker.request] else { return nil }
            if marker.type == .bookmark && marker.textOffset == entry.part.endMark { return nil }
            if (marker.type == .sentence || marker.type == .paragraph) && entry.part.ignoredOffsets.contains(marker.textOffset) { return nil }
            marker.request = entry.request
            return timed(.marker(marker))
        default:
            return nil
        }
    }
}
