import Foundation
import SpkTestSupport
import XCTest

/// The graphs shipped in presets/graphs/: each renders, the same for any block size, with the
/// markers of the dry voice, and sounds different from it.
final class GraphPresetTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = Fixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    let request = #"<speak>Good evening. <break time="300ms"/>The train to Cambridge <mark name="m"/>departs from platform four.</speak>"#

    var graphs: [URL] {
        let files = (try? FileManager.default.contentsOfDirectory(at: GraphSupport.graphsDirectory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    func testThereAreGraphsToTry() {
        XCTAssertGreaterThanOrEqual(graphs.count, 2, "presets/graphs/ holds example graphs")
        for name in ["announcer", "hall"] {
            XCTAssertTrue(graphs.contains { $0.lastPathComponent == "\(name).json" }, "presets/graphs/\(name).json")
        }
    }

    func testEveryGraphRendersIdenticallyForBlocks64And4096() throws {
        let dry = try GraphSupport.render(["--ssml", request], in: dir)
        for graph in graphs {
            let name = graph.lastPathComponent
            let small = try GraphSupport.render(["--ssml", request, "--graph", graph.path, "--block", "64"], in: dir)
            let large = try GraphSupport.render(["--ssml", request, "--graph", graph.path, "--block", "4096"], in: dir)
            XCTAssertEqual(small.data, large.data, "\(name): block 64 and 4096 differ")
            XCTAssertEqual(small.markers, large.markers, name)
            XCTAssertEqual(small.markers, dry.markers, "\(name): markers stay where the dry voice has them")
            XCTAssertGreaterThanOrEqual(small.signal.samples.count, dry.signal.samples.count, name)
            XCTAssertGreaterThan(small.signal.rms(), 0.02, "\(name) is audible")
            XCTAssertLessThan(small.signal.peak, 0.99, "\(name) does not clip")
            let difference = zip(small.signal.samples, dry.signal.samples).map { Double($0 - $1) * Double($0 - $1) }.reduce(0, +)
            XCTAssertGreaterThan((difference / Double(dry.signal.samples.count)).squareRoot(), 0.01, "\(name) changes the sound")
        }
    }

    func testTheHallLeavesATailAfterTheVoice() throws {
        let hall = GraphSupport.graphsDirectory.appendingPathComponent("hall.json")
        let dry = try GraphSupport.render(["--ssml", request], in: dir)
        let wet = try GraphSupport.render(["--ssml", request, "--graph", hall.path], in: dir)
        let extra = Double(wet.signal.samples.count - dry.signal.samples.count) / 48000
        XCTAssertGreaterThan(extra, 0.8, "a reverb tail of about two seconds")
        XCTAssertLessThan(extra, 6)
        let end = dry.signal.samples.count
        XCTAssertGreaterThan(wet.signal.rms(end..<end + 24000), 0.001, "the hall still sounds after the voice")
    }

    func testTheAnnouncerIsEvenerAndBrighterThanTheDryVoice() throws {
        let announcer = GraphSupport.graphsDirectory.appendingPathComponent("announcer.json")
        let dry = try GraphSupport.render(["--ssml", request], in: dir)
        let wet = try GraphSupport.render(["--ssml", request, "--graph", announcer.path], in: dir)
        // Compression: louder on average for a similar peak.
        XCTAssertGreaterThan(wet.signal.rms() / Double(wet.signal.peak), dry.signal.rms() / Double(dry.signal.peak) * 1.2)
    }
}
