import Foundation
import NeuralVoices
import XCTest

/// The installed sherpa-onnx library asks onnxruntime for VERS_1.32.0 (the dynamic loader
/// checks the name and its hash when the voice loads, which the install tests do); here the
/// rewrite itself: it undoes exactly, and refuses what it cannot do.
final class ELFVersionNeedTests: XCTestCase {
    func testTheRewriteRoundTripsAndRefusesWhatItCannotDo() throws {
        try NeuralFixture.requireInstalled()
        let runtime = NeuralCatalog.runtime
        let path = NeuralFixture.installedNeural + "/runtime/" + runtime.directoryName + "/" + runtime.mainLibrary
        let installed = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let (shipped, used) = runtime.onnxruntimeVersions
        let original = try ELFVersionNeed.replace(used, with: shipped, dependency: "libonnxruntime.so", in: installed)
        XCTAssertNotEqual(original, installed)
        XCTAssertEqual(original.count, installed.count)
        XCTAssertEqual(try ELFVersionNeed.replace(shipped, with: used, dependency: "libonnxruntime.so", in: original), installed)
        // Needs it does not have, names of another length, and files that are no library.
        XCTAssertThrowsError(try ELFVersionNeed.replace(shipped, with: used, dependency: "libonnxruntime.so", in: installed))
        XCTAssertThrowsError(try ELFVersionNeed.replace(used, with: shipped, dependency: "libother.so", in: installed))
        XCTAssertThrowsError(try ELFVersionNeed.replace(used, with: "VERS_1.4", dependency: "libonnxruntime.so", in: installed))
        XCTAssertThrowsError(try ELFVersionNeed.replace(used, with: shipped, dependency: "libonnxruntime.so", in: Array("not a library".utf8)))
        XCTAssertThrowsError(try ELFVersionNeed.replace(used, with: shipped, dependency: "libonnxruntime.so", in: Array(installed.prefix(200))))
    }
}
