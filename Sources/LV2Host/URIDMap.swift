import CLV2
import Glibc
import SpkProtocol
import Synchronization

/// The host's URI <-> URID table, offered to plugins as urid:map and urid:unmap.
/// Plugins may map from any non-real-time thread, so the table is locked.
public final class URIDMap: @unchecked Sendable {
    private struct Table {
        var ids: [String: UInt32] = [:]
        var uris: [UnsafeMutablePointer<CChar>] = []
    }
    private let table = Mutex(Table())
    let mapFeature: UnsafeMutablePointer<LV2_URID_Map>
    let unmapFeature: UnsafeMutablePointer<LV2_URID_Unmap>

    public init() {
        mapFeature = .allocate(capacity: 1)
        unmapFeature = .allocate(capacity: 1)
        let handle = Unmanaged.passUnretained(self).toOpaque()
        mapFeature.initialize(to: LV2_URID_Map(handle: handle, map: { handle, uri in
            guard let handle, let uri else { return 0 }
            return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().map(String(cString: uri))
        }))
        unmapFeature.initialize(to: LV2_URID_Unmap(handle: handle, unmap: { handle, urid in
            guard let handle else { return nil }
            return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().unmapPointer(urid)
        }))
    }

    deinit {
        table.withLock { t in t.uris.forEach { free($0) } }
        mapFeature.deallocate()
        unmapFeature.deallocate()
    }

    public func map(_ uri: String) -> UInt32 {
        table.withLock { t in
            if let id = t.ids[uri] { return id }
            t.uris.append(strdup(uri))
            let id = UInt32(t.uris.count)
            t.ids[uri] = id
            return id
        }
    }

    public func unmap(_ urid: UInt32) -> String? {
        unmapPointer(urid).map { String(cString: $0) }
    }

    private func unmapPointer(_ urid: UInt32) -> UnsafePointer<CChar>? {
        table.withLock { t in urid >= 1 && Int(urid) <= t.uris.count ? UnsafePointer(t.uris[Int(urid) - 1]) : nil }
    }

    public lazy var spk = SpkURIDs(map: map)
}
