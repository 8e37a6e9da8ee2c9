// libxml2's SAX2 parser over one request, reporting each element and piece of text with the
// request bytes it came from.
//
// Offsets come from `xmlByteConsumed` at each callback and from the source itself. Every region of
// the document belongs to some event, so an event starts where the previous one ended (`cursor`).
// Where each callback happens was checked against libxml2 2.9.14 (SAXReaderTests, SourceOffsetTests):
// - startElementNs: after the attributes, at the tag's closing `>` or `/>`;
// - endElementNs, comment, processingInstruction, cdataBlock: after the construct's last byte;
// - characters: either before or after the chunk is consumed, depending on libxml2's internal
//   path, so a chunk starts at the cursor and its end is not read from xmlByteConsumed. A chunk
//   that starts at a `&` is one decoded reference (`&amp;`, `&#233;`) and ends after its `;`;
//   any other chunk is the source copied byte for byte, apart from end-of-line normalisation.

internal import CLibXML2

final class SAXReader {
    private let source: SourceText
    private let handler: XMLContentHandler
    /// Where the next event's source starts: the end of the previous event.
    private var cursor = 0
    /// Offsets of the `<` of the start tags of the open elements.
    private var openElements: [Int] = []
    private var failure: SSMLError?

    init(source: SourceText, handler: XMLContentHandler) {
        self.source = source
        self.handler = handler
    }

