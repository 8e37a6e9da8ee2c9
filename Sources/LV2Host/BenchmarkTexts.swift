/// The texts spk's benchmarks speak (`spkhost bench` and the Benchmarks package), the same
/// everywhere so that figures from different machines compare.
public enum BenchmarkTexts {
    /// First-audio requests: a short word, a sentence and a paragraph.
    public static let firstAudio: [(name: String, text: String)] = [
        ("word", "Hello."),
        ("sentence", "The quick brown fox jumps over the lazy dog."),
        ("paragraph", String(repeating: "Speech synthesis turns written text into sound, one sentence after another, for as long as there is text. ", count: 6)),
    ]

    /// The rows of issue 21, spk's neural voice against Piper: a word, a clause, a sentence
    /// without a comma and one with, a paragraph whose first sentence has no comma, 500 words.
    public static let piperPeer: [(name: String, text: String)] = [
        ("word", "Hello."),
        ("clause", "Please call my daughter,"),
        ("sentence", "The quick brown fox jumps over the lazy dog."),
        ("sentence with comma", "Please call my daughter, and tell her I will be late."),
        ("paragraph", """
            The old lighthouse keeper climbed the stairs every evening before the sun went down. \
            He carried a lamp, a book and a small flask of tea, and he sat by the great window until the ships \
            had passed the rocks. In winter the storms came from the north, and the waves broke so high that \
            the spray reached the glass. Nobody in the village remembered a night when the light had failed. \
            When he finally retired, the children of the harbour gave him a model of the tower, carved from \
            driftwood and painted white and red, and he kept it on his kitchen table for the rest of his life.
            """),
        ("500 words", fiveHundredWords),
    ]

    /// A fixed plain text of exactly 500 words (no digits or abbreviations, so that every engine
    /// reads the same words) for throughput: offline render against the engine called directly.
    public static let fiveHundredWords = """
        People have tried to make machines speak for a long time. The earliest talking machines were built from bellows, reeds and leather tubes, and a skilled operator could coax a few vowels and words out of them. Later inventors used electrical circuits to shape a buzzing source into something that sounded like a human voice, and visitors at great fairs lined up to hear a machine say a greeting.
        Modern speech synthesis follows the same basic idea in software. A program reads written text, decides how each word should be pronounced, chooses where the voice should rise and fall, and finally produces a stream of numbers that a sound card turns into pressure waves in the air. Each of these steps hides many decisions, and the quality of a voice depends on getting most of them right.
        The first step is to clean up the text. Written language is full of shortcuts that a reader expands without thinking: numbers, dates, times, abbreviations and symbols all need to become ordinary words before anything can be spoken. A careful system also notices the ends of sentences, the titles of people and the names of places, because each of these changes how the words around them should sound.
        Next comes pronunciation. Many words can be found in a dictionary that lists their sounds, but new names and rare words appear all the time, so every system also needs rules that guess a pronunciation from the spelling. English makes this hard, since the same letters can be read in several different ways, and a single wrong vowel is enough to make a listener stop and wonder what was meant.
        After the sounds are known, the system plans the rhythm and melody of the speech. It decides how long each sound lasts, where the pauses go, which words carry the stress and how the pitch moves across the phrase. A question ends higher than a statement, a list has a small rise on every item, and a long sentence needs places where the speaker can take a breath.
        The last step makes the sound. Some engines glue together short pieces of recorded speech, others compute the signal from a model of the vocal tract, and newer ones use large statistical models trained on many hours of recordings. Each approach trades speed, size and naturalness in its own way, and none of them is best for every purpose.
        For people who rely on a screen reader, speed and predictability matter more than a natural voice. They listen to speech many times faster than conversation, they want every key press to be answered at once, and they need the voice to stop the moment they move on. A synthesizer that starts late or stumbles under load gets in the way of their work, however pleasant it sounds.
        That is why the time to the first sound, the cost of each audio block and the number of voices that can speak together are worth measuring on real machines.
        """
}
