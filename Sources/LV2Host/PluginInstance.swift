import CLV2
import CLilv
import Glibc
import SpkProtocol

/// A running LV2 plugin with a buffer on every port.
///
/// The host gives it urid:map/unmap, worker:schedule, options (sample rate, block lengths) and
/// log. Audio ports get `maxBlock` floats, control ports their default value, atom ports a
/// buffer of at least the size the plugin asks for.
public final class PluginInstance {
    public let info: PluginInfo
    public let sampleRate: Double
    public let maxBlock: Int
    public let urids: URIDMap
    /// lilv frees an instance with nodes of its world: the world must outlive it.
    let world: LV2World
    let instance: UnsafeMutablePointer<LilvInstance>
    let worker: HostWorker
    /// The LV2 log given to the plugin; `logMessages` is what it logged.
    let log: HostLog
    public var logMessages: [String] { log.messages }

    /// Buffers, by port index.
    public private(set) var audio: [UInt32: UnsafeMutablePointer<Float>] = [:]
    public private(set) var controls: [UInt32: UnsafeMutablePointer<Float>] = [:]
    private(set) var atoms: [UInt32: (buffer: UnsafeMutableRawPointer, capacity: Int)] = [:]

    private var features: [UnsafeMutablePointer<LV2_Feature>] = []
    var featureList: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
    private let options: UnsafeMutablePointer<LV2_Options_Option>
    private let optionValues: UnsafeMutablePointer<Int32>
    private let rateValue: UnsafeMutablePointer<Float>
    private var active = false

    public static let defaultAtomCapacity = 1 << 20

    /// Instantiates `uri` from `world`. Offline, plugin work runs at once, inside
    /// `schedule_work`, so output does not depend on thread timing; `live` gives the plugin a
    /// worker thread instead, as real-time hosts must.
    public init(world: LV2World, uri: String, sampleRate: Double, maxBlock: Int, urids: URIDMap = URIDMap(),
                live: Bool = false) throws {
        let plugin = try world.plugin(uri)
        self.world = world
        info = PluginInfo(plugin, world.uris)
        self.sampleRate = sampleRate
        self.maxBlock = maxBlock
        self.urids = urids
        worker = HostWorker(threaded: live)
        log = HostLog(pluginURI: uri, urids: urids)

        // Options: sample rate and block lengths (buf-size), which plugins may read at instantiation.
        rateValue = .allocate(capacity: 1)
        rateValue.initialize(to: Float(sampleRate))
        optionValues = .allocate(capacity: 3)
        optionValues.initialize(repeating: Int32(maxBlock), count: 3)
        optionValues[0] = 1
        let u = urids.spk
        let int = urids.map(LV2URI.atomInt), float = urids.map(LV2URI.atomFloat)
        options = .allocate(capacity: 5)
        let instanceContext = LV2_OPTIONS_INSTANCE
        options[0] = LV2_Options_Option(context: instanceContext, subject: 0, key: u.paramSampleRate, size: 4, type: float, value: rateValue)
        options[1] = LV2_Options_Option(context: instanceContext, subject: 0, key: u.bufSizeMinBlock, size: 4, type: int, value: optionValues)
        options[2] = LV2_Options_Option(context: instanceContext, subject: 0, key: u.bufSizeMaxBlock, size: 4, type: int, value: optionValues + 1)
        options[3] = LV2_Options_Option(context: instanceContext, subject: 0, key: u.bufSizeNominalBlock, size: 4, type: int, value: optionValues + 2)
        options[4] = LV2_Options_Option(context: instanceContext, subject: 0, key: 0, size: 0, type: 0, value: nil)

        func feature(_ uri: String, _ data: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<LV2_Feature> {
            let f = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 1)
            f.initialize(to: LV2_Feature(URI: UnsafePointer(strdup(uri)), data: data))
            return f
        }
        features = [
            feature(LV2URI.uridMap, UnsafeMutableRawPointer(urids.mapFeature)),
            feature(LV2URI.uridUnmap, UnsafeMutableRawPointer(urids.unmapFeature)),
            feature(LV2URI.workerSchedule, UnsafeMutableRawPointer(worker.schedule)),
            feature(LV2URI.options, UnsafeMutableRawPointer(options)),
            feature(LV2URI.boundedBlockLength, nil),
            feature("http://lv2plug.in/ns/ext/log#log", UnsafeMutableRawPointer(log.feature)),
        ]
        featureList = .allocate(capacity: features.count + 1)
        for (i, f) in features.enumerated() { featureList[i] = UnsafePointer(f) }
        featureList[features.count] = nil

        guard let made = lilv_plugin_instantiate(plugin, sampleRate, featureList) else {
            throw HostError("plugin <\(uri)> failed to instantiate (see its messages above)")
        }
        instance = made
        worker.attach(instance: made)

        for port in info.ports {
            switch port.kind {
            case .audio:
                let buffer = UnsafeMutablePointer<Float>.allocate(capacity: maxBlock)
                buffer.initialize(repeating: 0, count: maxBlock)
                audio[port.index] = buffer
                lilv_instance_connect_port(instance, port.index, buffer)
            case .control:
                let value = UnsafeMutablePointer<Float>.allocate(capacity: 1)
                value.initialize(to: port.defaultValue ?? 0)
                controls[port.index] = value
                lilv_instance_connect_port(instance, port.index, value)
            case .atom:
                let capacity = max(port.minimumSize ?? 0, Self.defaultAtomCapacity)
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
                buffer.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
                atoms[port.index] = (buffer, capacity)
                lilv_instance_connect_port(instance, port.index, buffer)
            case .other:
                lilv_instance_connect_port(instance, port.index, nil)
            }
        }
    }