    /// Parses the whole document, throwing the first well-formedness or handler error.
    func parse() throws(SSMLError) {
        LibXML.initializeOnce()
        guard source.count <= Int(Int32.max) else {
            throw SSMLError(line: 1, column: 1, message: "the request is too large")
        }
        let failure: SSMLError? = source.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars -> SSMLError? in
                guard let context = xmlCreateMemoryParserCtxt(chars.baseAddress, Int32(chars.count)) else {
                    return SSMLError(line: 1, column: 1, message: "libxml2 could not create a parser")
                }
                defer { xmlFreeParserCtxt(context) }
                return run(context)
            }
        }
        if let failure { throw failure }
    }

    private func run(_ context: xmlParserCtxtPtr) -> SSMLError? {
        // Never XML_PARSE_NOENT or XML_PARSE_DTDLOAD: no entity is ever expanded or fetched. A
        // Swift String is always UTF-8, so an `encoding` declaration must not re-decode it.
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue))
        // Nor may its first bytes: libxml2 would take "<\0\0\0" for UCS-4 and print conversion
        // errors to stderr. With the encoding named, it does not guess.
        // (A UTF-8 byte order mark is left to libxml2's detection, which skips it.)
        if context.pointee.encoding == nil, !source.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            context.pointee.encoding = UnsafePointer(xmlStrdup("UTF-8"))
        }
        // Errors are read from the context (xmlCtxtGetLastError); nothing goes to stderr. The
        // handler is per thread in libxml2, so it is set for every parse.
        xmlSetStructuredErrorFunc(nil) { _, _ in }
        context.pointee.sax.pointee = SAXReader.callbacks
        let unmanaged = Unmanaged.passRetained(self)
        context.pointee._private = unmanaged.toOpaque()
        defer {
            context.pointee._private = nil
            unmanaged.release()
        }
        let result = xmlParseDocument(context)
        if let failure { return failure }
        if result != 0 || context.pointee.wellFormed == 0 {
            return LibXML.error(from: xmlCtxtGetLastError(context))
                ?? SSMLError(line: 1, column: 1, message: "the document is not well-formed XML")
        }
        return nil
    }

    // MARK: - Events

    private func fail(_ error: SSMLError, _ context: xmlParserCtxtPtr) {
        if failure == nil { failure = error }
        xmlStopParser(context)
    }

    private func startElement(_ context: xmlParserCtxtPtr, localName: String, prefix: String?, namespaceURI: String?,
                              attributes: [XMLAttribute]) {
        let closing = xmlByteConsumed(context)
        let start = source.startOfTag(containing: closing)
        let end = source.endOfStartTag(closingAt: closing)
        cursor = end
        openElements.append(start)
        let element = XMLElementStart(localName: localName, prefix: prefix, namespaceURI: namespaceURI,
                                      attributes: attributes, startTag: SourceRange(offset: start, length: end - start))
        do { try handler.startElement(element) } catch { fail(error, context) }
    }

    private func endElement(_ context: xmlParserCtxtPtr) {
        let end = xmlByteConsumed(context)
        let start = openElements.popLast() ?? cursor
        cursor = end
        do { try handler.endElement(SourceRange(offset: start, length: end - start)) } catch { fail(error, context) }
    }

    private func characters(_ context: xmlParserCtxtPtr, _ decoded: UnsafeBufferPointer<UInt8>) {
        let pieces: [SourceMap.Piece]
        if source.byte(at: cursor) == .ampersand {
            // One decoded reference (`&amp;`, `&#233;`): it maps as a whole to `&...;`.
            let end = source.endOfReference(startingAt: cursor)
            pieces = [SourceMap.Piece(textOffset: 0, textLength: decoded.count,
                                      source: SourceRange(offset: cursor, length: end - cursor))]
            cursor = end
        } else if let verbatim = source.alignVerbatim(decoded, at: cursor) {
            pieces = verbatim.pieces
            cursor = verbatim.end
        } else {
            // Not expected of libxml2: map the text as a whole to what it has consumed so far.
            let end = max(xmlByteConsumed(context), cursor)
            pieces = [SourceMap.Piece(textOffset: 0, textLength: decoded.count,
                                      source: SourceRange(offset: cursor, length: end - cursor))]
            cursor = end
        }
        deliver(context, decoded, pieces)
    }

    private func cdata(_ context: xmlParserCtxtPtr, _ decoded: UnsafeBufferPointer<UInt8>) {
        let end = xmlByteConsumed(context)
        let contentStart = end - 3 - decoded.count  // before `]]>`
        let pieces: [SourceMap.Piece]
        if contentStart >= cursor && source.matches(decoded, at: contentStart) {
            pieces = [SourceMap.Piece(textOffset: 0, textLength: decoded.count,
                                      source: SourceRange(offset: contentStart, length: decoded.count))]
        } else {  // line ends were normalised inside the section
            pieces = [SourceMap.Piece(textOffset: 0, textLength: decoded.count,
                                      source: SourceRange(offset: cursor, length: max(0, end - cursor)))]
        }
        cursor = end
        deliver(context, decoded, pieces)
    }

    private func deliver(_ context: xmlParserCtxtPtr, _ decoded: UnsafeBufferPointer<UInt8>, _ pieces: [SourceMap.Piece]) {
        do { try handler.text(String(decoding: decoded, as: UTF8.self), pieces: pieces) } catch { fail(error, context) }
    }

    /// Comments and processing instructions are skipped, but their bytes are accounted for.
    private func skipped(_ context: xmlParserCtxtPtr) {
        cursor = xmlByteConsumed(context)
    }

    private func refuseDeclarations(_ context: xmlParserCtxtPtr) {
        let consumed = xmlByteConsumed(context)
        let start = source.lastOccurrence(of: "<!DOCTYPE", before: consumed) ?? consumed
        fail(source.error(at: start, "DOCTYPE and entity declarations are not allowed"), context)
    }

    private func libxmlError(_ context: xmlParserCtxtPtr, _ error: UnsafePointer<xmlError>?) {
        guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
              let converted = LibXML.error(from: error) else { return }
        fail(converted, context)
    }

    // MARK: - C callbacks

    /// Every callback gets the parser context (libxml2's default user data) and finds the reader
    /// in its `_private` field. Events after the first failure are ignored.
    private static func reader(_ userData: UnsafeMutableRawPointer?) -> (SAXReader, xmlParserCtxtPtr)? {
        guard let context = userData?.assumingMemoryBound(to: xmlParserCtxt.self),
              let opaque = context.pointee._private else { return nil }
        let reader = Unmanaged<SAXReader>.fromOpaque(opaque).takeUnretainedValue()
        return reader.failure == nil ? (reader, context) : nil
    }

    private static let callbacks: xmlSAXHandler = {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { userData, localName, prefix, uri, _, _, attributeCount, _, attributes in
            guard let (reader, context) = SAXReader.reader(userData) else { return }
            reader.startElement(context, localName: LibXML.string(localName) ?? "", prefix: LibXML.string(prefix),
                                namespaceURI: LibXML.string(uri),
                                attributes: LibXML.attributes(attributes, count: Int(attributeCount)))
        }
        sax.endElementNs = { userData, _, _, _ in
            guard let (reader, context) = SAXReader.reader(userData) else { return }
            reader.endElement(context)
        }
        let characters: charactersSAXFunc = { userData, bytes, length in
            guard let (reader, context) = SAXReader.reader(userData), let bytes else { return }
            reader.characters(context, UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
        sax.characters = characters
        // With keepBlanks (the default) libxml2 never calls this, but it is text all the same.
        sax.ignorableWhitespace = characters
        sax.cdataBlock = { userData, bytes, length in
            guard let (reader, context) = SAXReader.reader(userData), let bytes else { return }
            reader.cdata(context, UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
        sax.comment = { userData, _ in
            guard let (reader, context) = SAXReader.reader(userData) else { return }
            reader.skipped(context)
        }
        sax.processingInstruction = { userData, _, _ in
            guard let (reader, context) = SAXReader.reader(userData) else { return }
            reader.skipped(context)
        }
        sax.internalSubset = { userData, _, _, _ in
            guard let (reader, context) = SAXReader.reader(userData) else { return }
            reader.refuseDeclarations(context)
        }
        sax.externalSubset = { userData, _, _, _ in
            guard let (reader, context) = SAXReader.reader(userData) else { return }
            reader.refuseDeclarations(context)
        }
        sax.entityDecl = { userData, _, _, _, _, _ in
            guard let (reader, context) = SAXReader.reader(userData) else { return }
            reader.refuseDeclarations(context)
        }
        sax.serror = { userData, error in
            guard let (reader, context) = SAXReader.reader(userData) else { return }
            reader.libxmlError(context, UnsafePointer(error))
        }
        return sax
    }()
}
