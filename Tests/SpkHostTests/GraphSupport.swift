import Foundation
import SpkTestSupport
import XCTest

/// What the graph tests share: spkhost with the staged spk bundles and the third-party plugins
/// Debian installs in /usr/lib/lv2 (scripts/install-deps.sh: swh-lv2, fomp).
enum GraphSupport {
    static let systemLV2 = "/usr/lib/lv2"
    static let swh = "http://plugin.org.uk/swh-plugins/"
    static let amp = swh + "amp"
    static let hardLimiter = swh + "hardLimiter"
    /// A look-ahead limiter that delays by a fixed 8191 frames (its buffer) and reports that latency.
    static let lookaheadLimiter = swh + "lookaheadLimiterConst"
    /// fomp's reverb requires lv2:isLive, which offline rendering does not provide.
    static let liveOnlyReverb = "http://drobilla.net/plugins/fomp/reverb"
    static let graphsDirectory = Fixture.packageRoot.appendingPathComponent("presets/graphs")

    /// LV2_PATH for spkhost: the staged bundles, then any `extra` directories, then the system's.
    static func lv2Path(extra: [String] = []) -> String {
        ([Fixture.lv2Path] + extra + [systemLV2]).joined(separator: ":")
    }

    /// Fails the test (instead of producing puzzling errors later) when a plugin is missing.
    static func requirePlugins(_ uris: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let listed = Fixture.run(Fixture.spkhost, ["plugins", "--json"], environment: ["LV2_PATH": lv2Path()])
        for uri in uris where !listed.stdout.contains("\"\(uri)\"") {
            XCTFail("\(uri) is not installed: run scripts/install-deps.sh (swh-lv2, fomp)", file: file, line: line)
            throw XCTSkip("missing plugin \(uri)")
        }
    }

    @discardableResult
    static func spkhost(_ arguments: [String], extraLV2: [String] = [], environment: [String: String] = [:]) -> Fixture.Result {
        Fixture.run(Fixture.spkhost, arguments, environment: ["LV2_PATH": lv2Path(extra: extraLV2)].merging(environment) { $1 })
    }

    struct Marker: Decodable, Equatable {
        var type: String
        var frame: Int
        var textOffset: Int
        var textLength: Int
        var name: String?
    }

    struct Rendered {
        var signal: Signal
        var markers: [Marker]
        var data: Data
    }

    /// Renders with `spkhost render ARGUMENTS --output ... --markers ...` into `directory`.
    static func render(_ arguments: [String], in directory: URL, extraLV2: [String] = [],
                       file: StaticString = #filePath, line: UInt = #line) throws -> Rendered {
        let name = UUID().uuidString
        let output = directory.appendingPathComponent("\(name).wav"), markers = directory.appendingPathComponent("\(name).json")
        let result = spkhost(["render"] + arguments + ["--output", output.path, "--markers", markers.path], extraLV2: extraLV2)
        XCTAssertEqual(result.status, 0, "spkhost render \(arguments) failed: \(result.stderr)", file: file, line: line)
        guard result.status == 0 else { throw XCTSkip("render failed") }
        return Rendered(signal: try Signal(path: output.path),
                        markers: try JSONDecoder().decode([Marker].self, from: Data(contentsOf: markers)),
                        data: try Data(contentsOf: output))
    }
}

extension Signal {
    var peak: Float { samples.map(abs).max() ?? 0 }
}
