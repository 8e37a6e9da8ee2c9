import CLV2
import CLilv
import Glibc
import LockFree
import Synchronization

/// The LV2 worker a host provides (worker:schedule).
///
/// Offline (`threaded: false`), `schedule_work` runs the plugin's `work` at once, as hosts
/// rendering offline do, so output does not depend on thread timing. Live (`threaded: true`), it
/// copies the request into a ring and wakes a worker thread, which is real-time safe: no lock, no
/// allocation. Either way responses come back through a ring and are handed to `work_response`
/// after the block's `run`.
final class HostWorker: @unchecked Sendable {
    let schedule: UnsafeMutablePointer<LV2_Worker_Schedule>
    private var interface: UnsafePointer<LV2_Worker_Interface>?
    private var handle: LV2_Handle?
    private let requests = RecordRing(capacityPowerOfTwo: 1 << 16)
    private let responses = RecordRing(capacityPowerOfTwo: 1 << 16)
    private let threaded: Bool
    private let wake: UnsafeMutablePointer<sem_t>
    private let running = Atomic<Bool>(false)
    private var thread: pthread_t?
    private var workingInline = false

    init(threaded: Bool) {
        self.threaded = threaded
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
        schedule = .allocate(capacity: 1)
        schedule.initialize(to: LV2_Worker_Schedule(handle: nil, schedule_work: { handle, size, data in
            guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
            return Unmanaged<HostWorker>.fromOpaque(handle).takeUnretainedValue().scheduleWork(size: Int(size), data: data)
        }))
        schedule.pointee.handle = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        stop()
        sem_destroy(wake)
        wake.deallocate()
        schedule.deallocate()
    }

    func attach(instance: UnsafeMutablePointer<LilvInstance>) {
        handle = lilv_instance_get_handle(instance)
        interface = lilv_instance_get_extension_data(instance, "http://lv2plug.in/ns/ext/worker#interface")?
            .assumingMemoryBound(to: LV2_Worker_Interface.self)
        if threaded && interface != nil { start() }
    }

    private func scheduleWork(size: Int, data: UnsafeRawPointer?) -> LV2_Worker_Status {
        guard interface != nil else { return LV2_WORKER_ERR_UNKNOWN }
        if !threaded {
            guard !workingInline else { return LV2_WORKER_ERR_UNKNOWN }
            workingInline = true
            defer { workingInline = false }
            return callWork(size: size, data: data)
        }
        let queued = requests.write(length: size) { p in
            if let data, size > 0 { p.copyMemory(from: data, byteCount: size) }
        }
        guard queued else { return LV2_WORKER_ERR_NO_SPACE }
        sem_post(wake)
        return LV2_WORKER_SUCCESS
    }

    private func callWork(size: Int, data: UnsafeRawPointer?) -> LV2_Worker_Status {
        guard let work = interface?.pointee.work else { return LV2_WORKER_ERR_UNKNOWN }
        return work(handle, { respondHandle, size, data in
            guard let respondHandle else { return LV2_WORKER_ERR_UNKNOWN }
            let worker = Unmanaged<HostWorker>.fromOpaque(respondHandle).takeUnretainedValue()
            let ok = worker.responses.write(length: Int(size)) { p in
                if let data, size > 0 { p.copyMemory(from: data, byteCount: Int(size)) }
            }
            return ok ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
        }, Unmanaged.passUnretained(self).toOpaque(), UInt32(size), data)
    }

    /// Hands responses to the plugin; call after each `run`, on the audio thread.
    func deliverResponses() {
        guard let respond = interface?.pointee.work_response else {
            while responses.peek() != nil { responses.pop() }
            return
        }
        while let response = responses.peek() {
            _ = respond(handle, UInt32(response.count), response.baseAddress)
            responses.pop()
        }
    }

    func endRun() {
        _ = interface?.pointee.end_run?(handle)
    }

    // MARK: the worker thread

    private func start() {
        running.store(true, ordering: .releasing)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            let worker = Unmanaged<HostWorker>.fromOpaque(context!).takeRetainedValue()
            worker.loop()
            return nil
        }, context)
        if status == 0 {
            self.thread = thread
        } else {
            Unmanaged<HostWorker>.fromOpaque(context).release()
            running.store(false, ordering: .releasing)
        }
    }

    private func loop() {
        while true {
            sem_wait(wake)
            guard running.load(ordering: .acquiring) else { return }
            while let request = requests.peek() {
                _ = callWork(size: request.count, data: request.baseAddress)
                requests.pop()
            }
        }
    }

    /// Stops the worker thread (after the plugin's last `run`).
    func stop() {
        guard let thread else { return }
        self.thread = nil
        running.store(false, ordering: .releasing)
        sem_post(wake)
        pthread_join(thread, nil)
    }
}
