// swift-tools-version:6.0
// spk: speech synthesizers as real-time LV2 plugins, and the host that drives them.
import PackageDescription

// Plugins are loaded into hosts that may free and reload them: keep the Swift runtime mapped
// (-z nodelete), or a host that unloads the instance crashes later inside the runtime.
let pluginLinkerSettings: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "nodelete"])]

let package = Package(
    name: "spk",
    products: [
        .executable(name: "spkhost", targets: ["spkhost"]),
        .executable(name: "sd_spk", targets: ["sd_spk"]),
        // Every synth plugin, in one library: plugins/spk.lv2's spk.so (see Sources/SpkPlugins).
        .library(name: "spk", type: .dynamic, targets: ["SpkPlugins"]),
        // The plugin window, an LV2 X11 UI for every synth: plugins/spk.lv2's spk_ui.so.
        .library(name: "spk_ui", type: .dynamic, targets: ["SpkWindow"]),
        .library(name: "NeuralVoices", targets: ["NeuralVoices"]),
        .library(name: "SSML", targets: ["SSML"]),
        .library(name: "LV2Host", targets: ["LV2Host"]),
        .library(name: "SynthPlugin", targets: ["SynthPlugin"]),
        .library(name: "SpkProtocol", targets: ["SpkProtocol"]),
        .library(name: "SpkAudio", targets: ["SpkAudio"]),
        .library(name: "SpeechEngines", targets: ["SpeechEngines"]),
        .library(name: "CEspeakNG", targets: ["CEspeakNG"]),
        .library(name: "CFlite", targets: ["CFlite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        .systemLibrary(name: "CLilv", pkgConfig: "lilv-0", providers: [.apt(["liblilv-dev"])]),
        .systemLibrary(name: "CLV2", providers: [.apt(["lv2-dev"])]),
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        // flite 2.2 has no pkg-config file: its module map names the libraries.
        .systemLibrary(name: "CFlite", providers: [.apt(["flite1-dev"])]),
        .systemLibrary(name: "CSonic", providers: [.apt(["libsonic-dev"])]),
        // The plugin window's drawing: Xlib, cairo and pango (no toolkit; see Sources/SpkWindow).
        .systemLibrary(name: "CXWindow", pkgConfig: "pangocairo", providers: [.apt(["libx11-dev", "libcairo2-dev", "libpango1.0-dev"])]),
        // sherpa-onnx's C API, declared in a header of spk's own: the library comes with a
        // neural voice and is dlopen'ed, so nothing links it.
        .systemLibrary(name: "CSherpaOnnx"),

        .target(name: "SSML", dependencies: ["CLibXML2"]),
        .target(name: "SpkProtocol", dependencies: ["CLV2"]),
        .target(name: "SpkAudio", dependencies: ["CSndfile", "CSoxr"]),
        .target(name: "SpeechEngines", dependencies: ["SSML", "CEspeakNG", "CFlite", "CSonic", "SpkAudio", "SpkProtocol", "VoiceRegistry", "PersonalVoice"]),
        .target(name: "LockFree"),
        .target(name: "VoiceRegistry", dependencies: ["SpkProtocol"]),
        .target(name: "PersonalVoice", dependencies: ["SpkAudio", "SpkProtocol"]),
        .target(name: "SynthPlugin", dependencies: ["SpeechEngines", "SpkProtocol", "LockFree", "VoiceRegistry", "CLV2"]),
        .target(name: "SpkPlugins", dependencies: ["SynthPlugin", "SpeechEngines", "CLV2"], linkerSettings: pluginLinkerSettings),
        // The window's one C function: taking the keyboard focus with X errors trapped.
        .target(name: "CXFocus", linkerSettings: [.linkedLibrary("X11")]),
        .target(name: "SpkWindow", dependencies: ["CXWindow", "CXFocus", "CLV2", "SpkProtocol"], linkerSettings: pluginLinkerSettings),
        .target(name: "NeuralVoices", dependencies: ["CSherpaOnnx", "SpkProtocol", "VoiceRegistry"]),
        .target(name: "LV2Host", dependencies: ["CLilv", "CLV2", "SpkProtocol", "LockFree"]),
        .target(name: "JACKBackend", dependencies: ["CJack", "LockFree"]),
        .executableTarget(name: "spk-rt-check", dependencies: [
            "LV2Host", "SpkProtocol",
            .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
        ]),
        .executableTarget(name: "spkhost", dependencies: [
            "LV2Host", "JACKBackend", "SpkAudio", "VoiceRegistry", "PersonalVoice", "LockFree",
            "SSML",  // RequestParts: where a request switches engines
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .target(name: "SpkTestSupport", dependencies: ["SpkAudio"], path: "Tests/SpkTestSupport"),
        .testTarget(name: "SSMLTests", dependencies: ["SSML"]),
        .testTarget(name: "SpeechEnginesTests", dependencies: ["SpeechEngines", "SpkAudio", "SpkTestSupport", "VoiceRegistry"]),
        .testTarget(name: "SpkHostTests", dependencies: ["LV2Host", "SpkAudio", "SpkTestSupport", "VoiceRegistry", "PersonalVoice"]),
    ],
    swiftLanguageModes: [.v5]
)

// Neural voices (issue 8): the engine, spkhost's installer and their tests use the installed
// voices' files. Added here rather than in the lists above, which other work edits too.
for (target, dependency) in [("SpeechEngines", "NeuralVoices"), ("spkhost", "NeuralVoices"),
                             ("SpeechEnginesTests", "NeuralVoices"), ("SpkHostTests", "NeuralVoices")] {
    package.targets.first { $0.name == target }?.dependencies.append(.target(name: dependency))
}

// The speech-dispatcher output module (issue 16): sd_spk over a library with the protocol, and
// spkhost's `speechd enable|disable`.
package.targets += [
    .target(name: "SpeechDispatcherModule", dependencies: ["LV2Host", "SSML", "SpkProtocol", "VoiceRegistry"]),
    .executableTarget(name: "sd_spk", dependencies: ["SpeechDispatcherModule"]),
    .testTarget(name: "SpeechDispatcherModuleTests", dependencies: ["SpeechDispatcherModule", "SpkProtocol", "SpkAudio", "SpkTestSupport", "PersonalVoice"]),
]
package.targets.first { $0.name == "spkhost" }?.dependencies.append(.target(name: "SpeechDispatcherModule"))
