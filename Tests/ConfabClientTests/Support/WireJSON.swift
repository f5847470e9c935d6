/// Hand-written coordinator frames, as the server would send them, for decoding tests.
enum WireJSON {
    /// A call state; `ringing` is a JSON object or null, `session` extras are spliced in.
    static func callState(
        cid: String = "default:standup", createdBy: String = "alice", members: [String] = ["alice", "bob"],
        participants: String = "[]", ringing: String = "null", rejectedBy: String = "{}", endedAt: String = "null",
        blocked: [String] = [], custom: String = "{}"
    ) -> String {
        let memberList = members.map { #"{"userId":"\#($0)","role":"\#($0 == createdBy ? "host" : "user")","createdAt":"2026-01-01T10:00:00.000Z"}"# }
        return #"""
        {"cid":"\#(cid)","createdBy":"\#(createdBy)","createdAt":"2026-01-01T10:00:00.000Z","updatedAt":"2026-01-01T10:00:00.000Z",
         "startsAt":null,"endedAt":\#(endedAt),"backstage":false,"broadcasting":false,"recording":false,
         "members":[\#(memberList.joined(separator: ","))],"blockedUsers":[\#(blocked.map { "\"\($0)\"" }.joined(separator: ","))],"custom":\#(custom),
         "session":{"participants":\#(participants),"ringing":\#(ringing),"acceptedBy":{},"rejectedBy":\#(rejectedBy),"missedBy":[]},
         "ownCapabilities":["joinCall","sendAudio","endCall"]}
        """#
    }

    static func ringing(caller: String = "alice", members: [String] = ["bob"], startedAt: String, autoCancelAt: String) -> String {
        #"{"callerId":"\#(caller)","memberIds":[\#(members.map { "\"\($0)\"" }.joined(separator: ","))],"video":true,"startedAt":"\#(startedAt)","autoCancelAt":"\#(autoCancelAt)"}"#
    }

    static func participant(_ user: String, session: String, pinned: Bool = false) -> String {
        #"{"userId":"\#(user)","sessionId":"\#(session)","role":"user","joinedAt":"2026-01-01T10:00:05.000Z"\#(pinned ? #","pinnedAt":"2026-01-01T10:00:06.000Z""# : "")}"#
    }

    static func event(_ type: String, _ payload: String) -> String {
        #"{"kind":"event","type":"\#(type)","payload":\#(payload)}"#
    }
}
