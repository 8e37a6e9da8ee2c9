// The spk atom protocol (shared/DESIGN.md, "Atom protocol"), written and read in one place so
// that plugin and host cannot disagree about it.

/// What a plugin reports on its notify port.
public enum SpkEvent: Equatable, Sendable {
    case started(request: Int64)
    case finished(request: Int64)
    case cancelled(request: Int64)
    case paused(request: Int64)
    case continued(request: Int64)
    case marker(Marker)
    case error(request: Int64, message: String)
    /// The plugin has taken what was sent of the request: the next `spk:Append` may come.
    case ready(request: Int64)
    /// `patch:Set` of `spk:voices`: the voices installed for this plugin.
    case voices([Voice])
    /// `patch:Set` of `spk:catalog`: every voice the plugin can speak.
    case catalog([Voice])

    public struct Marker: Equatable, Sendable {
        public var request: Int64
        public var type: MarkType
        public var textOffset: Int
        public var textLength: Int
        public var name: String?
        public init(request: Int64, type: MarkType, textOffset: Int, textLength: Int, name: String? = nil) {
            self.request = request
            self.type = type
            self.textOffset = textOffset
            self.textLength = textLength
            self.name = name
        }
    }

    /// Reads one notify event (allocates: for hosts, not for `run()`).
    public static func decode(_ atom: AtomRef, _ u: SpkURIDs, plugin: String = "") -> SpkEvent? {
        guard let object = atom.object(u) else { return nil }
        let request = object[u.request]?.integer(u) ?? 0
        switch object.otype {
        case u.started: return .started(request: request)
        case u.finished: return .finished(request: request)
        case u.cancelled: return .cancelled(request: request)
        case u.paused: return .paused(request: request)
        case u.continued: return .continued(request: request)
        case u.ready: return .ready(request: request)
        case u.error: return .error(request: request, message: object[u.message]?.string ?? "unknown error")
        case u.marker:
            let typeURID = object[u.markType]?.urid(u) ?? 0
            let type: MarkType
            switch typeURID {
            case u.word: type = .word
            case u.sentence: type = .sentence
            case u.paragraph: type = .paragraph
            case u.phoneme: type = .phoneme
            case u.bookmark: type = .bookmark
            default: return nil
            }
            return .marker(Marker(request: request, type: type,
                                  textOffset: Int(object[u.textOffset]?.integer(u) ?? 0),
                                  textLength: Int(object[u.textLength]?.integer(u) ?? 0),
                                  name: object[u.name]?.string))
        case u.patchSet:
            let property = object[u.patchProperty]?.urid(u)
            guard property == u.voices || property == u.catalog, let tuple = object[u.patchValue] else { return nil }
            var voices: [Voice] = []
            tuple.forEachElement { element in
                if let voice = element.object(u).flatMap({ Voice.decode($0, u, plugin: plugin) }) { voices.append(voice) }
            }
            return property == u.voices ? .voices(voices) : .catalog(voices)
        default:
            return nil
        }
    }
}

extension MarkType {
    public func urid(_ u: SpkURIDs) -> UInt32 {
        switch self {
        case .word: u.word
        case .sentence: u.sentence
        case .paragraph: u.paragraph
        case .phoneme: u.phoneme
        case .bookmark: u.bookmark
        }
    }
}

extension AtomWriter {
    /// `spk:Started`, `spk:Finished`, `spk:Cancelled`, ...: an object with only `spk:request`.
    public mutating func requestEvent(_ otype: UInt32, request: Int64, _ u: SpkURIDs) {
        let object = beginObject(u, otype: otype)
        key(u.request); long(request, u)
        end(object)
    }

    public mutating func marker(_ m: SpkEvent.Marker, _ u: SpkURIDs) {
        let object = beginObject(u, otype: u.marker)
        key(u.request); long(m.request, u)
        key(u.markType); urid(m.type.urid(u), u)
        key(u.textOffset); long(Int64(m.textOffset), u)
        key(u.textLength); long(Int64(m.textLength), u)
        if let name = m.name { key(u.name); string(name, u) }
        end(object)
    }

    public mutating func error(request: Int64, message: String, _ u: SpkURIDs) {
        let object = beginObject(u, otype: u.error)
        key(u.request); long(request, u)
        key(u.message); string(message, u)
        end(object)
    }

    /// `patch:Set` of `spk:voices` (or of `spk:catalog`): a voice list.
    public mutating func voiceList(_ voices: [Voice], property: UInt32? = nil, _ u: SpkURIDs) {
        let object = beginObject(u, otype: u.patchSet)
        key(u.patchProperty); urid(property ?? u.voices, u)
        key(u.patchValue)
        let tuple = beginTuple(u)
        for voice in voices { voice.write(into: &self, u) }
        end(tuple)
        end(object)
    }

