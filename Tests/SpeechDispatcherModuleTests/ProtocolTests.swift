import SpeechDispatcherModule
import XCTest

final class ProtocolTests: XCTestCase {
    func testCommandsParse() {
        XCTAssertEqual(ModuleCommand.parse("INIT"), .initialize)
        XCTAssertEqual(ModuleCommand.parse("SPEAK"), .speak(.text))
        XCTAssertEqual(ModuleCommand.parse("SOUND_ICON"), .speak(.soundIcon))
        XCTAssertEqual(ModuleCommand.parse("LIST VOICES"), .listVoices(language: nil, variant: nil))
        XCTAssertEqual(ModuleCommand.parse("LIST VOICES en male"), .listVoices(language: "en", variant: "male"))
        XCTAssertEqual(ModuleCommand.parse("DEBUG ON /tmp/x"), .debug(on: true))
        XCTAssertEqual(ModuleCommand.parse("SPEAKX"), .unknown("SPEAKX"))
    }
}
