import ConfabTestSupport
import Foundation
import XCTest

/// Echo cancellation and noise suppression on the microphone, heard at the far end through a
/// real Janus. Each behaviour is measured twice in the same run — processing on, and the same
/// call with it off — and the test compares what the far end heard.
///
/// Echo call (three pairs, each in its own call, cameras off): the near end (bob, dave, fay) is in
/// a simulated room — its test speaker's sound comes back into its microphone ~50 ms later at
/// −6 dB — and sends its own 1000 Hz tone; the far end (alice, carol, erin) sends 440 Hz and
/// listens in a band around each frequency. bob cancels echo, dave does not, fay cancels, mutes
/// her speaker 3 s in, unmutes it at 4.5 s and switches to a second microphone and speaker (both
/// in the same room) 6 s in.
///
/// Noise call (two pairs): the near end (gus, ivan) sends 1000 Hz bursts (0.4 s a second) with
/// white noise under them; gus suppresses noise, ivan does not; the far end (hana, jo) listens.
///
/// The harness sends tones without noise suppression and gain control unless asked (see
/// media-call.sh); here each near end says what it uses.
final class AudioProcessing_EndToEndTests: XCTestCase {
    private static let seconds = "14"
    /// The far end cancels no echo of its own: with nothing but its steady 440 Hz tone in the
    /// microphone and that same tone coming back from the near end, its canceller would take its
    /// own tone for echo and cut it on and off (a test-signal loop; voices are not periodic).
    private static func farEnd(_ call: String) -> [String] {
        ["join", call, "--create", "--duration", seconds, "--join-camera-off", "--tone", "440", "--volume", "0.5", "--listen", "440", "1000",
         "--no-echo-cancellation"]
    }
    private static func nearEnd(_ call: String) -> [String] {
        ["join", call, "--create", "--duration", seconds, "--join-camera-off", "--tone", "1000", "--volume", "0.25", "--simulated-room"]
    }
    private static let echoPeers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: farEnd("default:echo-cancelled")),
        MediaCall.Peer(user: "bob", joinsAfter: 0, arguments: nearEnd("default:echo-cancelled") + ["--echo-cancellation"]),
        MediaCall.Peer(user: "carol", joinsAfter: 0, arguments: farEnd("default:echo-kept")),
        MediaCall.Peer(user: "dave", joinsAfter: 0, arguments: nearEnd("default:echo-kept") + ["--no-echo-cancellation"]),
        MediaCall.Peer(user: "erin", joinsAfter: 0, arguments: farEnd("default:echo-switch")),
        MediaCall.Peer(user: "fay", joinsAfter: 0, arguments: nearEnd("default:echo-switch")
            + ["--echo-cancellation", "--speaker-off-after", "3", "--speaker-on-after", "4.5", "--switch-devices-after", "6",
               "--next-volume", "0.25"]),
    ]
    /// Seconds after the far end started listening: media is up and the canceller has adapted
    /// well before (it takes 1–2 s), and the call is still on.
    private static let settled = (from: 8.0, to: 13.0)
    /// For the pair that switches devices 6 s in: after the switch, with time to adapt again.
    private static let afterSwitch = (from: 10.0, to: 13.0)

    private static func noisyNearEnd(_ call: String) -> [String] {
        ["join", call, "--create", "--duration", "12", "--join-camera-off", "--tone", "1000", "--tone-bursts", "--volume", "0.4",
         "--noise", "0.05"]
    }
    private static func listener(_ call: String) -> [String] {
        ["join", call, "--create", "--duration", "12", "--join-camera-off", "--volume", "0", "--listen", "1000"]
    }
    private static let noisePeers = [
        MediaCall.Peer(user: "gus", joinsAfter: 0, arguments: noisyNearEnd("default:noise-suppressed") + ["--noise-suppression"]),
        MediaCall.Peer(user: "hana", joinsAfter: 0, arguments: listener("default:noise-suppressed")),
        MediaCall.Peer(user: "ivan", joinsAfter: 0, arguments: noisyNearEnd("default:noise-kept") + ["--no-noise-suppression"]),
        MediaCall.Peer(user: "jo", joinsAfter: 0, arguments: listener("default:noise-kept")),
    ]
    private static let noiseWindow = (from: 6.0, to: 11.0)

    // MARK: Echo

    func test_echoCancellation_farEndHearsItsOwnToneComeBackAtLeast20dBQuieter() async throws {
        let reports = try await echoReports()
        let kept = try median(try heard(by: "carol", in: reports).readings("440", from: Self.settled.from, to: Self.settled.to))
        let cancelled = try median(try heard(by: "alice", in: reports).readings("440", from: Self.settled.from, to: Self.settled.to))
        // Without cancellation the room must really bring the tone back, or there is nothing to compare.
        XCTAssertGreaterThan(kept, -30, "carol hardly heard her own tone come back from dave's room (\(kept) dBFS): the simulated room is broken")
        XCTAssertGreaterThanOrEqual(kept - cancelled, 20,
                                    "alice heard her tone come back at \(cancelled) dBFS with echo cancellation, carol at \(kept) dBFS without")
    }

    func test_echoCancellation_nearEndsOwnTonePassesWithin3dB() async throws {
        let reports = try await echoReports()
        let kept = try median(try heard(by: "carol", in: reports).readings("1000", from: Self.settled.from, to: Self.settled.to))
        let cancelled = try median(try heard(by: "alice", in: reports).readings("1000", from: Self.settled.from, to: Self.settled.to))
        XCTAssertGreaterThan(kept, -30, "carol hardly heard dave's own tone (\(kept) dBFS)")
        XCTAssertEqual(cancelled, kept, accuracy: 3, "bob's tone reached alice at \(cancelled) dBFS with echo cancellation, dave's carol at \(kept) dBFS without")
    }

    func test_echoCancellation_keepsWorkingAfterTheSpeakerIsMutedAndTheMicrophoneAndSpeakerAreSwitched() async throws {
        let reports = try await echoReports()
        XCTAssertNotNil(reports["fay"]?.media?.devicesSwitchedAt, "fay never switched devices")
        XCTAssertEqual(reports["fay"]?.media?.speaker?.map(\.on), [false, true], "fay did not mute and unmute her speaker")
        let kept = try median(try heard(by: "carol", in: reports).readings("440", from: Self.afterSwitch.from, to: Self.afterSwitch.to))
        let cancelled = try median(try heard(by: "erin", in: reports).readings("440", from: Self.afterSwitch.from, to: Self.afterSwitch.to))
        XCTAssertGreaterThanOrEqual(kept - cancelled, 20,
                                    "after fay switched devices erin heard her tone come back at \(cancelled) dBFS; carol (no cancellation) at \(kept) dBFS")
        let near = try median(try heard(by: "erin", in: reports).readings("1000", from: Self.afterSwitch.from, to: Self.afterSwitch.to))
        XCTAssertGreaterThan(near, -30, "erin no longer heard fay's own tone after the switch (\(near) dBFS)")
    }

    // MARK: Noise

    func test_noiseSuppression_lowersTheFarEndsNoiseFloorBetweenBurstsBy10dBOrMore() async throws {
        let reports = try await noiseReports()
        let kept = try noiseFloor(try heard(by: "jo", in: reports).readings("all", from: Self.noiseWindow.from, to: Self.noiseWindow.to))
        let suppressed = try noiseFloor(try heard(by: "hana", in: reports).readings("all", from: Self.noiseWindow.from, to: Self.noiseWindow.to))
        XCTAssertGreaterThan(kept, -45, "jo hardly heard ivan's noise (\(kept) dBFS): the noisy microphone is broken")
        XCTAssertGreaterThanOrEqual(kept - suppressed, 10,
                                    "between bursts hana heard \(suppressed) dBFS with noise suppression, jo \(kept) dBFS without")
    }

    func test_noiseSuppression_theTonesBurstsStillComeThrough() async throws {
        let reports = try await noiseReports()
        let kept = try percentile(0.95, try heard(by: "jo", in: reports).readings("1000", from: Self.noiseWindow.from, to: Self.noiseWindow.to))
        let suppressed = try percentile(0.95, try heard(by: "hana", in: reports).readings("1000", from: Self.noiseWindow.from, to: Self.noiseWindow.to))
        XCTAssertEqual(suppressed, kept, accuracy: 6, "the bursts reached hana at \(suppressed) dBFS with noise suppression, jo at \(kept) dBFS without")
    }

    // MARK: Helpers

    private func echoReports() async throws -> [String: MediaPeerReport] {
        try await MediaCall.reports(for: "echo", peers: Self.echoPeers) { reports in
            Self.printSummary(reports, listeners: ["alice", "carol", "erin"], bands: ["440", "1000"], window: Self.settled)
        }
    }

    private func noiseReports() async throws -> [String: MediaPeerReport] {
        try await MediaCall.reports(for: "noise", peers: Self.noisePeers) { reports in
            Self.printSummary(reports, listeners: ["hana", "jo"], bands: ["all", "1000"], window: Self.noiseWindow)
        }
    }

    private func heard(by user: String, in reports: [String: MediaPeerReport], file: StaticString = #filePath,
                       line: UInt = #line) throws -> MediaPeerReport.Media.Heard {
        let report = try XCTUnwrap(reports[user], "no report from \(user)", file: file, line: line)
        XCTAssertNil(report.error, "\(user) failed: \(report.error ?? "")", file: file, line: line)
        return try XCTUnwrap(report.media?.heard, "\(user) measured nothing it heard", file: file, line: line)
    }

    private func median(_ readings: [Double]) throws -> Double { try percentile(0.5, readings) }

    /// The level between bursts: the quietest fifth of the 50 ms readings (the bursts fill 40 % of the time).
    private func noiseFloor(_ readings: [Double]) throws -> Double { try percentile(0.2, readings) }

    private func percentile(_ fraction: Double, _ readings: [Double]) throws -> Double {
        try Self.percentile(fraction, readings)
    }

    private static func percentile(_ fraction: Double, _ readings: [Double]) throws -> Double {
        guard readings.count >= 20 else { throw TestFailure("only \(readings.count) readings of what was heard") }
        let sorted = readings.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    /// The levels of the run, for people reading the test log (not assertions).
    private static func printSummary(_ reports: [String: MediaPeerReport], listeners: [String], bands: [String],
                                     window: (from: Double, to: Double)) {
        for user in listeners {
            guard let heard = reports[user]?.media?.heard else { continue }
            let figures = bands.map { band in
                let readings = heard.readings(band, from: window.from, to: window.to)
                let p20 = (try? percentile(0.2, readings)).map { String(format: "%.1f", $0) } ?? "-"
                let p50 = (try? percentile(0.5, readings)).map { String(format: "%.1f", $0) } ?? "-"
                let p95 = (try? percentile(0.95, readings)).map { String(format: "%.1f", $0) } ?? "-"
                return "\(band): p20 \(p20) / median \(p50) / p95 \(p95) dBFS"
            }
            print("audio processing: \(user) heard (\(window.from)–\(window.to) s) " + figures.joined(separator: "; "))
        }
    }
}
