import Foundation
import Glibc

/// Runs a program to its end and reports its peak resident memory, as the kernel counted it
/// (`wait4`'s rusage), with its standard output and error discarded.
func runMeasuringPeakMemory(_ program: String, _ arguments: [String], environment: [String: String]) -> (status: Int32, peakKiB: Int) {
    var env = ProcessInfo.processInfo.environment
    env.merge(environment) { $1 }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    guard posix_spawn(&pid, program, &actions, nil, argv, envp) == 0 else { return (-1, 0) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exit, usage.ru_maxrss)
}
