// `<say-as interpret-as="time">`: "14:30" → "14 30", "2:30pm" → "2 30 PM", "14:00" → "14 o'clock".

enum TimeFormat: String {
    case hms24, hms12
}

enum SayAsTime {
    /// The spoken time, or nil when the content is not a valid time. A 12-hour time with AM or
    /// PM on the hour reads "2 PM" rather than "2 o'clock PM". Other languages get the numbers
    /// (and AM/PM) without English words.
    static func read(_ content: String, format: TimeFormat?, english: Bool) -> String? {
        var clock = Substring(content.trimmingWhitespace.lowercased())
        let meridiem = removeMeridiem(from: &clock)
        let parts = clock.trimmingWhitespace.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.count > 1 || meridiem != nil,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              (1...2).contains(parts[0].count), parts.dropFirst().allSatisfy({ $0.count == 2 }),
              let hour = Int(parts[0]) else { return nil }
        let minutes = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let seconds = parts.count > 2 ? Int(parts[2]) ?? 0 : 0
        let twelveHour = meridiem != nil || format == .hms12
        guard twelveHour ? (1...12).contains(hour) : (0...23).contains(hour),
              (0...59).contains(minutes), (0...59).contains(seconds) else { return nil }

        var words = ["\(hour)"]
        if english {
            if minutes == 0 && meridiem == nil { words.append("o'clock") }
            if minutes > 0 && minutes < 10 { words.append("oh \(minutes)") }
            if minutes >= 10 { words.append("\(minutes)") }
            if seconds > 0 { words.append(seconds == 1 ? "and 1 second" : "and \(seconds) seconds") }
        } else {
            if minutes > 0 || seconds > 0 { words.append(parts[1].description) }
            if seconds > 0 { words.append(parts[2].description) }
        }
        if let meridiem { words.append(meridiem) }
        return words.joined(separator: " ")
    }

    /// Removes a trailing "am"/"pm" ("a.m.", "p", ...) and returns it as "AM" or "PM".
    private static func removeMeridiem(from clock: inout Substring) -> String? {
        for (suffix, meridiem) in [("a.m.", "AM"), ("p.m.", "PM"), ("am", "AM"), ("pm", "PM"), ("a", "AM"), ("p", "PM")]
        where clock.hasSuffix(suffix) {
            clock.removeLast(suffix.count)
            return meridiem
        }
        return nil
    }
}
