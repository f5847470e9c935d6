import ConfabCore
@testable import ConfabMedia
import ConfabTestSupport
import Foundation
@testable import GLibBridge
import Logging
import XCTest

/// A join builds the speaker's, the publisher's and each subscriber's pipelines on the main
/// thread, on its way to the first frame. The first time in a process GStreamer also loads each
/// element's plugin and sets up its class there. The warm-up does that beforehand on a thread of
/// its own (`CallMediaWarmUp`), so every element those pipelines make is ready before a join.
final class CallMediaWarmUp_Tests: XCTestCase {
    private static let childVariable = "CONFAB_WARM_UP_TEST_CHILD"

    func test_afterTheWarmUp_everyElementAJoinBuildsIsReady() throws {
        // In a process of its own: this one has built pipelines of every kind already.
        guard ProcessInfo.processInfo.environment[Self.childVariable] == "1" else {
            _ = try runTestInItsOwnProcess("ConfabMediaTests.CallMediaWarmUp_Tests/test_afterTheWarmUp_everyElementAJoinBuildsIsReady",
                                           adding: [Self.childVariable: "1"])
            return
        }
        try onMain {
            GStreamer.initialize()
            CallMediaWarmUp.prepareElements()
            let ready = GStreamer.preparedElementFactories()

            // What a join makes: the speaker, the publisher, a subscriber for someone already in
            // the call, and (on a streaming thread, as that someone's streams come) their decoding.
            let logger = Logger(label: "warm-up-test")
            let configuration = CallMediaConfiguration(janusURL: "ws://127.0.0.1:9", room: 1, token: "", userID: "ada", sessionID: "ada-1")
            let speaker = try CallSpeaker(sink: "fakesink sync=true", logger: logger)
            let publisher = try Publisher(configuration: configuration,
                                          devices: CallMediaDevices(camera: TestDevice.camera.device, microphone: TestDevice.toneMicrophone.device,
                                                                    speaker: nil),
                                          deviceSource: GStreamerDeviceSource(includeTestDevices: true),
                                          echoProbeName: speaker.echoProbeName, logger: logger)
            let subscriber = try Subscriber(feed: 1, configuration: configuration,
                                            speakerSink: CallSpeaker.receiverSink(feed: 1, probeName: speaker.echoProbeName), logger: logger)
            let speakerSink = CallSpeaker.receiverSink(feed: 1, probeName: speaker.echoProbeName)
            let decoding = try Subscriber.incomingBranches(speakerSink: speakerSink).values.map {
                try MediaPipeline(description: $0.replacingOccurrences(of: "{n}", with: "1"))
            }
            let made = decoding.reduce(speaker.pipeline.elementFactoryNames) { $0.union($1.elementFactoryNames) }
                .union(publisher.pipeline.elementFactoryNames)
                .union(subscriber.pipeline.elementFactoryNames)
            XCTAssertTrue(["webrtcbin", "vp8enc", "vp8dec", "opusdec"].allSatisfy(made.contains), "not the pipelines of a join: \(made.sorted())")
            XCTAssertEqual(made.subtracting(ready).sorted(), [], "elements a join would set up itself, on its main thread or as streams come")
            decoding.forEach { $0.stop() }
            subscriber.pipeline.stop()
            publisher.pipeline.stop()
            speaker.pipeline.stop()
        }
    }
}
