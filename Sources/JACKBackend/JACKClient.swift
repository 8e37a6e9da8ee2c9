import CJack
import Glibc
import Synchronization

/// A JACK client with mono output ports and a render callback, as thin as JACK allows.
///
/// The callback runs on JACK's real-time thread; it must not allocate, lock or block. Xruns,
/// buffer-size and sample-rate changes and a server that goes away are recorded in atomics for
/// the control thread to read.
public final class JACKClient: @unchecked Sendable {
    public typealias Render = (_ frames: Int, _ outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>) -> Void

    private let client: OpaquePointer
    public let name: String
    public let server: String?
    private var ports: [OpaquePointer] = []
    private var inputPorts: [OpaquePointer] = []
    private var render: Render?
    private var capture: Render?
    private var buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var inputBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var active = false

    public let xruns = Atomic<Int>(0)
    public let bufferSize = Atomic<Int>(0)
    public let currentSampleRate = Atomic<Int>(0)
    /// Set when the server shut the client down (killed, or it dropped us).
    public let shutDown = Atomic<Bool>(false)
    /// Process cycles run so far: the watchdog's evidence that the server still answers.
    public let processCycles = Atomic<Int>(0)
    /// Set when the server stopped answering (`checkAnswering`): the client is then left as it
    /// is at exit, since every call to a stopped server (deactivate, close) waits forever.
    public let stalled = Atomic<Bool>(false)
    private var watchedCycles = -1
    private var watchedSince = timespec()
    nonisolated(unsafe) private var shutdownReason = ""

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// libjack prints its complaints to stderr; spk reports errors itself, in one line.
    nonisolated(unsafe) private static var lastLibraryError = ""
    private static let quietLibrary: Void = {
        jack_set_error_function { message in JACKClient.lastLibraryError = message.map { String(cString: $0) } ?? "" }
        jack_set_info_function { _ in }
    }()

