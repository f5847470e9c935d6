/// Recording, going live and broadcasting from the call window. Offered only with the matching
/// capability (the coordinator checks again); a refusal is shown to the user.
extension CallViewModel {
    public var canRecord: Bool { canModerate("startRecording") }
    public var canBroadcast: Bool { canModerate("startBroadcasting") }
    public var canGoLive: Bool { canModerate("goLive") }

    public func toggleRecording() async {
        await production(isRecording || recordingState == "requested" ? "stop recording" : "start recording") { service, call in
            if self.isRecording || self.recordingState == "requested" {
                try await service.stopRecording(in: call)
            } else {
                try await service.startRecording(in: call)
            }
        }
    }

    public func toggleBroadcasting() async {
        await production(isBroadcasting ? "stop the broadcast" : "start the broadcast") { service, call in
            if self.isBroadcasting { try await service.stopBroadcasting(in: call) } else { try await service.startBroadcasting(in: call) }
        }
    }

    public func toggleLive() async {
        await production(isBackstage ? "go live" : "go back to backstage") { service, call in
            if self.isBackstage { try await service.goLive(in: call) } else { try await service.stopLive(in: call) }
        }
    }

    private func production(_ what: String, _ action: @MainActor (CallService, CallID) async throws -> Void) async {
        guard let callService, let call = activeCall else { return }
        do {
            try await action(callService, call)
        } catch {
            show(Self.explain(error, whileTrying: what))
        }
    }
}
