/// Port indices, in the order of shared/DESIGN.md and the bundles' .ttl files.
enum PortIndex: UInt32 {
    case control = 0, notify, out, rate, pitch, volume, trim
}

/// Control port ranges (DESIGN.md): rate and pitch are multipliers, volume a gain.
enum ControlRange {
    static let rate: ClosedRange<Float> = 0.25...4
    static let pitch: ClosedRange<Float> = 0.5...2
    static let volume: ClosedRange<Float> = 0...1
}
