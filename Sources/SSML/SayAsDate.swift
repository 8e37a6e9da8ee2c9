// `<say-as interpret-as="date">`: "2024-03-05" (ymd) → "March 5th, 2024".

/// The order of the date's fields in the content, from the `format` attribute.
struct DateFormat: Equatable {
    enum Field: Character { case year = "y", month = "m", day = "d" }

    let fields: [Field]

    private static let formats: Set<String> = ["mdy", "dmy", "ymd", "md", "dm", "ym", "my", "y", "m", "d"]

    init?(_ text: String) {
        let name = text.trimmingWhitespace.lowercased()
        guard DateFormat.formats.contains(name) else { return nil }
        fields = name.compactMap(Field.init(rawValue:))
    }

    /// Without a format: ISO dates ("2024-03-05") are ymd, anything else mdy.
    static func guessed(for content: String) -> DateFormat {
        let parts = content.split(separator: "-", omittingEmptySubsequences: false)
        let iso = parts.count == 3 && parts[0].count == 4 && (1...2).contains(parts[1].count) && (1...2).contains(parts[2].count)
            && parts.allSatisfy { $0.allSatisfy(\.isASCIIDigit) }
        return DateFormat(iso ? "ymd" : "mdy")!
    }
}

enum SayAsDate {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    /// The spoken date, or nil when the content is not a valid date in `format`. Other
    /// languages get the numbers in day.month.year order, which their engines read natively.
    static func read(_ content: String, format: DateFormat, english: Bool) -> String? {
        let parts = content.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        guard parts.count == format.fields.count, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        var year: String?
        var month: Int?
        var day: Int?
        for (field, part) in zip(format.fields, parts) {
            switch field {
            case .year: year = part
            case .month: month = Int(part)
            case .day: day = Int(part)
            }
        }
        if let month, !(1...12).contains(month) { return nil }
        if let day, !(1...maximumDay(month: month, year: year.flatMap { Int($0) })).contains(day) { return nil }
        return english ? englishWords(year: year, month: month, day: day) : numeric(year: year, month: month, day: day)
    }

    private static func englishWords(year: String?, month: Int?, day: Int?) -> String {
        let dayWords = day.map { "\($0)" + SayAs.englishOrdinalSuffix("\($0)") }
        let monthName = month.map { monthNames[$0 - 1] }
        switch (year, monthName, dayWords) {
        case let (year?, month?, day?): return "\(month) \(day), \(year)"
        case let (nil, month?, day?): return "\(month) \(day)"
        case let (year?, month?, nil): return "\(month) \(year)"
        default: return [monthName, dayWords, year].compactMap { $0 }.joined(separator: " ")
        }
    }

    private static func numeric(year: String?, month: Int?, day: Int?) -> String {
        let parts = [day.map { "\($0)" }, month.map { "\($0)" }, year].compactMap { $0 }
        return parts.joined(separator: ".") + (year == nil ? "." : "")
    }

    private static func maximumDay(month: Int?, year: Int?) -> Int {
        switch month {
        case 4, 6, 9, 11: return 30
        case 2:
            guard let year else { return 29 }
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        default: return 31
        }
    }
}
