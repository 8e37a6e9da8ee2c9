import CLV2
import Glibc
import SpkProtocol

// The LV2 UI entry points (lv2ui_descriptor): one X11 UI, `urn:spk:ui:window`, for every spk
// synth, driven by the host's idle callback (ui:idleInterface).

enum UIDescriptor {
    static let uri = "urn:spk:ui:window"
    static let parentFeature = "http://lv2plug.in/ns/extensions/ui#parent"
    static let resizeFeature = "http://lv2plug.in/ns/extensions/ui#resize"
    static let idleInterface = "http://lv2plug.in/ns/extensions/ui#idleInterface"

    static let descriptor: UnsafeMutablePointer<LV2UI_Descriptor> = {
        let d = UnsafeMutablePointer<LV2UI_Descriptor>.allocate(capacity: 1)
        d.initialize(to: LV2UI_Descriptor(
            URI: UnsafePointer(strdup(uri)),
            instantiate: { _, pluginURI, _, write, controller, widget, features in
                UIDescriptor.instantiate(pluginURI, write, controller, widget, features)
            },
            cleanup: { handle in
                guard let handle else { return }
                let window = Unmanaged<SpkWindow>.fromOpaque(handle)
                window.takeUnretainedValue().close()
                window.release()
            },
            port_event: { handle, port, size, format, buffer in
                guard let handle, let buffer else { return }
                Unmanaged<SpkWindow>.fromOpaque(handle).takeUnretainedValue().portEvent(port, size: size, format: format, buffer)
            },
            extension_data: { uri in
                guard let uri, strcmp(uri, UIDescriptor.idleInterface) == 0 else { return nil }
                return UnsafeRawPointer(UIDescriptor.idle)
            }))
        return d
    }()

    static let idle: UnsafeMutablePointer<LV2UI_Idle_Interface> = {
        let p = UnsafeMutablePointer<LV2UI_Idle_Interface>.allocate(capacity: 1)
        p.initialize(to: LV2UI_Idle_Interface(idle: { handle in
            guard let handle else { return 1 }
            return Unmanaged<SpkWindow>.fromOpaque(handle).takeUnretainedValue().idle()
        }))
        return p
    }()

    private static func instantiate(_ pluginURI: UnsafePointer<CChar>?, _ write: LV2UI_Write_Function?,
                                    _ controller: LV2UI_Controller?, _ widget: UnsafeMutablePointer<LV2UI_Widget?>?,
                                    _ features: UnsafePointer<UnsafePointer<LV2_Feature>?>?) -> LV2UI_Handle? {
        var map: UnsafePointer<LV2_URID_Map>?
        var parent: UInt?
        var resize: UnsafePointer<LV2UI_Resize>?
        var index = 0
        while let feature = features?[index] {
            index += 1
            switch String(cString: feature.pointee.URI) {
            case LV2URI.uridMap: map = feature.pointee.data.map { UnsafePointer($0.assumingMemoryBound(to: LV2_URID_Map.self)) }
            case parentFeature: parent = feature.pointee.data.map { UInt(bitPattern: $0) }
            case resizeFeature: resize = feature.pointee.data.map { UnsafePointer($0.assumingMemoryBound(to: LV2UI_Resize.self)) }
            default: break
            }
        }
        let plugin = pluginURI.map { String(cString: $0) } ?? "?"
        guard let map, let write, let parent else {
            fputs("spk window (\(plugin)): the host gave no urid:map, write function or ui:parent\n", stderr)
            return nil
        }
        let link = PluginLink(write: write, controller: controller) { uri in
            uri.withCString { map.pointee.map(map.pointee.handle, $0) }
        }
        guard let window = SpkWindow(parent: parent, link: link, resize: resize, title: plugin) else { return nil }
        widget?.pointee = UnsafeMutableRawPointer(bitPattern: window.xWindow)
        return Unmanaged.passRetained(window).toOpaque()
    }
}

@_cdecl("lv2ui_descriptor")
public func lv2ui_descriptor(_ index: UInt32) -> UnsafePointer<LV2UI_Descriptor>? {
    index == 0 ? UnsafePointer(UIDescriptor.descriptor) : nil
}
