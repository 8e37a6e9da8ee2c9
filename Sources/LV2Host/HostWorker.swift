import CLV2
import CLilv

/// The LV2 worker as offline hosts provide it: `schedule_work` runs the plugin's `work` at
/// once; responses are handed back through `work_response` after the block's `run`.
final class HostWorker {
    let schedule: UnsafeMutablePointer<LV2_Worker_Schedule>
    private var interface: UnsafePointer<LV2_Worker_Interface>?
    private var handle: LV2_Handle?
    private var responses: [[UInt8]] = []
    private var working = false

    init() {
        schedule = .allocate(capacity: 1)
        schedule.initialize(to: LV2_Worker_Schedule(handle: nil, schedule_work: { handle, size, data in
            guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
            return Unmanaged<HostWorker>.fromOpaque(handle).takeUnretainedValue().work(size: size, data: data)
        }))
        schedule.pointee.handle = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit { schedule.deallocate() }

    func attach(instance: UnsafeMutablePointer<LilvInstance>) {
        handle = lilv_instance_get_handle(instance)
        interface = lilv_instance_get_extension_data(instance, "http://lv2plug.in/ns/ext/worker#interface")?
            .assumingMemoryBound(to: LV2_Worker_Interface.self)
    }

    private func work(size: UInt32, data: UnsafeRawPointer?) -> LV2_Worker_Status {
        guard let interface, let work = interface.pointee.work, !working else { return LV2_WORKER_ERR_UNKNOWN }
        working = true
        defer { working = false }
        let me = Unmanaged.passUnretained(self).toOpaque()
        return work(handle, { respondHandle, size, data in
            guard let respondHandle, let data else { return LV2_WORKER_ERR_UNKNOWN }
            let worker = Unmanaged<HostWorker>.fromOpaque(respondHandle).takeUnretainedValue()
            worker.responses.append(Array(UnsafeRawBufferPointer(start: data, count: Int(size))))
            return LV2_WORKER_SUCCESS
        }, me, size, data)
    }

    func deliverResponses() {
        guard !responses.isEmpty, let respond = interface?.pointee.work_response else { return }
        let pending = responses
        responses.removeAll()
        for response in pending {
            _ = response.withUnsafeBytes { respond(handle, UInt32($0.count), $0.baseAddress) }
        }
    }

    func endRun() {
        _ = interface?.pointee.end_run?(handle)
    }
}
