// spk-neural-bench: the neural engine's first audio and real-time factor, against the same
// voice spoken sentence at a time (Piper's way) and against sherpa-onnx called directly, all in
// one run and one process, interleaved so the machine's load falls on every side alike.
//
//   swift run -c release --package-path Benchmarks spk-neural-bench [--runs N] [--json]
//
// The voice is the installed spk.neural.en-us-joe ($XDG_DATA_HOME/spk/neural; install it with
// `spkhost voice install spk.neural.en-us-joe`). First audio is the time from the call to the
// engine's first chunk of sound; the real-time factor is synthesis time over audio length.
import Dispatch
import Glibc
import NeuralVoices
import SpeechEngines
import SpkProtocol

// Sentences with a comma, as people write them: a short opening ("However,"), a phrase, a
// clause as long as the rest.
let sentences = [
    "Hello, nice to meet you, and welcome to the show.",
    "However, the weather stayed cold for the rest of the week.",
    "In the morning, we packed our bags and drove to the coast.",
    "When the sun rose over the hills, the village slowly came to life.",
    "Yes, I think that is a very good idea.",
    "If you listen closely, you can hear the river behind the old mill.",
    "To be honest, I never expected the letter to arrive so soon.",
    "After a long day at work, she walked home through the quiet park.",
    "Thank you, everyone, for coming to the meeting tonight.",
    "Although it was raining, the children played outside until dinner.",
]
let paragraph = """
    Before the meeting started, everyone gathered around the window. The storm had passed, \
    and the streets were shining in the late afternoon light. Somebody opened a thermos of \
    coffee, and the smell filled the room. Nobody wanted to be the first to sit down. \
    Finally, the chair cleared her throat and asked us to take our places.
    """

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func fail(_ message: String) -> Never {
    fputs("error: \(message)\n", stderr)
    exit(1)
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))]
}

var runs = 20
var json = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--runs": runs = arguments.popFirst().flatMap(Int.init) ?? runs
    case "--json": json = true
    default: fail("usage: spk-neural-bench [--runs N] [--json]")
    }
}

let paths = NeuralPaths.current()
let spk = NeuralEngine(paths: { paths }, chunking: .firstClauseAlone)
let piper = NeuralEngine(paths: { paths }, chunking: .sentences)
guard let entry = NeuralCatalog.entry(NeuralEngine.defaultVoice), let voice = spk.voices.first else { fail("no neural voice in the catalog") }
guard spk.isInstalled(voice) else {
    fail("\(voice.identifier) is not installed in \(paths.root): spkhost voice install \(voice.identifier)")
}

// sherpa-onnx called directly: the same phonemes, a sentence per call, no spk around it.
let loadStart = now()
let direct: SherpaVoiceModel
do {
    direct = try SherpaVoiceModel(voice: InstalledNeuralVoice(directory: paths.voiceDirectory(entry)),
                                  runtime: SherpaRuntime.load(directory: paths.runtimeDirectory))
} catch {
    fail("\(error)")
}
let loadSeconds = now() - loadStart
let rate = Double(direct.sampleRate)

/// Seconds until `engine` hands on its first sound for `text` (it stops there).
func firstAudio(_ engine: NeuralEngine, _ text: String) throws -> Double {
    let start = now()
    var first = 0.0
    try engine.synthesize(SynthesisText(text: text), voice: voice, prosody: EngineProsody()) { chunk in
        guard !chunk.samples.isEmpty else { return true }
        first = now() - start
        return false
    }
    return first
}

/// Synthesis seconds and audio seconds for `text` spoken whole by `engine`.
func whole(_ engine: NeuralEngine, _ text: String) throws -> (Double, Double) {
    let start = now()
    var samples = 0
    try engine.synthesize(SynthesisText(text: text), voice: voice, prosody: EngineProsody()) { chunk in
        samples += chunk.samples.count
        return true
    }
    return (now() - start, Double(samples) / engine.sampleRate)
}

/// The same for sherpa-onnx called directly with the text's phonemes, a sentence per call.
func wholeDirect(_ phonemes: [[Int32]]) throws -> (Double, Double) {
    let start = now()
    var samples = 0
    for sentence in phonemes { samples += try direct.generate([sentence]).count }
    return (now() - start, Double(samples) / rate)
}

do {
    // Warm up: both engines load their model, and every path runs once.
    _ = try whole(spk, sentences[0])
    _ = try whole(piper, sentences[0])
    let paragraphPhonemes = try spk.sentencePhonemes(paragraph, voice: voice)
    _ = try wholeDirect(paragraphPhonemes)

    var first: [String: [Double]] = [:]
    var time: [String: Double] = [:], audio: [String: Double] = [:]
    for run in 0..<runs {
        let sentence = sentences[run % sentences.count]
        // Alternate which goes first, so neither always follows the other.
        let order: [(String, NeuralEngine)] = run % 2 == 0 ? [("spk", spk), ("piper", piper)] : [("piper", piper), ("spk", spk)]
        for (name, engine) in order {
            first["sentence \(name)", default: []].append(try firstAudio(engine, sentence))
            first["paragraph \(name)", default: []].append(try firstAudio(engine, paragraph))
        }
        for (name, measure) in [("spk", { try whole(spk, paragraph) }), ("sherpa", { try wholeDirect(paragraphPhonemes) })] {
            let (t, a) = try measure()
            time[name, default: 0] += t
            audio[name, default: 0] += a
        }
    }
    let rtf = time.reduce(into: [String: Double]()) { $0[$1.key] = $1.value / audio[$1.key]! }
    func ms(_ s: Double) -> String { "\(Int((s * 1000).rounded())) ms" }
    func fixed(_ x: Double, _ digits: Int) -> String {
        let scale = (0..<digits).reduce(1.0) { r, _ in r * 10 }
        let n = Int((x * scale).rounded())
        let fraction = String(abs(n) % Int(scale))
        return "\(n / Int(scale)).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }
    func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
    let rows = ["sentence", "paragraph"].map { text -> (String, Double, Double, Double, Double) in
        let ours = first["\(text) spk"]!, theirs = first["\(text) piper"]!
        return (text, percentile(ours, 0.5), percentile(ours, 0.99), percentile(theirs, 0.5), percentile(theirs, 0.99))
    }
    if json {
        let entries = rows.map { row in
            #"{"text":"\#(row.0)","spkP50":\#(row.1),"spkP99":\#(row.2),"piperP50":\#(row.3),"piperP99":\#(row.4)}"#
        }.joined(separator: ",")
        print(#"{"runs":\#(runs),"loadSeconds":\#(loadSeconds),"firstAudio":[\#(entries)],"rtfSpk":\#(rtf["spk"]!),"rtfSherpa":\#(rtf["sherpa"]!)}"#)
    } else {
        print("spk-neural-bench: \(voice.identifier), \(runs) runs each, model load \(fixed(loadSeconds, 2)) s")
        print("first audio   spk p50   spk p99   Piper's way p50   p99      spk/Piper (p50)")
        for row in rows {
            print(pad(row.0, 12) + "  " + pad(ms(row.1), 8) + "  " + pad(ms(row.2), 8) + "  " + pad(ms(row.3), 16) + "  "
                + pad(ms(row.4), 8) + " " + fixed(row.1 / row.3, 2))
        }
        print("real-time factor (paragraph): spk \(fixed(rtf["spk"]!, 3)), sherpa-onnx directly \(fixed(rtf["sherpa"]!, 3)), "
            + "spk/sherpa \(fixed(rtf["spk"]! / rtf["sherpa"]!, 3))")
    }
} catch {
    fail("\(error)")
}
