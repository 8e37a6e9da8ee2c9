import CLV2
import Glibc

/// Messages for the host's log (LV2 log feature), or stderr when the host offers none.
/// Never used in `run()`.
struct PluginLog: @unchecked Sendable {
    private let log: UnsafeMutablePointer<LV2_Log_Log>?
    private let errorType: UInt32
    private let warningType: UInt32

    init(log: UnsafeMutablePointer<LV2_Log_Log>?, map: (String) -> UInt32) {
        self.log = log
        errorType = map("http://lv2plug.in/ns/ext/log#Error")
        warningType = map("http://lv2plug.in/ns/ext/log#Warning")
    }

    func error(_ message: String) { write(message, type: errorType) }

    /// An error a request met, already sent as spk:Error: also to the host's log when it
    /// offers one (hosts such as Carla, Ardour and jalv show no spk:Error), else nowhere.
    func requestError(_ message: String) {
        guard log != nil else { return }
        write("spk: " + message, type: errorType)
    }
    func warning(_ message: String) { write(message, type: warningType) }

    private func write(_ message: String, type: UInt32) {
        guard let log, let vprintf = log.pointee.vprintf else {
            fputs(message + "\n", stderr)
            return
        }
        message.withCString { text in
            _ = withVaList([text]) { vprintf(log.pointee.handle, type, "%s\n", $0) }
        }
    }
}
