import CLV2
import Glibc
import Synchronization

/// The LV2 log feature spkhost gives every plugin. Plugins log from any thread but `run()`.
/// Warnings and errors of other people's plugins go to stderr, as `warning: <plugin>: ...`;
/// spk's own synths report their errors as spk:Error events, which spkhost prints, so their log
/// messages are only kept (`messages`), for tests and for hosts that want them.
final class HostLog: @unchecked Sendable {
    let feature: UnsafeMutablePointer<LV2_Log_Log>
    private let pluginURI: String
    private let errorType: UInt32, warningType: UInt32
    private let kept = Mutex<[String]>([])

    init(pluginURI: String, urids: URIDMap) {
        self.pluginURI = pluginURI
        errorType = urids.map("http://lv2plug.in/ns/ext/log#Error")
        warningType = urids.map("http://lv2plug.in/ns/ext/log#Warning")
        feature = .allocate(capacity: 1)
        spk_log_init(feature) { handle, type, format, args in
            guard let handle, let format, let args else { return 0 }
            let log = HostLog.instances.withLock { $0[UInt(bitPattern: handle)]?.log }
            var buffer = [CChar](repeating: 0, count: 1024)
            let n = vsnprintf(&buffer, buffer.count, format, args)
            log?.received(type: type, message: String(cString: buffer))
            return n
        }
        HostLog.instances.withLock { $0[UInt(bitPattern: feature)] = WeakLog(log: self) }
    }

    deinit {
        HostLog.instances.withLock { _ = $0.removeValue(forKey: UInt(bitPattern: feature)) }
        feature.deallocate()
    }

    /// Every message a plugin logged, in order.
    var messages: [String] { kept.withLock { $0 } }

    private func received(type: UInt32, message: String) {
        let text = message.hasSuffix("\n") ? String(message.dropLast()) : message
        kept.withLock { $0.append(text) }
        guard type == errorType || type == warningType, !pluginURI.hasPrefix("urn:spk:synth:") else { return }
        fputs("warning: <\(pluginURI)>: \(text)\n", stderr)
    }

    private struct WeakLog { weak var log: HostLog? }
    private static let instances = Mutex<[UInt: WeakLog]>([:])
}
