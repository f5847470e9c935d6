// libFuzzer harness for the decoding of untrusted frames: FrameGuard, then every decode the
// server and the apps run on a frame (the envelope of every request type, responses' headers,
// errors, events, free-form JSON, and JSONValue's own parser checked against JSONDecoder). Built with `-sanitize=fuzzer` together with the sources of
// ConfabProtocol and JanusProtocol (one module, no package build needed) by meson-helpers/fuzz-frame-decoder.
//
// What counts as a finding: a crash or trap (what the 513-`[` frame did to confab-server), a
// frame slower than libFuzzer's -timeout, or a frame FrameGuard let through deeper than its limit.
import Foundation

private let limits = FrameGuard.Limits.coordinator

@_cdecl("LLVMFuzzerTestOneInput")
public func frameDecoderFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let frame = Data(bytes: start, count: count)
    do {
        try FrameGuard.check(frame, limits: limits)
    } catch {
        return 0
    }
    precondition(nestingDepth(frame) <= limits.maxDepth, "FrameGuard let a frame through deeper than \(limits.maxDepth)")
    let decoder = ConfabJSON.decoder()
    _ = try? decoder.decode(MessageHeader.self, from: frame)
    _ = try? decoder.decode(ErrorEnvelope.self, from: frame)
    _ = try? decoder.decode(EventEnvelope.self, from: frame)
    // JSONValue(parsing:) is our own parser of untrusted bytes: where both read a frame, they
    // must read the same values (where only JSONDecoder does, e.g. text after a NUL, the lookup
    // is not used and decoding falls back to trying shapes).
    if let byTrial = try? decoder.decode(JSONValue.self, from: frame), let parsed = try? JSONValue(parsing: frame) {
        precondition(parsed == byTrial, "JSONValue(parsing:) read \(parsed), JSONDecoder \(byTrial)")
    }
    _ = try? ConfabJSON.decoder(preparsing: frame).decode(RequestEnvelope<GetOrCreateCallRequest>.self, from: frame)
    for type in RequestType.allCases { decodeRequest(type, frame, decoder) }
    // Janus's frames, as the apps and the coordinator read them (JanusProtocol): a typed reply
    // or a typed error, never a trap.
    let text = String(decoding: frame, as: UTF8.self)
    _ = try? JanusReply.decode(text)
    _ = JanusReply.transaction(ofUnreadable: text)
    return 0
}

/// The envelope of each request type, as the server decodes it once it knows the type.
private func decodeRequest(_ type: RequestType, _ frame: Data, _ decoder: JSONDecoder) {
    func envelope<R: ConfabRequest>(_: R.Type) { _ = try? decoder.decode(RequestEnvelope<R>.self, from: frame) }
    switch type {
    case .hello: envelope(HelloRequest.self)
    case .healthCheck: envelope(HealthCheckRequest.self)
    case .getOrCreateCall: envelope(GetOrCreateCallRequest.self)
    case .getCall: envelope(GetCallRequest.self)
    case .joinCall: envelope(JoinCallRequest.self)
    case .leaveCall: envelope(LeaveCallRequest.self)
    case .ringCall: envelope(RingCallRequest.self)
    case .acceptCall: envelope(AcceptCallRequest.self)
    case .rejectCall: envelope(RejectCallRequest.self)
    case .endCall: envelope(EndCallRequest.self)
    case .updateCall: envelope(UpdateCallRequest.self)
    case .addMembers: envelope(AddMembersRequest.self)
    case .removeMembers: envelope(RemoveMembersRequest.self)
    case .blockUser: envelope(BlockUserRequest.self)
    case .unblockUser: envelope(UnblockUserRequest.self)
    case .muteUsers: envelope(MuteUsersRequest.self)
    case .kickUser: envelope(KickUserRequest.self)
    case .pinForEveryone: envelope(PinForEveryoneRequest.self)
    case .unpinForEveryone: envelope(UnpinForEveryoneRequest.self)
    case .startRecording: envelope(StartRecordingRequest.self)
    case .stopRecording: envelope(StopRecordingRequest.self)
    case .goLive: envelope(GoLiveRequest.self)
    case .stopLive: envelope(StopLiveRequest.self)
    case .startBroadcasting: envelope(StartBroadcastingRequest.self)
    case .stopBroadcasting: envelope(StopBroadcastingRequest.self)
    case .resetCallLink: envelope(ResetCallLinkRequest.self)
    case .sendChatMessage: envelope(SendChatMessageRequest.self)
    case .getChatHistory: envelope(GetChatHistoryRequest.self)
    case .sendReaction: envelope(SendReactionRequest.self)
    case .updateVideoViews: envelope(UpdateVideoViewsRequest.self)
    case .raiseHand: envelope(RaiseHandRequest.self)
    case .lowerHand: envelope(LowerHandRequest.self)
    case .admitParticipant: envelope(AdmitParticipantRequest.self)
    case .denyParticipant: envelope(DenyParticipantRequest.self)
    }
}

/// An independent count of the deepest nesting outside strings, to check FrameGuard against.
private func nestingDepth(_ frame: Data) -> Int {
    var depth = 0, deepest = 0, inString = false, escaped = false
    for byte in frame {
        if inString {
            if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
        } else if byte == 0x22 {
            inString = true
        } else if byte == 0x5B || byte == 0x7B {
            depth += 1
            deepest = max(deepest, depth)
        } else if byte == 0x5D || byte == 0x7D {
            depth = max(0, depth - 1)
        }
    }
    return deepest
}
