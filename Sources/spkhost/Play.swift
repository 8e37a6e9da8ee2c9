import ArgumentParser
import Foundation
import LV2Host
import SpkProtocol

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Speak a request into JACK, printing events as they happen; exits when it finishes.")

    @OptionGroup var request: RequestInput
    @OptionGroup var jack: JACKOptions

    func run() throws {
        try failing {
            let text = try request.request()
            let output = try LiveOutput(pluginURI: request.pluginURI, jack: jack)
            try output.speech.plugin.setControls(rate: request.rate, pitch: request.pitch, volume: request.volume)
            var printer = EventPrinter(sampleRate: output.sampleRate)
            printer.requested(1, text: text)
            let u = output.speech.plugin.urids.spk
            try output.speech.send { $0.speak(ssml: text, voice: request.voice, request: 1, u) }
            while true {
                try output.check()
                for event in output.speech.receive() {
                    printer.print(event)
                    switch event.event {
                    case .finished(1), .cancelled(1):
                        output.drain()
                        return
                    case .error(1, let message):
                        throw HostError(message)
                    default: break
                    }
                }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }
}
