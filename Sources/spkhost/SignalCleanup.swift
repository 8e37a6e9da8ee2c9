import Foundation
import SpkAudio

/// SIGINT and SIGTERM remove the files a command is making (`ScratchFiles`), then end the
/// process by the same signal, so a stopped render leaves nothing behind.
///
/// The handler only writes the signal's number to a pipe (all a signal handler may safely do);
/// a thread of its own reads it and cleans up. Handled, not ignored: programs spkhost starts
/// (pip, `spkhost voices`) get the default actions back when they exec.
enum SignalCleanup {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    static func install() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        writeEnd = ends[1]
        let readEnd = ends[0]
        for signalNumber in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalCleanup.writeEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signalNumber, &action, nil)
        }
        let thread = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            ScratchFiles.removeAll()
            let number = Int32(byte)
            signal(number, SIG_DFL)
            kill(getpid(), number)
        }
        thread.start()
    }
}
