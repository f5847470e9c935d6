import Foundation

/// A finished, converted recording file of one participant, as the `CallStore` keeps it. The
/// download URL is not stored: it depends on the address the server listens on now.
struct StoredRecording: Sendable, Equatable {
    /// The file's name inside the call's folder under `recordings/` in the data folder.
    var fileName: String
    /// The user whose media this is.
    var participant: String
    var start: Date
    /// Seconds of media in the file.
    var duration: Double
    /// Bytes.
    var size: Int
}
