import CLV2

/// Every URID that plugin and host exchange, mapped once (at instantiation, never in `run()`).
public struct SpkURIDs: Sendable {
    public let atomString, atomLong, atomInt, atomFloat, atomDouble, atomBool, atomURID, atomTuple: UInt32
    public let atomObject, atomBlank, atomResource, atomSequence, atomChunk, atomFrameTime: UInt32
    public let midiEvent: UInt32
    public let patchSet, patchGet, patchProperty, patchValue: UInt32
    public let speak, cancel, pause, `continue`, append, ready, more: UInt32
    public let started, finished, cancelled, paused, continued, marker, error: UInt32
    public let ssml, voice, voices, catalog, text, request, boundary, immediate: UInt32
    public let markType, word, sentence, paragraph, phoneme, bookmark: UInt32
    public let textOffset, textLength, name, message: UInt32
    public let identifier, primaryLanguages, supportedLanguages, gender, age, quality, traits, Voice: UInt32
    public let paramSampleRate, bufSizeMaxBlock, bufSizeMinBlock, bufSizeNominalBlock: UInt32

    /// Maps every URI with `map` (the host's urid:map, or the host's own table).
    public init(map: (String) -> UInt32) {
        atomString = map(LV2URI.atomString); atomLong = map(LV2URI.atomLong); atomInt = map(LV2URI.atomInt)
        atomFloat = map(LV2URI.atomFloat); atomDouble = map(LV2URI.atomDouble); atomBool = map(LV2URI.atomBool)
        atomURID = map(LV2URI.atomURID); atomTuple = map(LV2URI.atomTuple); atomObject = map(LV2URI.atomObject)
        atomBlank = map(LV2URI.atomBlank); atomResource = map(LV2URI.atomResource)
        atomSequence = map(LV2URI.atomSequence); atomChunk = map(LV2URI.atomChunk)
        atomFrameTime = map(LV2URI.atomFrameTime); midiEvent = map(LV2URI.midiEvent)
        patchSet = map(LV2URI.patchSet); patchGet = map(LV2URI.patchGet)
        patchProperty = map(LV2URI.patchProperty); patchValue = map(LV2URI.patchValue)
        speak = map(SpkURI.speak); cancel = map(SpkURI.cancel); pause = map(SpkURI.pause)
        `continue` = map(SpkURI.continue)
        append = map(SpkURI.append); ready = map(SpkURI.ready); more = map(SpkURI.more)
        started = map(SpkURI.started); finished = map(SpkURI.finished); cancelled = map(SpkURI.cancelled)
        paused = map(SpkURI.paused); continued = map(SpkURI.continued); marker = map(SpkURI.marker)
        error = map(SpkURI.error); ssml = map(SpkURI.ssml); voice = map(SpkURI.voice); voices = map(SpkURI.voices); catalog = map(SpkURI.catalog)
        text = map(SpkURI.text); request = map(SpkURI.request); boundary = map(SpkURI.boundary)
        immediate = map(SpkURI.immediate); markType = map(SpkURI.markType); word = map(SpkURI.word)
        sentence = map(SpkURI.sentence); paragraph = map(SpkURI.paragraph); phoneme = map(SpkURI.phoneme)
        bookmark = map(SpkURI.bookmark); textOffset = map(SpkURI.textOffset); textLength = map(SpkURI.textLength)
        name = map(SpkURI.name); message = map(SpkURI.message); identifier = map(SpkURI.identifier)
        primaryLanguages = map(SpkURI.primaryLanguages); supportedLanguages = map(SpkURI.supportedLanguages)
        gender = map(SpkURI.gender); age = map(SpkURI.age); quality = map(SpkURI.quality)
        traits = map(SpkURI.traits); Voice = map(SpkURI.Voice)
        paramSampleRate = map(LV2URI.paramSampleRate); bufSizeMaxBlock = map(LV2URI.bufSizeMaxBlock)
        bufSizeMinBlock = map(LV2URI.bufSizeMinBlock); bufSizeNominalBlock = map(LV2URI.bufSizeNominalBlock)
    }

    /// Maps through a host-provided `LV2_URID_Map`.
    public init(_ map: UnsafePointer<LV2_URID_Map>) {
        self.init { uri in uri.withCString { map.pointee.map(map.pointee.handle, $0) } }
    }
}
