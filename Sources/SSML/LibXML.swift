// Conversions between libxml2's C values and Swift ones.

internal import CLibXML2

enum LibXML {
    /// libxml2 wants `xmlInitParser` called once before parsers run on several threads.
    static func initializeOnce() {
        _ = initialized
    }

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// SAX2 passes attributes as `count` groups of five pointers: local name, prefix, namespace
    /// URI, and the start and end of the value.
    static func attributes(_ values: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int) -> [XMLAttribute] {
        guard let values else { return [] }
        return (0..<count).compactMap { index in
            let base = values + 5 * index
            guard let localName = string(base[0]), let start = base[3], let end = base[4] else { return nil }
            let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
            return XMLAttribute(localName: localName, prefix: string(base[1]), namespaceURI: string(base[2]),
                                value: restoringAmpersands(value))
        }
    }

    /// Without entity substitution libxml2 hands over an attribute's `&amp;` or `&#38;` as the
    /// text `&#38;` (meant for a later tree-building pass). Every other reference is already
    /// decoded, and a literal `&` cannot occur, so each `&#38;` stands for one `&`.
    static func restoringAmpersands(_ value: String) -> String {
        value.utf8.contains(.ampersand) ? value.replacing("&#38;", with: "&") : value
    }

    /// A libxml2 error at its own line and column, with its message trimmed.
    static func error(from error: UnsafePointer<xmlError>?) -> SSMLError? {
        guard let error, error.pointee.code != 0 else { return nil }
        let message = error.pointee.message.map { String(cString: $0) }
        return SSMLError(line: max(1, Int(error.pointee.line)), column: max(1, Int(error.pointee.int2)),
                         message: (message ?? "malformed XML").trimmingWhitespace)
    }
}
