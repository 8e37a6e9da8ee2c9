import SpkProtocol

extension NeuralEngine: VoicePreparing {
    /// Loads the voice's model (or waits for a load already under way): requests then find it loaded.
    public func prepare(_ voice: Voice) throws {
        _ = try loadedModel(for: voice)
    }
}
