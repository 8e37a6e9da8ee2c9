import Foundation
import XCTest

/// The LV2 real-time rules, counted: not one allocation on the thread that calls run().
final class RealTimeTests: XCTestCase {
    func testRunAllocatesNothing() {
        let interposer = Fixture.productsDirectory.appendingPathComponent("libMallocInterposerSwift.so").path
        let check = Fixture.productsDirectory.appendingPathComponent("spk-rt-check").path
        for block in ["64", "1024"] {
            let result = Fixture.run(check, ["urn:spk:synth:espeak-ng", block],
                                     environment: ["LV2_PATH": Fixture.lv2Path, "LD_PRELOAD": interposer])
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
            XCTAssertTrue(result.stdout.contains("allocations on the run() thread: 0"), result.stdout + result.stderr)
        }
    }
}
