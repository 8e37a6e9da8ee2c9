import Glibc
import PersonalVoice
import SpkAudio
import SpkProtocol
import Synchronization

/// A person's own voice: each sentence they recorded is played from their phrase bank, every
/// other one is spoken by the synthetic voice matched to their recordings (flite, with the pitch
/// and pace the analysis found).
///
/// Personal voices are listed and spoken only for clients the person has authorized
/// (`spkhost personal-voice authorize CLIENT`); naming one otherwise is refused, saying so.
public final class PersonalEngine: SpeechEngine, @unchecked Sendable {
    public let name = "personal"
    public let sampleRate: Double
    public static let pluginURI = SpkURI.personalPlugin
    private let flite: FliteEngine
    private let store: PersonalStore
    private let client: String
    private let cache = Mutex<(time: Double, profiles: [PersonalProfile])>((-1, []))

    public init(store: PersonalStore = PersonalStore(), client: String = Authorization.currentClient()) throws {
        flite = try FliteEngine.shared()
        sampleRate = flite.sampleRate
        self.store = store
        self.client = client
    }

    nonisolated(unsafe) private static var sharedEngine: PersonalEngine?
    private static let lock = Mutex(())
    public static func shared() throws -> PersonalEngine {
        try lock.withLock { _ in
            if let engine = sharedEngine { return engine }
            let engine = try PersonalEngine()
            sharedEngine = engine
            return engine
        }
    }

    private var authorization: AuthorizationStatus { Authorization(store: store).status(of: client) }

    /// The stored voices, read again at most once a second (people make and delete them).
    private var profiles: [PersonalProfile] {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let time = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return cache.withLock { cache in
            if time - cache.time > 1 { cache = (time, store.voices()) }
            return cache.profiles
        }
    }

    public var voices: [Voice] {
        authorization == .authorized ? profiles.map(voice(for:)) : []
    }

    private func voice(for profile: PersonalProfile) -> Voice {
        Voice(identifier: profile.identifier, name: profile.name, primaryLanguages: [profile.language],
              supportedLanguages: [profile.language, "en"], gender: profile.analysis.meanPitch < 165 ? .male : .female,
              quality: .enhanced, traits: [.personal], plugin: Self.pluginURI)
    }

    public func requireVoice(named name: String) throws -> Voice {
        let wanted = name.lowercased()
        let all = profiles
        let found = all.first { $0.identifier == wanted || $0.slug == wanted || $0.name.lowercased() == wanted }
            ?? (name.isEmpty ? all.first : nil)
        guard let profile = found else {
            throw SpeechError(name.isEmpty
                ? "no personal voice yet: record one with spkhost personal-voice record, then create it"
                : "unknown personal voice '\(name)' (spkhost personal-voice list)")
        }
        let status = authorization
        guard status == .authorized else {
            throw SpeechError("personal voice '\(profile.name)' is not authorized for \(client) (\(status.rawValue)); "
                + "the person can allow it with: spkhost personal-voice authorize \(client)")
        }
        return voice(for: profile)
    }

    public func synthesize(_ text: SynthesisText, voice: Voice, prosody: EngineProsody,
                           emit: (SynthesisOutput) throws -> Bool) throws {
        _ = try requireVoice(named: voice.identifier)
        guard let profile = profiles.first(where: { $0.identifier == voice.identifier }) else { return }
        let bytes = Array(text.text.utf8)
        let synthetic = try flite.requireVoice(named: profile.synthetic.base)
        var personal = prosody
        personal.rate *= profile.synthetic.rate
        personal.pitch *= profile.synthetic.pitch
        let sentences = FliteSentences.split(bytes)
        for (index, sentence) in sentences.enumerated() {
            let sentenceText = String(decoding: bytes[sentence], as: UTF8.self)
            // Pauses between sentences stay whole; the piece's own edges are as it was asked.
            let start = index == 0 ? text.start : .sentence
            let endsRun = index == sentences.count - 1 ? text.endsRun : false
            if text.phonemes == nil, !text.spellOut, let take = profile.take(for: sentenceText) {
                guard try emit(try banked(take, profile: profile, text: bytes, sentence: sentence)) else { return }
                continue
            }
            var stopped = false
            try flite.synthesize(SynthesisText(text: sentenceText, spellOut: text.spellOut, phonemes: text.phonemes,
                                               start: start, endsRun: endsRun),
                                 voice: synthetic, prosody: personal) { chunk in
                var moved = chunk
                for i in moved.boundaries.indices {
                    let r = moved.boundaries[i].textRange
                    moved.boundaries[i].textRange = r.lowerBound + sentence.lowerBound..<r.upperBound + sentence.lowerBound
                }
                let volume = Float(profile.synthetic.volume)
                if volume != 1 { moved.samples = moved.samples.map { $0 * volume } }
                stopped = try !emit(moved)
                return !stopped
            }
            if stopped { return }
        }
    }

    /// A recorded take at the engine's rate. Its words are marked where they fall if the take's
    /// sound is spread over the sentence's letters evenly: an estimate, since takes carry no
    /// alignment.
    private func banked(_ take: BankEntry, profile: PersonalProfile, text: [UInt8], sentence: Range<Int>) throws -> SynthesisOutput {
        let audio = try AudioFileReader.readMono(path: profile.directory + "/" + take.file)
        var out = SynthesisOutput()
        out.samples = try Resampler.convert(audio.samples, from: Double(audio.sampleRate), to: sampleRate)
        let margin = Int(0.03 * sampleRate)  // the bank keeps 30 ms before the speech
        let span = max(out.samples.count - 2 * margin, 1)
        out.boundaries.append(.init(kind: .sentence, sample: margin, textRange: sentence))
        var i = sentence.lowerBound
        while i < sentence.upperBound {
            while i < sentence.upperBound && !Self.isWordByte(text[i]) { i += 1 }
            let start = i
            while i < sentence.upperBound && Self.isWordByte(text[i]) { i += 1 }
            guard i > start else { continue }
            let position = Double(start - sentence.lowerBound) / Double(max(sentence.count, 1))
            out.boundaries.append(.init(kind: .word, sample: margin + Int(position * Double(span)), textRange: start..<i))
        }
        return out
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        b >= 0x80 || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x27
    }
}
