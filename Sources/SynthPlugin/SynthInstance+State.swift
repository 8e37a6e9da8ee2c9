import CLV2
import SpkProtocol

// LV2 state: `spk:voice` and `spk:text`, so sessions and presets keep them.

extension SynthInstance {
    /// May run while run() does: it reads the sequence-locked copies run() keeps.
    func save(_ store: LV2_State_Store_Function, _ handle: LV2_State_Handle?) -> LV2_State_Status {
        let flags = LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue
        // An unset voice or text saves nothing: hosts would restore "" and warn about it.
        for (key, value) in [(urids.voice, voice.load()), (urids.text, text.load())] where !value.isEmpty {
            var bytes = value
            bytes.append(0)  // atom:String values are NUL-terminated
            let status = bytes.withUnsafeBytes { store(handle, key, $0.baseAddress, $0.count, urids.atomString, flags) }
            if status != LV2_STATE_SUCCESS { return status }
        }
        return LV2_STATE_SUCCESS
    }

    /// Runs with nothing else of this instance running (LV2's instantiation class).
    func restore(_ retrieve: LV2_State_Retrieve_Function, _ handle: LV2_State_Handle?) -> LV2_State_Status {
        func string(_ key: UInt32) -> UnsafeBufferPointer<UInt8>? {
            var size = 0, type: UInt32 = 0, flags: UInt32 = 0
            guard let value = retrieve(handle, key, &size, &type, &flags), type == urids.atomString else { return nil }
            var n = size
            let bytes = value.assumingMemoryBound(to: UInt8.self)
            while n > 0 && bytes[n - 1] == 0 { n -= 1 }
            return UnsafeBufferPointer(start: bytes, count: n)
        }
        if let restored = string(urids.text), !text.store(restored) {
            log.warning("spk: restored spk:text is longer than \(text.capacity) bytes; kept the previous text")
        }
        if let restored = string(urids.voice), !restored.isEmpty {
            let identifier = String(decoding: restored, as: UTF8.self)
            if worker.restoreDefaultVoice(identifier) {
                voice.store(restored)
            } else {
                log.warning("spk: restored voice '\(identifier)' is not installed; kept \(worker.defaultVoice)")
            }
        }
        announceParameters = true
        return LV2_STATE_SUCCESS
    }
}
