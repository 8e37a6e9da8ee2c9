import Glibc
import Synchronization

/// Counts the allocations made on one thread (the one that calls `run()`), with ordo-one's malloc
/// interposer when the process has it loaded (`LD_PRELOAD=libMallocInterposerSwift.so`).
///
/// The interposer's C API is looked up at run time, so a host needs no dependency on it; without
/// the interposer `make()` returns nil and nothing can be counted. Its allocation hook runs on
/// every thread while counting is enabled: the hook here counts only calls on the thread that
/// called `begin()`, between `begin()` and `end()`, and itself allocates nothing.
public final class RunAllocationCounter {
    private typealias Hook = @convention(c) (Int) -> Void
    private let enable: @convention(c) () -> Void
    private let disable: @convention(c) () -> Void
    private let setHook: @convention(c) (Hook?) -> Void

    /// The library to preload for counting, found beside the running executable (a build
    /// directory has it, since spk-rt-check links it) or named by `SPK_MALLOC_INTERPOSER`.
    public static var interposerLibrary: String? {
        if let named = getenv("SPK_MALLOC_INTERPOSER").map({ String(cString: $0) }), access(named, R_OK) == 0 { return named }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        let candidate = String(executable[..<slash]) + "/libMallocInterposerSwift.so"
        return access(candidate, R_OK) == 0 ? candidate : nil
    }

    /// The counter, or nil when the interposer is not loaded in this process.
    public static func make() -> RunAllocationCounter? {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        guard let enable = dlsym(process, "malloc_interposer_enable"),
              let disable = dlsym(process, "malloc_interposer_disable"),
              let setHook = dlsym(process, "malloc_interposer_set_allocation_hook") else { return nil }
        let counter = RunAllocationCounter(enable: unsafeBitCast(enable, to: (@convention(c) () -> Void).self),
                                           disable: unsafeBitCast(disable, to: (@convention(c) () -> Void).self),
                                           setHook: unsafeBitCast(setHook, to: (@convention(c) (Hook?) -> Void).self))
        // A zero is only worth something if an allocation would have counted: check that one does.
        counter.begin()
        UnsafeMutableRawPointer.allocate(byteCount: 24, alignment: 8).deallocate()
        return counter.end() > 0 ? counter : nil
    }

    private init(enable: @escaping @convention(c) () -> Void, disable: @escaping @convention(c) () -> Void,
                 setHook: @escaping @convention(c) (Hook?) -> Void) {
        self.enable = enable
        self.disable = disable
        self.setHook = setHook
        // Touch the globals the hook reads, so that their first use is not inside malloc.
        _ = countedThread
        _ = RunAllocationCounterState.counting.load(ordering: .relaxed)
        _ = RunAllocationCounterState.count.load(ordering: .relaxed)
        setHook { _ in
            guard RunAllocationCounterState.counting.load(ordering: .relaxed),
                  pthread_equal(pthread_self(), countedThread) != 0 else { return }
            RunAllocationCounterState.count.add(1, ordering: .relaxed)
        }
        enable()
    }

    deinit {
        RunAllocationCounterState.counting.store(false, ordering: .relaxed)
        disable()
        setHook(nil)
    }

    /// Starts counting the calling thread's allocations (call right before `run()`).
    @inline(__always)
    public func begin() {
        countedThread = pthread_self()
        RunAllocationCounterState.count.store(0, ordering: .relaxed)
        RunAllocationCounterState.counting.store(true, ordering: .releasing)
    }

    /// Stops counting; the allocations since `begin()`.
    @inline(__always)
    public func end() -> Int {
        RunAllocationCounterState.counting.store(false, ordering: .releasing)
        return RunAllocationCounterState.count.load(ordering: .relaxed)
    }
}

/// The hook is a C function: what it reads lives in globals.
nonisolated(unsafe) private var countedThread: pthread_t = 0
private enum RunAllocationCounterState {
    static let counting = Atomic<Bool>(false)
    static let count = Atomic<Int>(0)
}
