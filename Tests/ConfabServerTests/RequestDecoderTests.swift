import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// One typed decode per frame (issue 16): the envelope and the payload come out of the same
/// pass, the payload's error is kept for later with its path, and free-form `custom` data is
/// read from the frame parsed only when there is some.
final class RequestDecoderTests: XCTestCase {
    private func decode(_ text: String) -> Result<IncomingRequest, ErrorEnvelope> {
        RequestDecoder.envelope(of: Data(text.utf8))
    }

    func test_oneFrame_givesTheEnvelopeAndTheTypedPayload() throws {
        let request = try decode(#"{"kind":"request","id":"7","type":"joinCall","payload":{"cid":"default:standup","linkSecret":"abc"}}"#).get()
        XCTAssertEqual(request.id, "7")
        XCTAssertEqual(request.type, .joinCall)
        let join = try XCTUnwrap(try request.payload.get() as? JoinCallRequest)
        XCTAssertEqual(join.cid, CallID(type: .default, id: "standup"))
        XCTAssertEqual(join.linkSecret, "abc")
    }

    func test_payloadOfTheWrongShape_isTheRequestsError_namingThePath_withTheEnvelopeKept() throws {
        let request = try decode(#"{"kind":"request","id":"8","type":"getCall","payload":{"cid":5}}"#).get()
        XCTAssertEqual(request.id, "8")
        XCTAssertThrowsError(try request.payload.get()) { error in
            XCTAssertEqual((error as? ProtocolError)?.message, "payload.cid: expected a string")
        }
    }

    func test_missingPayload_isTheRequestsError() throws {
        let request = try decode(#"{"kind":"request","id":"9","type":"getCall"}"#).get()
        XCTAssertThrowsError(try request.payload.get()) { error in
            XCTAssertEqual((error as? ProtocolError)?.message, "missing field 'payload'")
        }
    }

    func test_unknownType_isRefusedWithItsNameAndTheID() {
        guard case .failure(let refusal) = decode(#"{"kind":"request","id":"10","type":"teleport","payload":{}}"#) else {
            return XCTFail("an unknown request type was accepted")
        }
        XCTAssertEqual(refusal.id, "10")
        XCTAssertEqual(refusal.type, "teleport")
        XCTAssertEqual(refusal.error.code, .unknownRequestType)
    }

    func test_idOfTheWrongType_isRefusedWithoutAnID() {
        guard case .failure(let refusal) = decode(#"{"kind":"request","id":11,"type":"getCall","payload":{"cid":"default:x"}}"#) else {
            return XCTFail("a numeric id was accepted")
        }
        XCTAssertNil(refusal.id)
        XCTAssertEqual(refusal.error.message, "id: expected a string")
    }

    func test_freeFormCustomData_isReadWhole_fromTheFrameParsedOnDemand() throws {
        let request = try decode(#"{"kind":"request","id":"12","type":"updateCall","payload":{"cid":"default:x","custom":{"agenda":["one",{"done":true,"n":2.5}],"none":null}}}"#).get()
        let update = try XCTUnwrap(try request.payload.get() as? UpdateCallRequest)
        XCTAssertEqual(update.custom, [
            "agenda": .array([.string("one"), .object(["done": .bool(true), "n": .number(2.5)])]),
            "none": .null,
        ])
    }
}
