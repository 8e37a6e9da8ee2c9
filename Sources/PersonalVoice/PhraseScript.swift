/// The phrases a person records, the common phrases of daily life first (as message banking
/// in AAC clinics starts), then sentences that cover the sounds of English.
public enum PhraseScript {
    public static let phrases = [
        "Yes.", "No.", "Thank you.", "Please.", "Hello.", "Goodbye.", "I love you.",
        "I need help.", "I am tired.", "I am in pain.", "I'm hungry.", "I'm thirsty.",
        "Could you call my family?", "I need to use the bathroom.", "Please give me a moment.",
        "I don't understand.", "Can you repeat that?", "Good morning.", "Good night.", "See you soon.",
        "How are you today?", "That is funny.", "I would like some water.", "Please turn on the light.",
        "The quick brown fox jumps over the lazy dog.",
        "She sells sea shells by the sea shore.",
        "A rainbow is a division of white light into many beautiful colors.",
        "These take the shape of a long round arch, with its path high above.",
        "When the sunlight strikes raindrops in the air, they act as a prism.",
        "People look, but no one ever finds the end of it.",
    ]
}
