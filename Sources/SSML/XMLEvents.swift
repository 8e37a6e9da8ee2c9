// What the XML layer tells the SSML layer: elements and text, each with where it is in the request.

struct XMLAttribute: Equatable {
    var localName: String
    var prefix: String?
    var namespaceURI: String?
    var value: String

    var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }
}

struct XMLElementStart {
    var localName: String
    var prefix: String?
    var namespaceURI: String?
    var attributes: [XMLAttribute]
    /// From `<` to the closing `>` (or `/>`) of the start tag.
    var startTag: SourceRange

    var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }

    /// An attribute without a namespace, the way SSML's own attributes are written.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.namespaceURI == nil && $0.localName == name }?.value
    }

    /// `xml:lang`, which SSML allows on any element.
    var xmlLang: String? {
        attributes.first { $0.namespaceURI == XMLNamespace.xml && $0.localName == "lang" }?.value
    }
}

enum XMLNamespace {
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let ssml = "http://www.w3.org/2001/10/synthesis"
}

/// Receives a document's content in order. Throwing stops the parse with that error.
protocol XMLContentHandler: AnyObject {
    func startElement(_ element: XMLElementStart) throws(SSMLError)
    /// `element` spans the start tag through the end tag (just the tag for `<x/>`).
    func endElement(_ element: SourceRange) throws(SSMLError)
    /// Character data with entities decoded; `pieces` map its UTF-8 bytes to the request.
    func text(_ text: String, pieces: [SourceMap.Piece]) throws(SSMLError)
}
