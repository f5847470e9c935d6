@testable import ConfabClient
import ConfabCore
import ConfabProtocol
import XCTest

/// What the user reads when the coordinator refuses or does not answer.
final class CallErrorWording_Tests: XCTestCase {
    func test_forbiddenEnd_refused_saysWhatFailedWhyAndWhatToDo() {
        let error = CallError.refused(ProtocolError(.forbidden, "bob lacks endCall in default:standup"), request: .endCall)
        XCTAssertEqual(error.message, "Couldn’t end the call: bob lacks endCall in default:standup. Ask the call’s host for permission.")
    }

    func test_conflict_refused_hasNoAdvice() {
        let error = CallError.refused(ProtocolError(.conflict, "recording already started"), request: .startRecording)
        XCTAssertEqual(error.message, "The call server refused “startRecording”: recording already started.")
    }

    func test_timeout_sentence_namesTheWait() {
        XCTAssertEqual(CallError.timedOut(.joinCall, after: .seconds(10)).message,
                       "Couldn’t join the call: the call server did not answer within 10 seconds. Check your connection and try again.")
    }
}