    deinit {
        if active { lilv_instance_deactivate(instance) }
        worker.stop()
        lilv_instance_free(instance)
        audio.values.forEach { $0.deallocate() }
        controls.values.forEach { $0.deallocate() }
        atoms.values.forEach { $0.buffer.deallocate() }
        for f in features {
            free(UnsafeMutableRawPointer(mutating: f.pointee.URI))
            f.deallocate()
        }
        featureList.deallocate()
        options.deallocate()
        optionValues.deallocate()
        rateValue.deallocate()
    }

    public func port(_ symbol: String) throws -> PortInfo {
        guard let port = info.ports.first(where: { $0.symbol == symbol }) else {
            let known = info.ports.map(\.symbol).joined(separator: ", ")
            throw HostError("plugin <\(info.uri)> has no port '\(symbol)' (ports: \(known))")
        }
        return port
    }

    /// Sets a control input, checked against the port's range.
    public func setControl(_ symbol: String, _ value: Float) throws {
        let port = try port(symbol)
        guard port.kind == .control, port.isInput, let slot = controls[port.index] else {
            throw HostError("port '\(symbol)' of <\(info.uri)> is not a control input")
        }
        if let min = port.minimum, let max = port.maximum, !(min...max).contains(value) {
            throw HostError("\(symbol)=\(value) is outside \(min)...\(max) for <\(info.uri)>")
        }
        slot.pointee = value
    }

    /// Sets the spk synth controls that are given (`trim`: 1 drops the silence before a
    /// request's first sound, the plugin's default; 0 keeps it).
    public func setControls(rate: Float?, pitch: Float?, volume: Float?, trim: Float? = nil) throws {
        if let rate { try setControl("rate", rate) }
        if let pitch { try setControl("pitch", pitch) }
        if let volume { try setControl("volume", volume) }
        if let trim { try setControl("trim", trim) }
    }

    /// Waits for the worker's work in progress and ends its thread (deinit does too). A process
    /// must not exit under a plugin's running work: the neural synth's onnxruntime aborts the
    /// process when its static destructors run under an inference.
    public func stopWorker() { worker.stop() }

    public func activate() {
        guard !active else { return }
        lilv_instance_activate(instance)
        active = true
    }

    /// Prepares atom ports for a block: inputs become empty sequences, outputs get their capacity.
    public func prepareAtomPorts() {
        for port in info.ports where port.kind == .atom {
            guard let (buffer, capacity) = atoms[port.index] else { continue }
            if port.isInput {
                var writer = AtomWriter(buffer, capacity: capacity)
                let sequence = writer.beginSequence(urids.spk)
                writer.end(sequence)
            } else {
                // Output: an empty atom whose size is the space the plugin may fill.
                buffer.storeBytes(of: UInt32(capacity - 8), as: UInt32.self)
                buffer.storeBytes(of: urids.map(LV2URI.atomChunk), toByteOffset: 4, as: UInt32.self)
            }
        }
    }

    /// Writes events into an atom input (after `prepareAtomPorts`): `write` appends them with
    /// `frameTime` + an atom each.
    public func writeEvents(to symbol: String, _ write: (inout AtomWriter) -> Void) throws {
        let port = try port(symbol)
        guard port.kind == .atom, port.isInput, let (buffer, capacity) = atoms[port.index] else {
            throw HostError("port '\(symbol)' of <\(info.uri)> is not an atom input")
        }
        var writer = AtomWriter(buffer, capacity: capacity)
        let sequence = writer.beginSequence(urids.spk)
        write(&writer)
        writer.end(sequence)
        if writer.overflowed { throw HostError("events do not fit the \(capacity)-byte buffer of port '\(symbol)'") }
    }

    /// The events a plugin wrote to an atom output during the last `run`.
    public func forEachOutputEvent(_ symbol: String, _ body: (Int64, AtomRef) -> Void) throws {
        let port = try port(symbol)
        guard port.kind == .atom, !port.isInput, let (buffer, _) = atoms[port.index] else {
            throw HostError("port '\(symbol)' of <\(info.uri)> is not an atom output")
        }
        let atom = AtomRef(buffer)
        guard atom.type == urids.spk.atomSequence else { return }
        SequenceRef(buffer).forEachEvent(body)
    }

    public func run(_ frames: Int) {
        precondition(frames <= maxBlock)
        lilv_instance_run(instance, UInt32(frames))
        worker.deliverResponses()
        worker.endRun()
    }

    /// Points an audio port at caller-owned memory (graphs share buffers between nodes).
    public func connect(_ index: UInt32, to buffer: UnsafeMutablePointer<Float>) {
        lilv_instance_connect_port(instance, index, buffer)
    }
}
