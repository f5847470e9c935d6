import ConfabProtocol
import JanusProtocol
import XCTest

/// Janus's frames are network input: whatever arrives is read into a typed reply or refused
/// with a typed error, never a crash and never a wrong id.
final class MalformedReplies_Tests: XCTestCase {
    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JanusReplyError? {
        do {
            let reply = try JanusReply.decode(text)
            XCTFail("read \(reply) from \(text)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func test_notJSON_orNotAnObject() {
        XCTAssertEqual(refusal("hello"), .notJSON)
        XCTAssertEqual(refusal(""), .notJSON)
        XCTAssertEqual(refusal(#"["janus","ack"]"#), .notJSON)
        XCTAssertEqual(refusal(#"{"janus":"ack","transaction":"t1""#), .notJSON)
    }

    func test_missingOrUnknownKind() {
        XCTAssertEqual(refusal(#"{"transaction":"t1"}"#), .missingField(path: "janus"))
        XCTAssertEqual(refusal(#"{"janus":"teleport","transaction":"t1"}"#), .unknownKind("teleport"))
        XCTAssertEqual(refusal(#"{"janus":7}"#), .wrongType(path: "janus"))
    }

    func test_kindWithoutItsFields() {
        XCTAssertEqual(refusal(#"{"janus":"ack"}"#), .missingField(path: "transaction"))
        XCTAssertEqual(refusal(#"{"janus":"event","session_id":1,"sender":2}"#), .missingField(path: "plugindata"))
        XCTAssertEqual(refusal(#"{"janus":"error","transaction":"t"}"#), .missingField(path: "error"))
        XCTAssertEqual(refusal(#"{"janus":"webrtcup","session_id":1}"#), .missingField(path: "sender"))
        XCTAssertEqual(refusal(#"{"janus":"event","sender":2,"plugindata":{"plugin":"janus.plugin.videoroom","data":{"room":5}}}"#),
                       .missingField(path: "plugindata.data.videoroom"))
    }

    func test_idsThatAreNotUInt64_areRefused_notRoundedOrDropped() {
        XCTAssertEqual(refusal(#"{"janus":"success","transaction":"t","data":{"id":"12"}}"#), .wrongType(path: "data.id"))
        XCTAssertEqual(refusal(#"{"janus":"success","transaction":"t","data":{"id":-1}}"#), .wrongType(path: "data.id"))
        XCTAssertEqual(refusal(#"{"janus":"success","transaction":"t","data":{"id":1.5}}"#), .wrongType(path: "data.id"))
        XCTAssertEqual(refusal(#"{"janus":"success","transaction":"t","data":{"id":18446744073709551616}}"#), .wrongType(path: "data.id"))
        XCTAssertEqual(refusal(#"{"janus":"webrtcup","sender":null}"#), .missingField(path: "sender"))
        let badFeed = #"{"janus":"event","sender":2,"plugindata":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"event","publishers":[{"id":"x"}]}}}"#
        XCTAssertEqual(refusal(badFeed), .wrongType(path: "plugindata.data.publishers.0.id"))
        let badLeaving = #"{"janus":"event","sender":2,"plugindata":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"event","leaving":"maybe"}}}"#
        XCTAssertEqual(refusal(badLeaving), .wrongType(path: "plugindata.data.leaving"))
    }

    func test_dataFromAnotherPlugin_isRefused() {
        XCTAssertEqual(refusal(#"{"janus":"event","sender":2,"plugindata":{"plugin":"janus.plugin.echotest","data":{"echotest":"event"}}}"#),
                       .unexpectedPlugin("janus.plugin.echotest"))
    }

    func test_hugeOrDeepFrames_areRefusedBeforeParsing() {
        // 513 `[` once killed the process inside Foundation's parser (ARCHITECTURE.md).
        guard case .refused(.tooDeep) = refusal(String(repeating: "[", count: 513)) else { return XCTFail("not refused as too deep") }
        let huge = #"{"janus":"ack","transaction":""# + String(repeating: "x", count: 1 << 20) + #""}"#
        guard case .refused(.tooLarge) = refusal(huge) else { return XCTFail("not refused as too large") }
    }

    func test_unreadableFrame_stillNamesItsTransaction_soItsRequestFailsAtOnce() {
        XCTAssertEqual(JanusReply.transaction(ofUnreadable: #"{"janus":"success","transaction":"t4","data":{"id":-1}}"#), "t4")
        XCTAssertNil(JanusReply.transaction(ofUnreadable: "garbage"))
    }

    /// Every captured frame, mutated 20,000 times in all (byte flips, cuts, inserted brackets and
    /// quotes, numbers swapped for strings, negatives and huge values): each is read or refused
    /// with a JanusReplyError, and the process lives. Seeded, so a failure repeats.
    func test_mutatedCapturedFrames_areReadOrRefused_neverACrash() {
        let frames = [CapturedReplies.createSession, CapturedReplies.attach, CapturedReplies.joined, CapturedReplies.participants,
                      CapturedReplies.noSuchHandle, CapturedReplies.publisherArrived, CapturedReplies.subscriberAttached,
                      CapturedReplies.publishConfigured, CapturedReplies.mediaVideoReceiving, CapturedReplies.serverInfo]
        var random = SplitMix64(seed: 7)
        var read = 0, refused = 0
        for round in 0..<20_000 {
            var bytes = Array(frames[round % frames.count].utf8)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let at = Int(random.next() % UInt64(max(bytes.count, 1)))
                switch random.next() % 6 {
                case 0: if !bytes.isEmpty { bytes[at] = UInt8(truncatingIfNeeded: random.next()) }
                case 1: bytes = Array(bytes.prefix(at))
                case 2: bytes.insert(contentsOf: Array("[{\"".utf8)[Int(random.next() % 3)...].prefix(1), at: min(at, bytes.count))
                case 3: bytes.insert(contentsOf: Array("-1".utf8), at: min(at, bytes.count))
                case 4: bytes.insert(contentsOf: Array("18446744073709551616".utf8), at: min(at, bytes.count))
                default: bytes.insert(contentsOf: Array("\"x\"".utf8), at: min(at, bytes.count))
                }
            }
            do {
                _ = try JanusReply.decode(String(decoding: bytes, as: UTF8.self))
                read += 1
            } catch {
                refused += 1
            }
        }
        XCTAssertEqual(read + refused, 20_000)
        XCTAssertGreaterThan(refused, 10_000, "most mutations break a frame; \(read) were still read")
    }
}

/// A small seeded generator (SplitMix64), so that the mutations are the same on every run.
private struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
