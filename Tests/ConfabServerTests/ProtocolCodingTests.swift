import ConfabProtocol
import Foundation
import XCTest

/// The wire format as a client sees it, without a server.
final class ProtocolCodingTests: XCTestCase {
    func test_callID_typeColonId_parsesAndPrintsBack() throws {
        let cid = try CallID.parse("audio_room:town-hall.1")
        XCTAssertEqual(cid.type, .audioRoom)
        XCTAssertEqual(cid.id, "town-hall.1")
        XCTAssertEqual(cid.description, "audio_room:town-hall.1")
    }

    func test_callID_malformed_explainsWhy() {
        XCTAssertThrowsError(try CallID.parse("standup")) { XCTAssertEqual($0 as? CallIDError, .missingColon("standup")) }
        XCTAssertThrowsError(try CallID.parse("zoom:x")) { XCTAssertEqual($0 as? CallIDError, .unknownCallType("zoom")) }
        XCTAssertThrowsError(try CallID.parse("default:")) { XCTAssertEqual($0 as? CallIDError, .invalidID("")) }
        XCTAssertThrowsError(try CallID.parse("default:a b")) { XCTAssertEqual($0 as? CallIDError, .invalidID("a b")) }
    }

    func test_requestEnvelope_encoded_hasKindIdTypeAndPayload() throws {
        let data = try ConfabJSON.encoder().encode(RequestEnvelope(id: "1", payload: JoinCallRequest(cid: CallID(type: .default, id: "x"))))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"id":"1","kind":"request","payload":{"cid":"default:x"},"type":"joinCall"}"#)
    }

    func test_eventEnvelope_roundTrips() throws {
        let event = ServerEvent.usersMuted(UsersMutedEvent(
            cid: CallID(type: .default, id: "x"), userIds: ["bob"], byUserId: "alice", audio: true, video: false, screenshare: false))
        let data = try ConfabJSON.encoder().encode(EventEnvelope(event: event))
        let header = try JSONDecoder().decode(MessageHeader.self, from: data)
        XCTAssertEqual(header, MessageHeader(kind: .event, type: "call.user_muted"))
        XCTAssertEqual(try ConfabJSON.decoder().decode(EventEnvelope.self, from: data).event, event)
    }

    func test_eventOfUnknownType_decodesAsUnknownInsteadOfFailing() throws {
        let data = Data(#"{"kind":"event","type":"call.poll_started","payload":{"question":"x"}}"#.utf8)
        XCTAssertEqual(try ConfabJSON.decoder().decode(EventEnvelope.self, from: data).event, .unknown(type: "call.poll_started"))
    }

    func test_dates_encodeWithMilliseconds_andDecodeWithOrWithoutThem() throws {
        let date = Date(timeIntervalSince1970: 1_900_000_000.25)
        let encoded = try ConfabJSON.encoder().encode(["at": date])
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #"{"at":"2030-03-17T17:46:40.250Z"}"#)
        XCTAssertEqual(try ConfabJSON.decoder().decode([String: Date].self, from: encoded)["at"], date)
        let plain = Data(#"{"at":"2030-03-17T17:46:40Z"}"#.utf8)
        XCTAssertEqual(try ConfabJSON.decoder().decode([String: Date].self, from: plain)["at"], Date(timeIntervalSince1970: 1_900_000_000))
    }

    func test_jsonValue_nestedCustomData_roundTrips() throws {
        let custom: [String: JSONValue] = ["a": .array([.null, .bool(true), .number(1.5), .string("s")]), "o": .object(["k": .string("v")])]
        let data = try ConfabJSON.encoder().encode(custom)
        XCTAssertEqual(try ConfabJSON.decoder().decode([String: JSONValue].self, from: data), custom)
    }

    func test_freeFormJSON_decodedFromTheParsedFrame_equalsTheTrialDecoding() throws {
        // Both ways of reading `custom` (issue 16: the lookup replaced trial decodes per value).
        let frame = Data(#"""
            {"kind":"request","id":"1","type":"getOrCreateCall","payload":{"cid":"default:x","custom":{
            "flags":[true,false,0,1,-2e10,1.5,null],"text":"é\u00e9\ud83d\ude00\"","deep":[[[{"a":[{}]}]]],"empty":{},"twice":1,"twice":2}}}
            """#.utf8)
        let byTrial = try ConfabJSON.decoder().decode(RequestEnvelope<GetOrCreateCallRequest>.self, from: frame).payload
        let byLookup = try ConfabJSON.decoder(preparsing: frame).decode(RequestEnvelope<GetOrCreateCallRequest>.self, from: frame).payload
        XCTAssertEqual(byLookup.custom, byTrial.custom)
        XCTAssertEqual(byLookup.custom?["flags"], .array([.bool(true), .bool(false), .number(0), .number(1), .number(-2e10), .number(1.5), .null]))
        XCTAssertEqual(byLookup.custom?["text"], .string("éé😀\""))
        // A repeated key keeps its first value in both (the fuzzer found the lookup keeping the last).
        XCTAssertEqual(byLookup.custom?["twice"], .number(1))
    }
}
