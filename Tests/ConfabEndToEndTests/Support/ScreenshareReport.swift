import Foundation

/// The screen-sharing parts of a `confab-peer --screen …` report.
struct OwnScreenshare: Decodable {
    let source: String
    let startedAt: Date?
    let stoppedAt: Date?
    let error: String?
}

/// A shared screen one peer received from another (apart from their camera).
struct ReceivedScreen: Decodable {
    struct Size: Decodable, Equatable, CustomStringConvertible {
        let width: Int
        let height: Int
        var description: String { "\(width)x\(height)" }
    }
    let userID: String
    let firstSeenAt: Date
    let goneAt: Date?
    let framesReceived: Int
    let firstFrameAt: Date?
    let averageFPS: Double?
    let videoSize: Size?
}

/// The call view model started or stopped showing a participant as sharing.
struct ScreensharingChange: Decodable {
    let at: Date
    let userID: String
    let isScreensharing: Bool
    let screenshareTrackSize: ReceivedScreen.Size?
}
