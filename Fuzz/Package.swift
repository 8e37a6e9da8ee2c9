// swift-tools-version:6.0
// libFuzzer targets over spk's SSML parser and its offline render path: a package of its own,
// because SwiftPM's generated `main` would clash with libFuzzer's. Built and run by
// ../scripts/fuzz.sh TARGET SECONDS (with -sanitize=fuzzer,address); see ../FUZZING.md.
import PackageDescription

/// The main package's identity is its directory's name (main, or a worktree's name).
let main = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main").lowercased()

let package = Package(
    name: "spk-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "FuzzSSML", dependencies: [.product(name: "SSML", package: main)]),
        .executableTarget(name: "FuzzRender", dependencies: [
            .product(name: "SSML", package: main),
            .product(name: "SpeechEngines", package: main),
        ]),
    ],
    swiftLanguageModes: [.v5]
)
