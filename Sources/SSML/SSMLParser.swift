// The way into the module: a request (an SSML document or plain text) in, a SpeechProgram out.

/// Parses speech requests.
///
/// Markup is SSML 1.1, read by libxml2's SAX2 parser: `speak`, `p`, `s`, `break`, `prosody`,
/// `emphasis`, `say-as`, `sub`, `phoneme`, `voice`, `lang`, `mark`, `audio` (with `desc`),
/// `token`, `w`, and `xml:lang` on any element; `lexicon`, `meta` and `metadata` are accepted
/// and skipped with their content. Attributes SSML defines but spk does not use are accepted and
/// ignored: `prosody` contour and duration, `say-as` detail, `phoneme` type, `voice` required,
/// ordering and onvoicefailure, `audio` fetch and clip attributes and speed, `token` role,
/// `onlangfailure`.
///
/// Every item carries UTF-8 byte offsets into the request exactly as given. A DOCTYPE or entity
/// declaration is refused, so no entity is ever expanded and nothing is ever fetched.
///
/// Text is kept as written, whitespace between elements included; neighbouring text in one
/// style is one run, except across the end of a `<p>` or `<s>`, and for spelled-out `<say-as>`
/// and `<phoneme>`, which are runs of their own.
public enum SSMLParser {
    /// Parses an SSML 1.1 document, or plain text (anything whose first non-whitespace
    /// character is not `<`).
    ///
    /// - Throws: `SSMLError` with the line and column (1-based; columns count characters) of
    ///   the problem: libxml2's position for XML that is not well-formed, the start tag of the
    ///   element for anything SSML does not allow.
    public static func parse(_ request: String) throws -> SpeechProgram {
        try parseRequest(request)
    }

    static func parseRequest(_ request: String) throws(SSMLError) -> SpeechProgram {
        // A byte order mark is not content (libxml2 skips it too).
        let byteOrderMark: Unicode.Scalar = "\u{FEFF}"
        guard let first = request.unicodeScalars.first(where: { !$0.properties.isWhitespace && $0 != byteOrderMark }) else {
            throw SSMLError(line: 1, column: 1, message: "the request is empty")
        }
        return first == "<" ? try parseMarkup(request) : plainText(request)
    }

    /// Plain text is spoken as it is: one run mapping byte for byte onto the whole request.
    static func plainText(_ request: String) -> SpeechProgram {
        let run = TextRun(text: request, sourceMap: SourceMap(text: request, source: SourceRange(offset: 0, length: request.utf8.count)),
                          style: Style())
        return SpeechProgram(items: [.text(run)])
    }

    private static func parseMarkup(_ request: String) throws(SSMLError) -> SpeechProgram {
        let source = SourceText(request)
        let builder = ProgramBuilder(source: source)
        try SAXReader(source: source, handler: builder).parse()
        return builder.program
    }
}
