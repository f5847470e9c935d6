/// Host actions from the participants panel. Each is offered only when `ownCapabilities`
/// allow it (the coordinator checks again); a refusal is shown to the user.
extension CallViewModel {
    public func canModerate(_ capability: String) -> Bool { ownCapabilities.contains(capability) }

    public func mute(_ participant: CallParticipant) async {
        await moderate("mute \(participant.name)") { try await $0.muteUser(participant.user.id, in: $1) }
    }

    public func block(_ participant: CallParticipant) async {
        await moderate("block \(participant.name)") { try await $0.blockUser(participant.user.id, in: $1) }
    }

    public func unblock(_ user: User) async {
        await moderate("unblock \(user.name)") { try await $0.unblockUser(user.id, in: $1) }
    }

    public func kick(_ participant: CallParticipant) async {
        await moderate("remove \(participant.name)") { try await $0.kickUser(participant.user.id, in: $1) }
    }

    /// Pins for everyone, or unpins if pinned already.
    public func togglePinForEveryone(_ participant: CallParticipant) async {
        if participant.isPinned {
            await moderate("unpin \(participant.name)") { try await $0.unpinForEveryone(participant, in: $1) }
        } else {
            await moderate("pin \(participant.name)") { try await $0.pinForEveryone(participant, in: $1) }
        }
    }

    /// A moderator turned off our microphone, camera and/or screen share: turn them off here
    /// (the coordinator only relays the request; each device mutes itself) and say who did.
    /// The user may turn them on again, as in the Stream SDK.
    func mutedByModerator(_ moderatorID: String, tracks: ModeratedTracks) {
        var turnedOff: [String] = []
        if tracks.contains(.microphone), callSettings.audioOn {
            // Holding push-to-talk does not keep the microphone open against a moderator.
            if isPushToTalkActive { endPushToTalk() } else { toggleMicrophoneEnabled() }
            turnedOff.append("microphone")
        }
        if tracks.contains(.camera), callSettings.videoOn {
            toggleCameraEnabled()
            turnedOff.append("camera")
        }
        if tracks.contains(.screenshare), isCurrentUserScreensharing {
            Task { await stopScreensharing() }
            turnedOff.append("screen sharing")
        }
        guard !turnedOff.isEmpty else { return }
        let moderator = callParticipants.values.first { $0.user.id == moderatorID }?.name ?? moderatorID
        let list = turnedOff.count == 1 ? turnedOff[0] : turnedOff.dropLast().joined(separator: ", ") + " and " + turnedOff.last!
        show("\(moderator) turned off your \(list)")
    }

    private func moderate(_ what: String, _ action: @MainActor (CallService, CallID) async throws -> Void) async {
        guard let callService, let call = activeCall else { return }
        do {
            try await action(callService, call)
        } catch {
            show("Couldn’t \(what): \(error)")
        }
    }
}
