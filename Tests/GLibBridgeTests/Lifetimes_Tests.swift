import ConfabTestSupport
import Foundation
import GLibBridge
import XCTest

/// What the binding layer holds for Swift (signal closures, bus watches, frame handlers) and the
/// C objects it owns go when their owner goes: nothing outlives the window or pipeline it served.
final class Lifetimes_Tests: XCTestCase {
    /// Something a handler captures; weakly watched to see when the handler is freed.
    private final class Captured {}

    func test_signalHandler_closureIsFreed_whenItsObjectGoes() throws {
        try XCTSkipUnless(Settings.isInstalled("org.gnome.desktop.privacy"), "needs gsettings-desktop-schemas")
        onMain {
            weak var captured: Captured?
            var watch: FinalizationWatch?
            do {
                guard let settings = Settings(schemaID: "org.gnome.desktop.privacy") else { return XCTFail("schema") }
                let held = Captured()
                captured = held
                _ = settings.onChange(of: "disable-camera") { _ = held }
                watch = settings.watchFinalization()
            }
            XCTAssertEqual(watch?.isFinalized, true, "the GSettings object is finalized with its wrapper")
            XCTAssertNil(captured, "the handler's closure (and what it captured) is released with the object")
        }
    }

    func test_signalHandler_closureIsFreed_onDisconnect_whileTheObjectLives() throws {
        try XCTSkipUnless(Settings.isInstalled("org.gnome.desktop.privacy"), "needs gsettings-desktop-schemas")
        onMain {
            guard let settings = Settings(schemaID: "org.gnome.desktop.privacy") else { return XCTFail("schema") }
            weak var captured: Captured?
            var connection: SignalConnection?
            do {
                let held = Captured()
                captured = held
                connection = settings.onChange(of: "disable-camera") { _ = held }
            }
            XCTAssertNotNil(captured, "held while connected")
            connection?.disconnect()
            XCTAssertNil(captured, "released at disconnect")
            XCTAssertFalse(settings.watchFinalization().isFinalized)
        }
    }

    func test_pipeline_elementsAreFinalized_andHandlersFreed_afterStop() throws {
        try onMain {
            weak var frameHandlerCapture: Captured?
            weak var busHandlerCapture: Captured?
            var watches: [FinalizationWatch] = []
            var frames = 0
            do {
                let pipeline = try MediaPipeline(description:
                    "videotestsrc name=camera ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! appsink name=sink")
                let forFrames = Captured(), forBus = Captured()
                frameHandlerCapture = forFrames
                busHandlerCapture = forBus
                pipeline.receiveVideoFrames(fromAppSink: "sink") { _ in _ = forFrames; frames += 1 }
                pipeline.watchBus { _ in _ = forBus }
                watches = ["camera", "sink"].compactMap { pipeline.watchFinalization(ofElement: $0) }
                XCTAssertEqual(watches.count, 2)
                try pipeline.play()
                XCTAssertTrue(MainLoop.iterate(until: { frames >= 3 }, timeout: 5), "frames arrive while it plays")
                pipeline.stop()
            }
            XCTAssertTrue(MainLoop.iterate(until: { watches.allSatisfy(\.isFinalized) }, timeout: 2),
                          "every element is finalized once the stopped pipeline's owner is gone")
            XCTAssertNil(frameHandlerCapture, "the frame handler is released")
            XCTAssertNil(busHandlerCapture, "the bus handler is released")
        }
    }
}
