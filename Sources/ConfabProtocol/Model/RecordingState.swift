/// Where a call's recording is: asked for but not yet confirmed by the media server
/// (`requested`), running (`recording`), or not (`noRecording`) — stream-video's RecordingState.
public enum RecordingState: String, Codable, Sendable, Hashable {
    case noRecording, requested, recording
}
