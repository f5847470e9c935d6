import ConfabCore
import ConfabProtocol

/// Recording, backstage and broadcasting; the resulting state arrives as `callUpdated`.
extension CoordinatorClient {
    public func startRecording(in call: ConfabCore.CallID) async throws {
        _ = try await send(StartRecordingRequest(cid: try call.wireID()))
    }

    public func stopRecording(in call: ConfabCore.CallID) async throws {
        _ = try await send(StopRecordingRequest(cid: try call.wireID()))
    }

    public func goLive(in call: ConfabCore.CallID) async throws {
        _ = try await send(GoLiveRequest(cid: try call.wireID()))
    }

    public func stopLive(in call: ConfabCore.CallID) async throws {
        _ = try await send(StopLiveRequest(cid: try call.wireID()))
    }

    public func startBroadcasting(in call: ConfabCore.CallID) async throws {
        _ = try await send(StartBroadcastingRequest(cid: try call.wireID()))
    }

    public func stopBroadcasting(in call: ConfabCore.CallID) async throws {
        _ = try await send(StopBroadcastingRequest(cid: try call.wireID()))
    }
}
