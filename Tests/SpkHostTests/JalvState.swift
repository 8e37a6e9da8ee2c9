import Foundation

/// A state directory jalv loads with `-l`: a preset for `urn:spk:synth:espeak-ng` whose state is
/// `properties` (Turtle, e.g. `spk:text "Hello."`), written as jalv saves presets (the file
/// itself, `<>`, is the preset).
func writeJalvState(in directory: URL, properties: String, label: String = "spk test") throws {
    let prefixes = """
    @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
    @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
    @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
    @prefix state: <http://lv2plug.in/ns/ext/state#> .
    @prefix spk: <urn:spk:ns#> .

    """
    try (prefixes + "<state.ttl> a pset:Preset ; lv2:appliesTo <urn:spk:synth:espeak-ng> ; rdfs:seeAlso <state.ttl> .\n")
        .write(to: directory.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
    try (prefixes + "<> a pset:Preset ; lv2:appliesTo <urn:spk:synth:espeak-ng> ; rdfs:label \"\(label)\" ; state:state [ \(properties) ] .\n")
        .write(to: directory.appendingPathComponent("state.ttl"), atomically: true, encoding: .utf8)
}
