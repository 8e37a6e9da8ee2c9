import CLV2
import Glibc
import SpeechEngines
import SpkProtocol

/// What makes one synth plugin: its URI, its engine and its default voice. Each plugin library
/// is a thin `lv2_descriptor` that hands one of these to `SynthPluginDescriptor.descriptor`.
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
    // One definition per loaded library: the C callbacks below cannot capture context.
    nonisolated(unsafe) private static var definition: SynthPluginDefinition?
    nonisolated(unsafe) private static var descriptor: UnsafeMutablePointer<LV2_Descriptor>?

    /// The LV2 descriptor at `index` (0 is the only one).
    public static func descriptor(index: UInt32, definition: SynthPluginDefinition) -> UnsafePointer<LV2_Descriptor>? {
        guard index == 0 else { return nil }
        if let descriptor { return UnsafePointer(descriptor) }
        self.definition = definition
        let d = UnsafeMutablePointer<LV2_Descriptor>.allocate(capacity: 1)
        d.initialize(to: LV2_Descriptor(
            URI: UnsafePointer(strdup(definition.uri)),
            instantiate: { _, rate, _, features in SynthPluginDescriptor.instantiate(rate: rate, features: features) },
            connect_port: { handle, port, data in SynthPluginDescriptor.instance(handle).connect(port, data) },
            activate: nil,
            run: { handle, count in SynthPluginDescriptor.instance(handle).run(count) },
            deactivate: nil,
            cleanup: { handle in if let handle { Unmanaged<SynthInstance>.fromOpaque(handle).release() } },
            extension_data: { uri in SynthPluginDescriptor.extensionData(uri) }))
        descriptor = d
        return UnsafePointer(d)
    }

    @inline(__always) private static func instance(_ handle: LV2_Handle?) -> SynthInstance {
        Unmanaged<SynthInstance>.fromOpaque(handle!).takeUnretainedValue()
    }

    private static func instantiate(rate: Double, features: UnsafePointer<UnsafePointer<LV2_Feature>?>?) -> LV2_Handle? {
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
