import ArgumentParser
import Foundation
import LV2Host
import SpkProtocol

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Speak a request into JACK, printing events as they happen; exits when it finishes.")

    @OptionGroup var request: RequestInput
    @OptionGroup var effects: GraphOptions
    @OptionGroup var jack: JACKOptions

    func run() throws {
        try failing {
            let text = try request.request()
            switch try SpeechRoute(request: request, text: text, options: effects) {
            case .synth:
                let output = try LiveOutput(pluginURI: request.pluginURI, jack: jack)
                try output.speech.plugin.setControls(rate: request.rate, pitch: request.pitch, volume: request.volume,
                                                          trim: request.trim)
                try output.speech.speak(text, voice: request.voice, request: 1)
                try follow(text, sampleRate: output.sampleRate, receive: output.speech.receive, check: output.check)
                output.drain()
            case .graph(let spec, let parts):
                let output = try LiveGraphOutput(spec: spec, engines: parts.synths, synthControls: request.synthControls, jack: jack)
                try output.graph.speak(parts, request: 1)
                try follow(text, sampleRate: output.sampleRate, receive: output.graph.receive, check: output.check)
                output.drain()
            }
        }
    }

    /// Prints request 1's events as they come, until it has finished (or been cancelled).
    private func follow(_ text: String, sampleRate: Int, receive: () throws -> [SpeechSynth.TimedEvent], check: () throws -> Void) throws {
        var printer = EventPrinter(sampleRate: sampleRate)
        printer.requested(1, text: text)
        while true {
            try check()
            for event in try receive() {
                printer.print(event)
                switch event.event {
                case .finished(1), .cancelled(1): return
                case .error(1, let message): throw HostError(message)
                default: break
                }
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }
}