    /// Connects to a running server (`server` nil means the default one); never starts one.
    public init(name: String, server: String? = nil) throws {
        _ = Self.quietLibrary
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue)
        guard let client = spk_jack_client_open(name, options, &status, server) else {
            let which = server ?? (getenv("JACK_DEFAULT_SERVER").map { String(cString: $0) } ?? "default")
            throw Failure(description: "cannot connect to the JACK server '\(which)' (is jackd running?)")
        }
        self.client = client
        self.name = String(cString: jack_get_client_name(client))
        self.server = server
        bufferSize.store(Int(jack_get_buffer_size(client)), ordering: .relaxed)
        currentSampleRate.store(Int(jack_get_sample_rate(client)), ordering: .relaxed)
        let me = Unmanaged.passUnretained(self).toOpaque()
        jack_set_process_callback(client, { frames, arg in
            Unmanaged<JACKClient>.fromOpaque(arg!).takeUnretainedValue().process(Int(frames))
            return 0
        }, me)
        jack_set_xrun_callback(client, { arg in
            Unmanaged<JACKClient>.fromOpaque(arg!).takeUnretainedValue().xruns.add(1, ordering: .relaxed)
            return 0
        }, me)
        jack_set_buffer_size_callback(client, { frames, arg in
            Unmanaged<JACKClient>.fromOpaque(arg!).takeUnretainedValue().bufferSize.store(Int(frames), ordering: .relaxed)
            return 0
        }, me)
        jack_set_sample_rate_callback(client, { rate, arg in
            Unmanaged<JACKClient>.fromOpaque(arg!).takeUnretainedValue().currentSampleRate.store(Int(rate), ordering: .relaxed)
            return 0
        }, me)
        jack_on_info_shutdown(client, { _, reason, arg in
            let me = Unmanaged<JACKClient>.fromOpaque(arg!).takeUnretainedValue()
            me.shutdownReason = reason.map { String(cString: $0) } ?? ""
            me.shutDown.store(true, ordering: .releasing)
        }, me)
    }

    deinit {
        if stalled.load(ordering: .acquiring) {
            // A stopped server never answers: leave the client to the process's exit.
        } else {
            if active && !shutDown.load(ordering: .acquiring) { jack_deactivate(client) }
            jack_client_close(client)
        }
        buffers?.deallocate()
        inputBuffers?.deallocate()
    }

    public var sampleRate: Int { currentSampleRate.load(ordering: .relaxed) }

    public var shutdownMessage: String {
        shutdownReason.isEmpty ? "the JACK server shut down" : "the JACK server shut down: \(shutdownReason)"
    }

    /// Registers the mono output ports, before `activate`.
    public func registerOutputs(_ names: [String]) throws {
        ports = try register(names, JackPortIsOutput.rawValue, "output")
        buffers = .allocate(capacity: max(ports.count, 1))
    }

    private func register(_ names: [String], _ direction: UInt32, _ what: String) throws -> [OpaquePointer] {
        try names.map { portName in
            guard let port = jack_port_register(client, portName, "32 bit float mono audio", UInt(direction), 0) else {
                throw Failure(description: "JACK refused the \(what) port '\(portName)'")
            }
            return port
        }
    }

    /// Registers mono input ports, before `activate`.
    public func registerInputs(_ names: [String]) throws {
        inputPorts = try register(names, JackPortIsInput.rawValue, "input")
        inputBuffers = .allocate(capacity: max(inputPorts.count, 1))
    }

    /// Starts calling `render` (outputs to fill) and `capture` (inputs to read) from JACK's
    /// process thread.
    public func activate(_ render: @escaping Render = { _, _ in }, capture: Render? = nil) throws {
        self.render = render
        self.capture = capture
        guard jack_activate(client) == 0 else { throw Failure(description: "JACK would not activate the client '\(name)'") }
        active = true
    }

    /// Whether the server still runs the process callback: false once no cycle has come for
    /// `timeout` seconds while the client is active (a server stopped with SIGSTOP, or hung).
    /// Called from one polling thread, never from the process callback.
    public func checkAnswering(timeout: Double = 3) -> Bool {
        guard active, !shutDown.load(ordering: .acquiring) else { return true }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let cycles = processCycles.load(ordering: .relaxed)
        if cycles != watchedCycles {
            watchedCycles = cycles
            watchedSince = now
            return true
        }
        let waited = Double(now.tv_sec - watchedSince.tv_sec) + Double(now.tv_nsec - watchedSince.tv_nsec) / 1e9
        if waited > timeout {
            stalled.store(true, ordering: .releasing)
            return false
        }
        return true
    }

    private func process(_ frames: Int) {
        processCycles.add(1, ordering: .relaxed)
        if let capture, let inputBuffers {
            for (i, port) in inputPorts.enumerated() {
                inputBuffers[i] = jack_port_get_buffer(port, jack_nframes_t(frames)).assumingMemoryBound(to: Float.self)
            }
            capture(frames, inputBuffers)
        }
        guard let render, let buffers else { return }
        for (i, port) in ports.enumerated() {
            buffers[i] = jack_port_get_buffer(port, jack_nframes_t(frames)).assumingMemoryBound(to: Float.self)
        }
        render(frames, buffers)
    }

    /// Full name of our input port `index` (`spkhost:in`).
    public func inputName(_ index: Int) -> String { String(cString: jack_port_name(inputPorts[index])) }

    /// Full name of our output port `index` (`spkhost:out`).
    public func outputName(_ index: Int) -> String { String(cString: jack_port_name(ports[index])) }

    /// The server's physical playback ports (`system:playback_1`, ...).
    public func playbackPorts() -> [String] { physicalPorts(JackPortIsInput.rawValue) }

    /// The server's physical capture ports (`system:capture_1`, ...): microphones.
    public func capturePorts() -> [String] { physicalPorts(JackPortIsOutput.rawValue) }

    private func physicalPorts(_ direction: UInt32) -> [String] {
        guard let list = jack_get_ports(client, nil, "audio", UInt(JackPortIsPhysical.rawValue | direction)) else { return [] }
        defer { jack_free(UnsafeMutableRawPointer(mutating: list)) }
        var names: [String] = []
        var i = 0
        while let name = list[i] {
            names.append(String(cString: name))
            i += 1
        }
        return names
    }

    public func connect(_ source: String, to destination: String) throws {
        let status = jack_connect(client, source, destination)
        guard status == 0 || status == EEXIST else {
            throw Failure(description: "cannot connect \(source) to \(destination) (no such JACK port?)")
        }
    }
}
