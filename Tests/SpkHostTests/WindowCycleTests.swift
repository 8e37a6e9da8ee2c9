import CLV2
import Foundation
import SpkProtocol
import XCTest

/// The plugin window opened and closed 100 times in one process, as a host does when a person
/// opens and closes it: a small host here, dlopen'ing the staged spk_ui.so and calling its LV2 UI
/// entry points directly (instantiate into a parent window, port events, idle, cleanup). Its
/// resident memory stays flat, and the window shows what the events say each time.
final class WindowCycleTests: XCTestCase {
    func testOpeningAndClosingTheWindowAHundredTimesLeaksNothingThatGrows() throws {
        let x = try XServer()
        defer { x.stop() }
        let dir = Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("trace")
        let root = try XCTUnwrap(x.run("xwininfo", ["-root"]).stdout.split(separator: "\n")
            .first { $0.contains("Window id:") }.flatMap { $0.split(separator: " ").first { $0.hasPrefix("0x") } })
        let parent = try XCTUnwrap(UInt(root.dropFirst(2), radix: 16))

        let previous = (getenv("DISPLAY").map { String(cString: $0) }, getenv("SPK_UI_TRACE").map { String(cString: $0) })
        setenv("DISPLAY", x.display, 1)
        setenv("SPK_UI_TRACE", trace.path, 1)
        defer {
            if let display = previous.0 { setenv("DISPLAY", display, 1) } else { unsetenv("DISPLAY") }
            if let hook = previous.1 { setenv("SPK_UI_TRACE", hook, 1) } else { unsetenv("SPK_UI_TRACE") }
        }

        let library = try XCTUnwrap(dlopen(Fixture.lv2Path + "/spk.lv2/spk_ui.so", RTLD_NOW), String(cString: dlerror()))
        let entry = unsafeBitCast(try XCTUnwrap(dlsym(library, "lv2ui_descriptor")),
                                  to: (@convention(c) (UInt32) -> UnsafePointer<LV2UI_Descriptor>?).self)
        let descriptor = try XCTUnwrap(entry(0))
        XCTAssertEqual(String(cString: descriptor.pointee.URI), "urn:spk:ui:window")
        XCTAssertNil(entry(1))
        let idleData = try XCTUnwrap(descriptor.pointee.extension_data?("http://lv2plug.in/ns/extensions/ui#idleInterface"))
        let idle = try XCTUnwrap(idleData.assumingMemoryBound(to: LV2UI_Idle_Interface.self).pointee.idle)

        let host = CycleHost()
        let u = SpkURIDs(map: CycleHost.map)
        let eventTransfer = CycleHost.map("http://lv2plug.in/ns/ext/atom#eventTransfer")
        var features: [LV2_Feature] = []
        let mapURI = strdup(LV2URI.uridMap)!, parentURI = strdup("http://lv2plug.in/ns/extensions/ui#parent")!
        defer { free(mapURI); free(parentURI) }
        features.append(LV2_Feature(URI: mapURI, data: UnsafeMutableRawPointer(host.map)))
        features.append(LV2_Feature(URI: parentURI, data: UnsafeMutableRawPointer(bitPattern: parent)))
        let featurePointers = UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>.allocate(capacity: 3)
        let featureStorage = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 2)
        featureStorage.initialize(from: features, count: 2)
        featurePointers[0] = UnsafePointer(featureStorage); featurePointers[1] = UnsafePointer(featureStorage + 1); featurePointers[2] = nil
        defer { featurePointers.deallocate(); featureStorage.deallocate() }

        /// Events from the plugin, as a host forwards them from notify.
        func send(_ handle: LV2UI_Handle, _ write: (inout AtomWriter) -> Void) {
            var bytes = [UInt8](repeating: 0, count: 8192)
            bytes.withUnsafeMutableBytes { raw in
                var w = AtomWriter(raw.baseAddress!, capacity: raw.count)
                write(&w)
                descriptor.pointee.port_event?(handle, 1, UInt32(w.offset), eventTransfer, raw.baseAddress)
            }
        }
        let voices = [Voice(identifier: "spk.test.one", name: "One", primaryLanguages: ["en-US"], supportedLanguages: ["en"], plugin: ""),
                      Voice(identifier: "spk.test.two", name: "Two", primaryLanguages: ["de-DE"], supportedLanguages: ["de"], quality: .enhanced, plugin: "")]

