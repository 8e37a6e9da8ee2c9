// swift-tools-version:6.1
// spk's benchmarks: a package of their own, so that the main package's test build stays lean.
// How to run them, and what they found: ../BENCHMARKS.md.
import PackageDescription

let package = Package(
    name: "spk-benchmarks",
    dependencies: [
        // The main package: only its library products, none of the plugin products (whose
        // targets carry linker unsafeFlags); the plugins are loaded as LV2 bundles instead.
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The benchmarks (ordo-one/benchmark looks for them under Benchmarks/).
        .executableTarget(
            name: "SpkBench",
            dependencies: [
                "SpkBenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LV2Host", package: "main"),
            ],
            path: "Benchmarks/SpkBench",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .target(name: "SpkBenchSupport", dependencies: [
            .product(name: "LV2Host", package: "main"),
            .product(name: "SpkProtocol", package: "main"),
        ]),
        // The engines called directly (their C APIs, and spk's adapters), each in a process of
        // its own: never in the process that hosts the plugins.
        .executableTarget(name: "spk-engine-bench", dependencies: [
            .product(name: "SpeechEngines", package: "main"),
            .product(name: "SpkProtocol", package: "main"),
            .product(name: "SpkAudio", package: "main"),
            .product(name: "CEspeakNG", package: "main"),
            .product(name: "CFlite", package: "main"),
        ]),
        // The neural engine's first audio and real-time factor against Piper's way and sherpa-onnx
        // called directly (issue 8): swift run -c release spk-neural-bench.
        .executableTarget(name: "spk-neural-bench", dependencies: [
            .product(name: "SpeechEngines", package: "main"),
            .product(name: "NeuralVoices", package: "main"),
            .product(name: "SpkProtocol", package: "main"),
        ]),
    ],
    swiftLanguageModes: [.v5]
)
