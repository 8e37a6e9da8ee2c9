import ArgumentParser
import Foundation
import LV2Host

/// Effects for `render` and `play`: a graph file, or the quick form, `--effect URI` (repeatable,
/// chained in order) with `--set SYMBOL=VALUE` for the effect just before it.
struct GraphOptions: ParsableArguments {
    @Option(help: "A render graph file (JSON, as in presets/graphs/).") var graph: String?
    @Option(name: .customLong("effect"), help: "An LV2 plugin URI to put after the voice (repeatable; chained in order).")
    var effects: [String] = []
    @Option(name: .customLong("set"), help: "SYMBOL=VALUE: a control of the --effect just before it (repeatable).")
    var settings: [String] = []

    func validate() throws {
        if graph != nil && !effects.isEmpty { throw ValidationError("give --graph or --effect, not both") }
        if !settings.isEmpty && effects.isEmpty { throw ValidationError("--set sets a control of the --effect before it, and there is none") }
    }

    /// The graph to speak through, `synth` the voice of an --effect chain; nil without options.
    func spec(synth: String, arguments: [String] = CommandLine.arguments) throws -> GraphSpec? {
        if let graph { return try GraphSpec.load(path: graph) }
        guard !effects.isEmpty else { return nil }
        return GraphSpec.chain(synth: synth, effects: try chain(arguments))
    }

    /// Each --effect with the --set values that follow it. ArgumentParser keeps the values of
    /// each option in order but not how the two interleave, so that is read from the command line
    /// and checked against what ArgumentParser found.
    func chain(_ arguments: [String]) throws -> [(plugin: String, controls: [String: Float])] {
        var chain: [(plugin: String, controls: [String: Float])] = []
        var foundEffects: [String] = [], foundSettings: [String] = []
        var i = 0
        while i < arguments.count, arguments[i] != "--" {
            var name = arguments[i], value: String?
            if name.hasPrefix("--"), let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name == "--effect" || name == "--set" {
                if value == nil, i + 1 < arguments.count {
                    i += 1
                    value = arguments[i]
                }
                if let value, name == "--effect" {
                    foundEffects.append(value)
                    chain.append((value, [:]))
                } else if let value {
                    foundSettings.append(value)
                    guard !chain.isEmpty else { throw HostError("--set \(value) comes before any --effect") }
                    let (symbol, number) = try Self.setting(value)
                    chain[chain.count - 1].controls[symbol] = number
                }
            }
            i += 1
        }
        guard foundEffects == effects, foundSettings == settings else {
            throw HostError("cannot tell which --effect each --set belongs to; write --effect URI --set SYMBOL=VALUE ...")
        }
        return chain
    }

    static func setting(_ text: String) throws -> (String, Float) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { throw HostError("--set \(text): expected SYMBOL=VALUE") }
        guard let value = Float(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw HostError("--set \(text): '\(parts[1])' is not a number")
        }
        return (String(parts[0]), value)
    }
}

extension GraphSpec {
    /// The graph of a request with no effects that needs several engines: its synths, mixed.
    static func voices(_ synth: String) -> GraphSpec {
        GraphSpec(nodes: [Node(id: "voice", plugin: synth)], connections: [], outputs: [PortRef(node: "voice")])
    }
}