        var cycles = 0
        func cycle() {
            cycles += 1
            var widget: LV2UI_Widget?
            guard let handle = descriptor.pointee.instantiate?(descriptor, "urn:spk:synth:espeak-ng", Fixture.lv2Path + "/spk.lv2/",
                                                               CycleHost.write, Unmanaged.passUnretained(host).toOpaque(),
                                                               &widget, featurePointers) else {
                return XCTFail("instantiate failed in cycle \(cycles)")
            }
            XCTAssertNotNil(widget, "the window is the widget")
            for _ in 0..<3 { _ = idle(handle) }
            send(handle) { $0.voiceList(voices, u) }
            send(handle) { $0.patchSet(property: u.text, string: "Hello from the load test.", u) }
            send(handle) { $0.patchSet(property: u.voice, string: "spk.test.two", u) }
            send(handle) { $0.requestEvent(u.started, request: 7, u) }
            send(handle) { $0.marker(SpkEvent.Marker(request: 7, type: .word, textOffset: 6, textLength: 4), u) }
            for _ in 0..<3 { _ = idle(handle) }
            descriptor.pointee.cleanup?(handle)
        }

        for _ in 0..<10 { cycle() }     // warm up: fonts, caches, the Swift runtime's first uses
        let before = residentBytes()
        for _ in 0..<100 { cycle() }
        let after = residentBytes()
        print("window cycles: RSS after 10 \(before / 1024) KiB, after 110 \(after / 1024) KiB")
        XCTAssertLessThan(after - before, 512 << 10, "RSS grew \((after - before) / 1024) KiB over 100 open/close cycles")

        // Each time: the window asked for the voice list and the parameters, and showed the
        // text, the voice and the lit word the events carried.
        XCTAssertEqual(host.written.filter { $0 == "patch:Get spk:voices" }.count, 110)
        XCTAssertEqual(host.written.filter { $0 == "patch:Get" }.count, 110)
        let shown = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        XCTAssertEqual(shown.filter { $0 == "lit 6 4 from" }.count, 110, "\(shown.prefix(12))")
        XCTAssertEqual(shown.filter { $0 == "text Hello from the load test." }.count, 110)
        XCTAssertEqual(shown.filter { $0 == "voice-set spk.test.two" }.count, 110)
        XCTAssertEqual(shown.filter { $0 == "close" }.count, 110)
    }

    private func residentBytes() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// The test host's side: a URID map and the write function, which reads back what the window
/// sent to the plugin.
final class CycleHost {
    nonisolated(unsafe) static var uris: [String: UInt32] = [:]
    static func map(_ uri: String) -> UInt32 {
        if let id = uris[uri] { return id }
        let id = UInt32(uris.count + 1)
        uris[uri] = id
        return id
    }

    let map: UnsafeMutablePointer<LV2_URID_Map> = {
        let p = UnsafeMutablePointer<LV2_URID_Map>.allocate(capacity: 1)
        p.initialize(to: LV2_URID_Map(handle: nil, map: { _, uri in uri.map { CycleHost.map(String(cString: $0)) } ?? 0 }))
        return p
    }()

    var written: [String] = []

    static let write: LV2UI_Write_Function = { controller, port, size, format, buffer in
        guard let controller, let buffer else { return }
        let host = Unmanaged<CycleHost>.fromOpaque(controller).takeUnretainedValue()
        let u = SpkURIDs(map: CycleHost.map)
        let atom = AtomRef(buffer)
        guard port == 0, format == CycleHost.map("http://lv2plug.in/ns/ext/atom#eventTransfer"), atom.totalSize <= Int(size),
              let object = atom.object(u) else { return host.written.append("?") }
        if object.otype == u.patchGet {
            host.written.append(object[u.patchProperty]?.urid(u) == u.voices ? "patch:Get spk:voices" : "patch:Get")
        } else {
            host.written.append("other")
        }
    }

    deinit { map.deallocate() }
}
