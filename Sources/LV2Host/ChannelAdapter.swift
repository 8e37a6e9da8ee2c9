/// How a host connects n outputs to m inputs when a connection names nodes rather than ports:
/// pairwise when the counts match, mono to every input, everything mixed (averaged) into a single
/// input, and round-robin when one count divides the other.
enum ChannelAdapter {
    /// Pairs of (output, input, gain), or nil when the counts do not fit together.
    static func connect(_ outputs: [PortInfo], _ inputs: [PortInfo]) -> [(output: PortInfo, input: PortInfo, gain: Float)]? {
        let m = outputs.count, n = inputs.count
        guard m > 0, n > 0 else { return nil }
        if m == n { return zip(outputs, inputs).map { ($0, $1, 1) } }
        if m == 1 { return inputs.map { (outputs[0], $0, 1) } }
        if n == 1 { return outputs.map { ($0, inputs[0], 1 / Float(m)) } }
        if n % m == 0 { return inputs.enumerated().map { (outputs[$0.offset % m], $0.element, 1) } }
        if m % n == 0 { return outputs.enumerated().map { ($0.element, inputs[$0.offset % n], Float(n) / Float(m)) } }
        return nil
    }
}
