@testable import ConfabClient
import ConfabProtocol
import Foundation
import XCTest

/// Frames the server could send, well-formed or not; the test server never sends bad ones.
final class InboundFrame_Tests: XCTestCase {
    func test_responseFrame_decode_readsThePayloadAsItsRequestExpects() throws {
        let answers = ExpectedAnswers()
        answers.expect(HealthCheckResponse.self, for: "7")
        let text = #"{"kind":"response","id":"7","type":"healthCheck","payload":{"serverTime":"2026-01-01T10:00:00.000Z"}}"#
        guard case .response(let id, .read(let payload)) = try InboundFrame.decode(text, expecting: answers) else { return XCTFail() }
        XCTAssertEqual(id, "7")
        XCTAssertEqual((payload as? HealthCheckResponse)?.serverTime, Date(timeIntervalSince1970: 1_767_261_600))
        XCTAssertEqual(answers.count, 0, "an answer is awaited once")
    }

    func test_responseWithAPayloadOfTheWrongShape_isUnreadable_andTheRequestIsAnswered() throws {
        let answers = ExpectedAnswers()
        answers.expect(HealthCheckResponse.self, for: "7")
        let text = #"{"kind":"response","id":"7","type":"healthCheck","payload":{"serverTime":"yesterday"}}"#
        guard case .response("7", .unreadable) = try InboundFrame.decode(text, expecting: answers) else { return XCTFail() }
    }

    func test_responseNobodyAwaits_isNotAwaited() throws {
        let answers = ExpectedAnswers()
        answers.expect(HealthCheckResponse.self, for: "7")
        answers.forget("7")
        let text = #"{"kind":"response","id":"7","type":"healthCheck","payload":{"serverTime":"2026-01-01T10:00:00.000Z"}}"#
        guard case .response("7", .notAwaited) = try InboundFrame.decode(text, expecting: answers) else { return XCTFail() }
    }

    func test_answerWithCustomData_readsItInTheSameDecode() throws {
        let answers = ExpectedAnswers()
        answers.expect(CallResponse.self, for: "9")
        let call = WireJSON.callState(custom: #"{"topic":"planning","n":[1,2,{"deep":true}]}"#)
        let text = #"{"kind":"response","id":"9","type":"getCall","payload":{"call":\#(call)}}"#
        guard case .response("9", .read(let payload)) = try InboundFrame.decode(text, expecting: answers) else { return XCTFail(text) }
        let custom = try XCTUnwrap(payload as? CallResponse).call.custom
        XCTAssertEqual(custom["topic"], .string("planning"))
        XCTAssertEqual(custom["n"], .array([.number(1), .number(2), .object(["deep": .bool(true)])]))
    }

    func test_errorFrame_decode_givesTheProtocolError() throws {
        let text = #"{"kind":"error","id":"3","type":"joinCall","error":{"code":"callNotFound","message":"call default:x does not exist"}}"#
        guard case .error(let id, let error) = try InboundFrame.decode(text) else { return XCTFail() }
        XCTAssertEqual(id, "3")
        XCTAssertEqual(error, ProtocolError(.callNotFound, "call default:x does not exist"))
    }

    func test_errorFrameWithoutId_decode_givesTheErrorWithNoId() throws {
        let text = #"{"kind":"error","id":null,"error":{"code":"malformedJSON","message":"not JSON"}}"#
        guard case .error(let id, _) = try InboundFrame.decode(text) else { return XCTFail() }
        XCTAssertNil(id)
    }

    func test_ringEvent_decode_givesTheTypedEvent() throws {
        let ring = WireJSON.ringing(startedAt: "2026-01-01T10:00:00.000Z", autoCancelAt: "2026-01-01T10:00:30.000Z")
        let text = WireJSON.event("call.ring", #"{"call":\#(WireJSON.callState(ringing: ring)),"callerId":"alice","memberIds":["bob"],"video":true}"#)
        guard case .event(.callRing(let event)) = try InboundFrame.decode(text) else { return XCTFail() }
        XCTAssertEqual(event.callerId, "alice")
        XCTAssertEqual(event.call.session.ringing?.memberIds, ["bob"])
    }

    func test_eventOfANewerServer_decode_isKeptAsUnknown() throws {
        let text = WireJSON.event("call.poll_started", #"{"question":"lunch?"}"#)
        guard case .event(.unknown(let type)) = try InboundFrame.decode(text) else { return XCTFail() }
        XCTAssertEqual(type, "call.poll_started")
    }

    func test_malformedFrames_decode_areUnreadableNotCrashes() {
        let frames = [
            "",
            "not json",
            "[1,2,3]",
            #"{"kind":"shout"}"#,
            #"{"kind":"response","type":"hello","payload":{}}"#,
            #"{"kind":"request","id":"1","type":"hello","payload":{}}"#,
            #"{"kind":"error","id":"1"}"#,
            #"{"kind":"event","type":"call.ring","payload":{"callerId":"alice"}}"#,
            #"{"kind":"event","type":"call.ring","payload":{"call":{"cid":"nonsense"}}}"#,
            #"{"kind":"event","type":"health.check","payload":{"connectionId":"c","serverTime":"yesterday"}}"#,
            #"{"kind":"event","payload":{}}"#,
            String(repeating: "{", count: 10_000),
        ]
        for text in frames {
            XCTAssertThrowsError(try InboundFrame.decode(text), "accepted: \(text.prefix(80))") { error in
                XCTAssertTrue(error is UnreadableFrame)
            }
        }
    }

    func test_unreadableFrame_description_keepsOnlyTheStartOfTheFrame() {
        let error = UnreadableFrame(reason: "too odd", text: String(repeating: "x", count: 5000))
        XCTAssertLessThan(error.description.count, 300)
    }

    func test_513OpenBrackets_fromAHostileServer_isRefusedBeforeParsing_notACrash() {
        // Foundation's parser traps on this input; the app must drop it, not die.
        XCTAssertThrowsError(try InboundFrame.decode(String(repeating: "[", count: 513))) { error in
            XCTAssertTrue("\(error)".contains("nested deeper than 32 levels"), "\(error)")
        }
    }

    func test_eventNested500Deep_isRefusedBeforeParsing() {
        let text = WireJSON.event("call.poll_started", #"{"p":"# + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}")
        XCTAssertThrowsError(try InboundFrame.decode(text))
    }
}
