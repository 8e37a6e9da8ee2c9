import FoundationEssentials
import Glibc
import SpkAudio

/// A recorded phrase waiting to be banked: `name.wav` with its transcript `name.txt`.
public struct Take: Sendable {
    public var name: String
    public var audioPath: String?
    public var text: String?
}

/// Builds a personal voice from takes: checks each, analyses the good ones, banks them, and
/// asks `match` for the synthetic voice closest to what the analysis found.
public struct PersonalVoiceBuilder {
    public let store: PersonalStore
    public static let minimumTakes = 5

    public init(store: PersonalStore = PersonalStore()) { self.store = store }

    /// The takes in a directory, paired by name; a recording without transcript (or the other
    /// way round) is still listed, so it can be reported.
    public static func takes(in directory: String) throws -> [Take] {
        guard let dir = opendir(directory) else {
            throw PersonalVoiceError("cannot read recordings in \(directory): \(String(cString: strerror(errno)))")
        }
        defer { closedir(dir) }
        var byName: [String: Take] = [:]
        while let entry = readdir(dir) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let dot = file.lastIndex(of: "."), !file.hasPrefix(".") else { continue }
            let name = String(file[..<dot]), ext = file[file.index(after: dot)...].lowercased()
            var take = byName[name] ?? Take(name: name)
            if ["wav", "flac"].contains(ext) { take.audioPath = "\(directory)/\(file)" }
            if ext == "txt" {
                let data = try PersonalStore(root: directory).read("\(directory)/\(file)")
                let text = String(String(decoding: data, as: UTF8.self).drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
                take.text = text.isEmpty ? nil : text
            }
            byName[name] = take
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    public struct Rejected: Sendable {
        public var take: String
        public var reason: String
    }

    /// Builds (or rebuilds) the voice `name` from `takes`.
    public func build(name: String, takes: [Take], progress: (String) -> Void,
                      match: (VoiceAnalysis) throws -> SyntheticVoice) throws -> (PersonalProfile, [Rejected]) {
        let slug = PersonalStore.slug(name)
        guard !slug.isEmpty else { throw PersonalVoiceError("the name '\(name)' has no letters or digits") }
        var rejected: [Rejected] = []
        var good: [(take: Take, audio: MonoAudio, text: String)] = []
        for (n, take) in takes.enumerated() {
            progress("checking \(n + 1)/\(takes.count): \(take.name)")
            guard let path = take.audioPath else { rejected.append(.init(take: take.name, reason: "missing recording")); continue }
            guard let text = take.text else { rejected.append(.init(take: take.name, reason: "missing transcript (\(take.name).txt)")); continue }
            let audio: MonoAudio
            do { audio = try AudioFileReader.readMono(path: path) } catch {
                rejected.append(.init(take: take.name, reason: "unreadable: \(error)"))
                continue
            }
            if let problem = TakeCheck.problem(in: audio.samples, sampleRate: audio.sampleRate) {
                rejected.append(.init(take: take.name, reason: problem.description))
                continue
            }
            good.append((take, audio, text))
        }
        guard good.count >= Self.minimumTakes else {
            throw PersonalVoiceError("only \(good.count) good take\(good.count == 1 ? "" : "s") of \(takes.count); at least \(Self.minimumTakes) are needed"
                + (rejected.isEmpty ? "" : " (" + rejected.map { "\($0.take): \($0.reason)" }.joined(separator: "; ") + ")"))
        }

        let directory = store.directory(slug)
        try store.makePrivateDirectory(directory + "/bank")
        // Marks the build as running, so another create's clean-up leaves it alone.
        let mark = PersonalStore.buildingMark(in: directory)
        close(open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
        defer { unlink(mark) }
        var pitches: [Double] = [], words = 0, speechSeconds = 0.0, energy = 0.0, derivative = 0.0, speechSamples = 0
        var bank: [BankEntry] = []
        for (n, item) in good.enumerated() {
            progress("analysing \(n + 1)/\(good.count): \(item.text)")
            let rate = item.audio.sampleRate
            let levels = FrameLevels(item.audio.samples, sampleRate: rate)
            let speech = levels.speech ?? 0..<item.audio.samples.count
            let margin = rate * 3 / 100
            let kept = Array(item.audio.samples[max(0, speech.lowerBound - margin)..<min(item.audio.samples.count, speech.upperBound + margin)])
            let voiced = try Resampler.convert(Array(item.audio.samples[speech]), from: Double(rate), to: 16000)
            pitches += PitchTracker(sampleRate: 16000).track(voiced)
            words += item.text.split(whereSeparator: { $0.isWhitespace }).count
            speechSeconds += Double(speech.count) / Double(rate)
            for i in 1..<voiced.count {
                energy += Double(voiced[i]) * Double(voiced[i])
                let d = Double(voiced[i] - voiced[i - 1])
                derivative += d * d
            }
            speechSamples += voiced.count
            bank.append(try bankTake(kept, sampleRate: rate, text: item.text, index: n + 1, directory: directory))
        }
        guard !pitches.isEmpty else { throw PersonalVoiceError("no voiced speech found in the takes") }
        let meanPower = energy / Double(max(speechSamples, 1))
        let analysis = VoiceAnalysis(
            meanPitch: pitches.reduce(0, +) / Double(pitches.count),
            pitchLow: pitches.percentile(0.1), pitchHigh: pitches.percentile(0.9),
            wordsPerMinute: Double(words) / speechSeconds * 60,
            loudness: 10 * log10(max(meanPower, 1e-12)),
            // The mean frequency of a spectrum is (fs / 2π) · sqrt(E[x'²] / E[x²]).
            spectralCentroid: 16000 / (2 * Double.pi) * (derivative / max(energy, 1e-12)).squareRoot(),
            takes: good.count, seconds: speechSeconds)
        progress("matching a synthetic voice to \(Int(analysis.meanPitch)) Hz and \(Int(analysis.wordsPerMinute)) words a minute")
        let profile = PersonalProfile(name: name, slug: slug, analysis: analysis, synthetic: try match(analysis),
                                      bank: bank, directory: directory)
        try profile.save(store: store)
        return (profile, rejected)
    }

    /// Writes a take to the bank at -20 dBFS RMS (peaks kept below full scale), owner-only.
    private func bankTake(_ samples: [Float], sampleRate: Int, text: String, index: Int, directory: String) throws -> BankEntry {
        let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
        let peak = Double(samples.map { abs($0) }.max() ?? 0)
        let gain = Float(min(0.1 / max(rms, 1e-9), 0.98 / max(peak, 1e-9)))
        let file = "bank/\(index < 10 ? "00" : index < 100 ? "0" : "")\(index).wav"
        let path = directory + "/" + file
        let writer = try AudioFileWriter(path: path, sampleRate: sampleRate)
        try writer.write(samples.map { $0 * gain })
        try writer.commit()
        chmod(path, 0o600)
        return BankEntry(text: text, key: PhraseKey.normalized(text), file: file, seconds: Double(samples.count) / Double(sampleRate))
    }
}