    /// A `spk:Speak` request (host side). With `more`, the request's text continues in
    /// `spk:Append`s, each sent once the plugin answers `spk:Ready` (see `RequestChunks`).
    public mutating func speak<Text: StringProtocol>(ssml: Text, voice: String?, request: Int64?, more: Bool = false, _ u: SpkURIDs) {
        let object = beginObject(u, otype: u.speak)
        key(u.ssml); string(String(ssml), u)
        if let voice { key(u.voice); string(voice, u) }
        if let request { key(u.request); long(request, u) }
        if more { key(u.more); bool(true, u) }
        end(object)
    }

    /// The next bytes of request `request`'s text (host side).
    public mutating func append<Text: StringProtocol>(request: Int64, ssml: Text, more: Bool, _ u: SpkURIDs) {
        let object = beginObject(u, otype: u.append)
        key(u.request); long(request, u)
        key(u.ssml); string(String(ssml), u)
        if more { key(u.more); bool(true, u) }
        end(object)
    }

    /// `spk:Cancel` of one request, or of everything when `request` is nil.
    public mutating func cancel(request: Int64?, _ u: SpkURIDs) {
        let object = beginObject(u, otype: u.cancel)
        if let request { key(u.request); long(request, u) }
        end(object)
    }

    /// A three-byte MIDI message (note-on 0x90, note-off 0x80, controller 0xB0).
    public mutating func midi(_ status: UInt8, _ data1: UInt8, _ data2: UInt8, _ u: SpkURIDs) {
        let message: (UInt8, UInt8, UInt8) = (status, data1, data2)
        withUnsafeBytes(of: message) { bytes(UnsafeRawBufferPointer(rebasing: $0[0..<3]), type: u.midiEvent) }
    }

    /// `spk:Pause`, at once or at the next word boundary.
    public mutating func pause(atWord: Bool, _ u: SpkURIDs) {
        let object = beginObject(u, otype: u.pause)
        key(u.boundary); urid(atWord ? u.word : u.immediate, u)
        end(object)
    }

    /// `spk:Continue` after a pause.
    public mutating func resume(_ u: SpkURIDs) {
        let object = beginObject(u, otype: u.continue)
        end(object)
    }

    /// `patch:Set` of a string property (`spk:voice`, `spk:text`).
    public mutating func patchSet(property: UInt32, string value: String, _ u: SpkURIDs) {
        let object = beginObject(u, otype: u.patchSet)
        key(u.patchProperty); urid(property, u)
        key(u.patchValue); string(value, u)
        end(object)
    }

    /// `patch:Get` of a property (`spk:voices`).
    public mutating func patchGet(property: UInt32, _ u: SpkURIDs) {
        let object = beginObject(u, otype: u.patchGet)
        key(u.patchProperty); urid(property, u)
        end(object)
    }

    public mutating func stringTuple(_ strings: [String], _ u: SpkURIDs) {
        let tuple = beginTuple(u)
        for s in strings { string(s, u) }
        end(tuple)
    }
}

extension Voice {
    func write(into w: inout AtomWriter, _ u: SpkURIDs) {
        let object = w.beginObject(u, otype: u.Voice)
        w.key(u.identifier); w.string(identifier, u)
        w.key(u.name); w.string(name, u)
        w.key(u.primaryLanguages); w.stringTuple(primaryLanguages, u)
        w.key(u.supportedLanguages); w.stringTuple(supportedLanguages, u)
        w.key(u.gender); w.string(gender.rawValue, u)
        w.key(u.age); w.int(Int32(age), u)
        w.key(u.quality); w.string(quality.rawValue, u)
        w.key(u.traits); w.stringTuple(traits.map(\.rawValue), u)
        w.end(object)
    }

    static func decode(_ o: ObjectRef, _ u: SpkURIDs, plugin: String) -> Voice? {
        guard let identifier = o[u.identifier]?.string else { return nil }
        func strings(_ key: UInt32) -> [String] {
            var out: [String] = []
            o[key]?.forEachElement { out.append($0.string) }
            return out
        }
        return Voice(identifier: identifier, name: o[u.name]?.string ?? identifier,
                     primaryLanguages: strings(u.primaryLanguages), supportedLanguages: strings(u.supportedLanguages),
                     gender: o[u.gender].flatMap { Gender(rawValue: $0.string) } ?? .unspecified,
                     age: Int(o[u.age]?.integer(u) ?? 0),
                     quality: o[u.quality].flatMap { Quality(rawValue: $0.string) } ?? .default,
                     traits: strings(u.traits).compactMap(Trait.init(rawValue:)), plugin: plugin)
    }
}
