import ConfabCore
import FoundationEssentials
import Glibc
import GLibBridge

/// Loops the ring sounds through GStreamer on the chosen speaker. The sounds are our own,
/// synthesised here as WAV files on first use (no sound files to ship or license).
@MainActor
public final class CallSoundPlayer {
    public private(set) var playing: CallSound?
    private var pipeline: MediaPipeline?
    private let directory: URL
    private let volume: Double

    /// - Parameter volume: 0…1, the ring volume.
    public init(directory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("confab-sounds-\(getpid())"),
                volume: Double = 0.6) {
        self.directory = directory
        self.volume = volume
    }

    /// Plays `sound` in a loop on `speaker` (nil: the system default), or stops with nil.
    public func play(_ sound: CallSound?, speaker: MediaDevice?, devices: GStreamerDeviceSource? = nil) {
        guard sound != playing else { return }
        stop()
        guard let sound, let file = try? file(for: sound) else { return }
        let sink = devices?.sinkDescription(for: speaker) ?? (speaker?.isTest == true ? "fakesink sync=true" : "autoaudiosink")
        guard let pipeline = try? MediaPipeline(description:
            "filesrc location=\"\(file.path)\" ! wavparse ! audioconvert ! audioresample ! volume volume=\(volume) ! \(sink)") else { return }
        pipeline.watchBus { [weak pipeline] message in
            if case .endOfStream = message { pipeline?.seekToStart() }
        }
        do {
            try pipeline.play()
            self.pipeline = pipeline
            playing = sound
        } catch {
            // No audio output (a machine without sound): ringing stays visual.
            playing = nil
        }
    }

    public func stop() {
        pipeline?.stop()
        pipeline = nil
        playing = nil
    }

    private func file(for sound: CallSound) throws -> URL {
        let url = directory.appendingPathComponent("\(sound.rawValue).wav")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try RingToneSynthesizer.wav(for: sound).write(to: url, options: .atomic)
        return url
    }
}

/// Makes the ring tones: a warm two-note chime for an incoming call, and the familiar
/// 440+480 Hz ringback cadence (2 s on, 4 s off) while we ring someone.
enum RingToneSynthesizer {
    static let sampleRate = 48_000

    static func wav(for sound: CallSound) -> Data {
        let samples: [Float]
        switch sound {
        case .incomingRing:
            // Two chimes (E5 then C#5) with a soft attack and decay, then a pause: 3 s per loop.
            samples = chime(frequencies: [659.25, 554.37], noteLength: 0.45, gap: 0.05) + silence(seconds: 2.05)
        case .outgoingRing:
            samples = tone(frequencies: [440, 480], seconds: 2.0) + silence(seconds: 4.0)
        }
        return encodeWAV(samples)
    }

    private static func tone(frequencies: [Double], seconds: Double) -> [Float] {
        let count = Int(seconds * Double(sampleRate))
        let fade = sampleRate / 50 // 20 ms edges, no clicks
        return (0..<count).map { index in
            let time = Double(index) / Double(sampleRate)
            let value = frequencies.reduce(0) { $0 + sin(2 * .pi * $1 * time) } / Double(frequencies.count)
            let edge = min(1, Double(min(index, count - index)) / Double(fade))
            return Float(value * 0.5 * edge)
        }
    }

    private static func chime(frequencies: [Double], noteLength: Double, gap: Double) -> [Float] {
        frequencies.flatMap { frequency -> [Float] in
            let count = Int(noteLength * Double(sampleRate))
            let note: [Float] = (0..<count).map { index in
                let time = Double(index) / Double(sampleRate)
                let envelope = min(1, time / 0.01) * exp(-time * 5)
                let value = sin(2 * .pi * frequency * time) + 0.3 * sin(4 * .pi * frequency * time)
                return Float(value * 0.45 * envelope)
            }
            return note + silence(seconds: gap)
        }
    }

    private static func silence(seconds: Double) -> [Float] { Array(repeating: 0, count: Int(seconds * Double(sampleRate))) }

    /// 16-bit mono PCM WAV.
    static func encodeWAV(_ samples: [Float]) -> Data {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let byteCount = samples.count * 2
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + byteCount))
        data.append(contentsOf: Array("WAVE".utf8)); data.append(contentsOf: Array("fmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(UInt32(sampleRate))
        append(UInt32(sampleRate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(byteCount))
        for sample in samples { append(Int16(max(-1, min(1, sample)) * Float(Int16.max))) }
        return data
    }
}
