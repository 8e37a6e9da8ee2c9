import SpkProtocol

/// An engine whose voices take long to get ready (a neural model loads in a second or two):
/// the plugin's worker prepares the voice as soon as it is chosen (instantiation, state restore,
/// `patch:Set` of the voice), so that the first request does not pay for it.
public protocol VoicePreparing {
    /// Gets `voice` ready to speak; blocks until it is. Called on the worker, never the audio thread.
    func prepare(_ voice: Voice) throws
}
