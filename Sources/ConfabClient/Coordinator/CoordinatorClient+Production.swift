import ConfabCore
import ConfabProtocol

/// Recording, backstage and broadcasting; the resulting state arrives as `callUpdated`.
extension CoordinatorClient {
    public func startRecording(in call: CallID) async throws {
        _ = try await send(StartRecordingRequest(cid: call))
    }

    public func stopRecording(in call: CallID) async throws {
        _ = try await send(StopRecordingRequest(cid: call))
    }

    public func goLive(in call: CallID) async throws {
        _ = try await send(GoLiveRequest(cid: call))
    }

    public func stopLive(in call: CallID) async throws {
        _ = try await send(StopLiveRequest(cid: call))
    }

    public func startBroadcasting(in call: CallID) async throws {
        _ = try await send(StartBroadcastingRequest(cid: call))
    }

    public func stopBroadcasting(in call: CallID) async throws {
        _ = try await send(StopBroadcastingRequest(cid: call))
    }
}
