import CLV2
import SpkProtocol

/// The window's only way to the plugin: atoms written through the host (`write_function` with
/// `atom:eventTransfer` into the `control` port), the same spk atoms `spkhost` sends. Never the
/// plugin instance itself, so the window works in any host, in- or out-of-process.
final class PluginLink {
    private let write: LV2UI_Write_Function
    private let controller: LV2UI_Controller?
    let urids: SpkURIDs
    let eventTransfer: UInt32
    /// The `control` port (shared/DESIGN.md: port 0).
    private let controlPort: UInt32 = 0
    private var buffer = [UInt8](repeating: 0, count: 4 * TextModel.capacity + 1024)

    init(write: @escaping LV2UI_Write_Function, controller: LV2UI_Controller?, map: (String) -> UInt32) {
        self.write = write
        self.controller = controller
        urids = SpkURIDs(map: map)
        eventTransfer = map("http://lv2plug.in/ns/ext/atom#eventTransfer")
    }

    /// Forges one atom with `body` and hands it to the host for the plugin's control port.
    func send(_ body: (inout AtomWriter) -> Void) {
        let controller = controller, write = write, port = controlPort, format = eventTransfer
        buffer.withUnsafeMutableBytes { raw in
            var writer = AtomWriter(raw.baseAddress!, capacity: raw.count)
            body(&writer)
            guard !writer.overflowed, writer.offset > 0 else { return }
            write(controller, port, UInt32(writer.offset), format, raw.baseAddress)
        }
    }

    func speak(_ text: String, request: Int64) { send { $0.speak(ssml: text, voice: nil, request: request, urids) } }
    func stop() { send { $0.cancel(request: nil, urids) } }
    func pause() { send { $0.pause(atWord: true, urids) } }
    func resume() { send { $0.resume(urids) } }
    func setText(_ text: String) { send { $0.patchSet(property: urids.text, string: text, urids) } }
    func setVoice(_ identifier: String) { send { $0.patchSet(property: urids.voice, string: identifier, urids) } }
    func askForVoices() { send { $0.patchGet(property: urids.voices, urids) } }
    /// A bare patch:Get: the plugin answers with spk:text and spk:voice.
    func askForParameters() {
        send { w in
            let object = w.beginObject(urids, otype: urids.patchGet)
            w.end(object)
        }
    }
}
