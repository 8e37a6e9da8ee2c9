import CLV2
import Glibc
import SpeechEngines
import SpkProtocol
import Synchronization

/// What makes one synth plugin: its URI, its engine and its default voice. The plugin library's
/// `lv2_descriptor` hands its list of these to `SynthPluginDescriptor.descriptor`.
public struct SynthPluginDefinition: Sendable {
    public let uri: String
    public let defaultVoice: String
    public let makeEngine: @Sendable () throws -> SpeechEngine
    public init(uri: String, defaultVoice: String, makeEngine: @escaping @Sendable () throws -> SpeechEngine) {
        self.uri = uri
        self.defaultVoice = defaultVoice
        self.makeEngine = makeEngine
    }
}

public enum SynthPluginDescriptor {
    /// The library's plugins, their descriptors made once, in the library's order. The C
    /// callbacks below cannot capture context: `instantiate` finds its definition by the
    /// descriptor the host passes it.
    nonisolated(unsafe) private static var plugins: [(descriptor: UnsafeMutablePointer<LV2_Descriptor>, definition: SynthPluginDefinition)] = []
    private static let lock = Mutex(())

    /// The LV2 descriptor at `index` among `definitions` (nil past the last).
    public static func descriptor(index: UInt32, of definitions: [SynthPluginDefinition]) -> UnsafePointer<LV2_Descriptor>? {
        lock.withLock { _ in
            if plugins.isEmpty { plugins = definitions.map { (makeDescriptor(uri: $0.uri), $0) } }
            return Int(index) < plugins.count ? UnsafePointer(plugins[Int(index)].descriptor) : nil
        }
    }

    private static func makeDescriptor(uri: String) -> UnsafeMutablePointer<LV2_Descriptor> {
        let d = UnsafeMutablePointer<LV2_Descriptor>.allocate(capacity: 1)
        d.initialize(to: LV2_Descriptor(
            URI: UnsafePointer(strdup(uri)),
            instantiate: { descriptor, rate, _, features in SynthPluginDescriptor.instantiate(descriptor, rate: rate, features: features) },
            connect_port: { handle, port, data in SynthPluginDescriptor.instance(handle).connect(port, data) },
            activate: nil,
            run: { handle, count in SynthPluginDescriptor.instance(handle).run(count) },
            deactivate: nil,
            cleanup: { handle in if let handle { Unmanaged<SynthInstance>.fromOpaque(handle).release() } },
            extension_data: { uri in SynthPluginDescriptor.extensionData(uri) }))
        return d
    }

    @inline(__always) private static func instance(_ handle: LV2_Handle?) -> SynthInstance {
        Unmanaged<SynthInstance>.fromOpaque(handle!).takeUnretainedValue()
    }

    private static func instantiate(_ descriptor: UnsafePointer<LV2_Descriptor>?, rate: Double,
                                    features: UnsafePointer<UnsafePointer<LV2_Feature>?>?) -> LV2_Handle? {
        let definition = lock.withLock { _ in plugins.first { UnsafePointer($0.descriptor) == descriptor }?.definition }
        guard let definition else { return nil }
        var map: UnsafePointer<LV2_URID_Map>?
        var schedule: UnsafeMutablePointer<LV2_Worker_Schedule>?
        var logFeature: UnsafeMutablePointer<LV2_Log_Log>?
        var index = 0
        while let feature = features?[index] {
            index += 1
            let uri = String(cString: feature.pointee.URI)
            switch uri {
            case LV2URI.uridMap: map = feature.pointee.data.map { UnsafePointer($0.assumingMemoryBound(to: LV2_URID_Map.self)) }
            case LV2URI.workerSchedule: schedule = feature.pointee.data?.assumingMemoryBound(to: LV2_Worker_Schedule.self)
            case LV2URI.log: logFeature = feature.pointee.data?.assumingMemoryBound(to: LV2_Log_Log.self)
            default: break
            }
        }
        guard let map else {
            fputs("\(definition.uri): the host does not provide urid:map\n", stderr)
            return nil
        }
        let log = PluginLog(log: logFeature) { uri in uri.withCString { map.pointee.map(map.pointee.handle, $0) } }
        do {
            let engine = try definition.makeEngine()
            if schedule == nil { log.warning("\(definition.uri): no worker from the host; synthesis runs in run()") }
            let instance = SynthInstance(engine: engine, defaultVoice: definition.defaultVoice, sampleRate: rate,
                                         map: map, schedule: schedule, log: log)
            return Unmanaged.passRetained(instance).toOpaque()
        } catch {
            log.error("\(definition.uri): \(error)")
            return nil
        }
    }

    private static let workerInterface: UnsafeMutablePointer<LV2_Worker_Interface> = {
        let p = UnsafeMutablePointer<LV2_Worker_Interface>.allocate(capacity: 1)
        p.initialize(to: LV2_Worker_Interface(
            work: { handle, _, _, _, _ in
                SynthPluginDescriptor.instance(handle).work()
                return LV2_WORKER_SUCCESS
            },
            work_response: { _, _, _ in LV2_WORKER_SUCCESS },
            end_run: nil))
        return p
    }()

    private static let stateInterface: UnsafeMutablePointer<LV2_State_Interface> = {
        let p = UnsafeMutablePointer<LV2_State_Interface>.allocate(capacity: 1)
        p.initialize(to: LV2_State_Interface(
            save: { handle, store, storeHandle, _, _ in
                guard let store else { return LV2_STATE_ERR_UNKNOWN }
                return SynthPluginDescriptor.instance(handle).save(store, storeHandle)
            },
            restore: { handle, retrieve, retrieveHandle, _, _ in
                guard let retrieve else { return LV2_STATE_ERR_UNKNOWN }
                return SynthPluginDescriptor.instance(handle).restore(retrieve, retrieveHandle)
            }))
        return p
    }()

    private static func extensionData(_ uri: UnsafePointer<CChar>?) -> UnsafeRawPointer? {
        guard let uri else { return nil }
        if strcmp(uri, LV2URI.workerInterface) == 0 { return UnsafeRawPointer(workerInterface) }
        if strcmp(uri, LV2URI.stateInterface) == 0 { return UnsafeRawPointer(stateInterface) }
        return nil
    }
}
