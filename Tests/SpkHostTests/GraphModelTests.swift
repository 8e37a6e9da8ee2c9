import Foundation
@testable import LV2Host
import XCTest

/// The graph model on its own: graph files, port references, channel adaptation, running order.
final class GraphModelTests: XCTestCase {
    func testPortReferences() {
        XCTAssertEqual(PortRef(parsing: "eq:left_input"), PortRef(node: "eq", port: "left_input"))
        XCTAssertEqual(PortRef(parsing: "eq"), PortRef(node: "eq"))
        XCTAssertNil(PortRef(parsing: ":x"))
        XCTAssertNil(PortRef(parsing: "eq:"))
        XCTAssertEqual(PortRef(node: "a", port: "b").description, "a:b")
    }

    func testEveryShippedGraphFileReads() throws {
        let directory = GraphSupport.graphsDirectory
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let spec = try GraphSpec.load(path: directory.appendingPathComponent(file).path)
            XCTAssertNotNil(spec.name, file)
            XCTAssertTrue(spec.nodes.contains { GraphSpec.isSynth($0.plugin) }, "\(file) has a voice")
            XCTAssertFalse(spec.outputs.isEmpty, file)
        }
    }

    func testAGraphFileRoundTrips() throws {
        let spec = GraphSpec(name: "x", nodes: [.init(id: "voice", plugin: "urn:spk:synth:espeak-ng"),
                                                .init(id: "gain", plugin: "urn:x:amp", preset: "quiet", controls: ["gain": -6])],
                             connections: [.init(from: PortRef(node: "voice", port: "out"), to: PortRef(node: "gain"))],
                             outputs: [PortRef(node: "gain", port: "output")])
        let data = try JSONEncoder().encode(spec)
        XCTAssertEqual(try GraphSpec.decode(data, source: "test"), spec)
    }

    func testTheEffectChainNamesItsNodesAfterThePlugins() {
        let spec = GraphSpec.chain(synth: "urn:spk:synth:flite", effects: [("http://x.org/p/amp", ["gain": -6]), ("http://x.org/p/amp", [:]),
                                                                           ("urn:x#verb", [:])])
        XCTAssertEqual(spec.nodes.map(\.id), ["voice", "amp", "amp-2", "verb"])
        XCTAssertEqual(spec.nodes[1].controls, ["gain": -6])
        XCTAssertEqual(spec.connections.map(\.description), ["voice -> amp", "amp -> amp-2", "amp-2 -> verb"])
        XCTAssertEqual(spec.outputs, [PortRef(node: "verb")])
    }

    func testChannelsAdaptAsHostsDo() {
        func ports(_ n: Int, input: Bool) -> [PortInfo] {
            (0..<n).map { PortInfo(index: UInt32($0), symbol: "p\($0)", kind: .audio, isInput: input) }
        }
        func pairs(_ m: Int, _ n: Int) -> [String]? {
            ChannelAdapter.connect(ports(m, input: false), ports(n, input: true))?.map { "\($0.output.symbol)>\($0.input.symbol)*\($0.gain)" }
        }
        XCTAssertEqual(pairs(1, 1), ["p0>p0*1.0"])
        XCTAssertEqual(pairs(1, 2), ["p0>p0*1.0", "p0>p1*1.0"], "mono feeds both sides")
        XCTAssertEqual(pairs(2, 1), ["p0>p0*0.5", "p1>p0*0.5"], "stereo is averaged into mono")
        XCTAssertEqual(pairs(2, 2), ["p0>p0*1.0", "p1>p1*1.0"])
        XCTAssertEqual(pairs(2, 4), ["p0>p0*1.0", "p1>p1*1.0", "p0>p2*1.0", "p1>p3*1.0"])
        XCTAssertNil(pairs(2, 3))
        XCTAssertNil(pairs(0, 1))
    }

    func testNodesRunAfterEverythingThatFeedsThem() throws {
        setenv("LV2_PATH", GraphSupport.lv2Path(), 1)
        try GraphSupport.requirePlugins([GraphSupport.amp])
        // Written out of order: the mix first, the voice last.
        let spec = try GraphSpec.decode(Data("""
        {"nodes": [{"id": "mix", "plugin": "\(GraphSupport.amp)"}, {"id": "left", "plugin": "\(GraphSupport.amp)"},
                   {"id": "right", "plugin": "\(GraphSupport.amp)"}, {"id": "voice", "plugin": "urn:spk:synth:espeak-ng"}],
         "connections": [{"from": "left", "to": "mix"}, {"from": "right", "to": "mix"},
                         {"from": "voice", "to": "left"}, {"from": "voice", "to": "right"}],
         "outputs": ["mix"]}
        """.utf8), source: "diamond")
        let layout = try GraphBuilder.layout(spec, world: LV2World(), sampleRate: 48000, live: false,
                                             engines: ["urn:spk:synth:espeak-ng", "urn:spk:synth:flite"])
        // The voices first (the added one right after), then the two branches, the mix last.
        XCTAssertEqual(layout.nodes.map(\.id), ["voice", "voice.flite", "left", "right", "mix"])
        let mix = layout.nodes.firstIndex { $0.id == "mix" }!
        let feeds = layout.inputs.filter { $0.node == mix }.flatMap(\.feeds).map { layout.nodes[$0.node].id }
        XCTAssertEqual(Set(feeds), ["left", "right"], "two sources summed into one input")
        let left = layout.nodes.firstIndex { $0.id == "left" }!
        let voices = layout.inputs.filter { $0.node == left }.flatMap(\.feeds).map { layout.nodes[$0.node].id }
        XCTAssertEqual(Set(voices), ["voice", "voice.flite"], "the added flite voice speaks where the graph's voice does")
    }
}
