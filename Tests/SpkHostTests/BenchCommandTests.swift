import Foundation
import XCTest

/// `spkhost bench --json`: the fields scripts read. No timing is judged here (figures belong in
/// BENCHMARKS.md); only that every field is there, and that run() allocated nothing.
final class BenchCommandTests: XCTestCase {
    func testJSONHasEveryFieldAndRunAllocatesNothing() throws {
        _ = Fixture.lv2Path
        let result = Fixture.run(Fixture.spkhost, ["bench", "--block", "1024", "--requests", "2", "--renders", "1", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
        XCTAssertEqual(rows.map { $0["text"] as? String }, ["word", "sentence", "paragraph"])
        for row in rows {
            XCTAssertEqual(row["voice"] as? String, "spk.espeak-ng.en-us")
            XCTAssertEqual(row["block"] as? Int, 1024)
            for field in ["startedBlocks", "firstFrameBlocks", "firstAudioBlocks", "firstAudioMs", "runCostShare"] {
                let percentiles = try XCTUnwrap(row[field] as? [String: Double], "\(field) in \(row)")
                XCTAssertEqual(Set(percentiles.keys), ["p50", "p99", "max"], field)
            }
            XCTAssertGreaterThan(try XCTUnwrap(row["throughputRatio"] as? Double), 0)
            XCTAssertGreaterThan(try XCTUnwrap(row["throughputRatioNativeRate"] as? Double), 0)
            XCTAssertGreaterThan(try XCTUnwrap(row["throughputRatioResampledPeer"] as? Double), 0)
            let seconds = try XCTUnwrap(row["throughputSeconds"] as? [String: Double])
            XCTAssertEqual(Set(seconds.keys), ["plugin", "pluginNativeRate", "engine", "enginePlusResampling"])
            XCTAssertGreaterThan(try XCTUnwrap(seconds["enginePlusResampling"]), try XCTUnwrap(seconds["engine"]), "resampling costs something")
            // The malloc interposer sits beside spkhost in the build directory: bench counts with it.
            XCTAssertEqual(row["runAllocations"] as? Int, 0, "allocations on the run() thread")
            XCTAssertGreaterThan(try XCTUnwrap(row["runCalls"] as? Int), 0)
        }
    }

    func testWithoutRendersThereIsNoThroughput() throws {
        _ = Fixture.lv2Path
        let result = Fixture.run(Fixture.spkhost, ["bench", "--block", "1024", "--requests", "1", "--renders", "0", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
        XCTAssertFalse(rows.isEmpty)
        XCTAssertTrue(rows.allSatisfy { $0["throughputRatio"] == nil || $0["throughputRatio"] is NSNull })
    }
}
