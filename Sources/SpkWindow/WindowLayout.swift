// Where each control sits, from the window's size. One column: the text field on top (it takes
// what height is spare), the buttons, the voice list, and a status line for what happened last.

struct Rect {
    var x, y, width, height: Double
    func contains(_ px: Double, _ py: Double) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}

/// The controls in Tab order.
enum Control: Int, CaseIterable {
    case text, speak, pause, stop, voices

    var name: String {
        switch self {
        case .text: "text"
        case .speak: "speak"
        case .pause: "pause"
        case .stop: "stop"
        case .voices: "voices"
        }
    }
}

struct WindowLayout {
    static let defaultWidth = 640, defaultHeight = 460
    static let minimumWidth = 420, minimumHeight = 340
    static let voiceRowHeight = 22.0, voiceRows = 5

    let text, speak, pause, stop, voices, status: Rect
    let voiceLabelY: Double

    init(width: Int, height: Int) {
        let w = Double(max(width, Self.minimumWidth)), h = Double(max(height, Self.minimumHeight))
        let margin = 10.0, buttonHeight = 32.0, statusHeight = 24.0
        let listHeight = Self.voiceRowHeight * Double(Self.voiceRows) + 4
        let textHeight = h - margin * 6 - buttonHeight - 18 - listHeight - statusHeight
        text = Rect(x: margin, y: margin, width: w - 2 * margin, height: textHeight)
        let buttonsY = text.y + textHeight + margin
        speak = Rect(x: margin, y: buttonsY, width: 110, height: buttonHeight)
        pause = Rect(x: margin + 120, y: buttonsY, width: 130, height: buttonHeight)
        stop = Rect(x: margin + 260, y: buttonsY, width: 90, height: buttonHeight)
        voiceLabelY = buttonsY + buttonHeight + margin
        voices = Rect(x: margin, y: voiceLabelY + 18, width: w - 2 * margin, height: listHeight)
        status = Rect(x: margin, y: voices.y + listHeight + margin, width: w - 2 * margin, height: statusHeight)
    }

    func rect(_ control: Control) -> Rect {
        switch control {
        case .text: text
        case .speak: speak
        case .pause: pause
        case .stop: stop
        case .voices: voices
        }
    }
}
