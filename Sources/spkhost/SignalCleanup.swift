import Dispatch
import Glibc
import SpkAudio

/// SIGINT and SIGTERM remove the files a command is making (`ScratchFiles`), then end the
/// process by the same signal, so a stopped render leaves nothing behind.
enum SignalCleanup {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                ScratchFiles.removeAll()
                signal(signalNumber, SIG_DFL)
                kill(getpid(), signalNumber)  // to the process: this dispatch thread blocks signals
            }
            source.resume()
            sources.append(source)
        }
    }
}
