import Foundation
@testable import GLibBridge
import XCTest

/// The test camera's picture (`MovingBall`): videotestsrc's sweeping ball and its lines, drawn
/// into a solid-colour frame rather than painted pixel by pixel, in a real pipeline.
final class MovingBall_Tests: XCTestCase {
    func test_position_goesRoundTheMiddleOnceEvery200Frames() {
        let start = MovingBall(width: 640, height: 360, seconds: 0)
        XCTAssertEqual(start.radius, 90)
        XCTAssertEqual(start.x, 320, accuracy: 0.001)
        XCTAssertEqual(start.y, 90, accuracy: 0.001)
        let quarter = MovingBall(width: 640, height: 360, seconds: MovingBall.turn / 4)
        XCTAssertEqual(quarter.x, 410, accuracy: 0.001)
        XCTAssertEqual(quarter.y, 180, accuracy: 0.001)
        let round = MovingBall(width: 640, height: 360, seconds: MovingBall.turn)
        XCTAssertEqual(round.x, start.x, accuracy: 0.001)
        XCTAssertEqual(round.y, start.y, accuracy: 0.001)
    }

    func test_draw_fillsTheBallBlendsItsEdgeAndDrawsTheLines_leavesTheRest() {
        let width = 64, height = 36, chromaWidth = 32, chromaHeight = 18
        let background: (y: UInt8, u: UInt8, v: UInt8) = (50, 140, 120)
        var luma = [UInt8](repeating: background.y, count: width * height)
        var blue = [UInt8](repeating: background.u, count: chromaWidth * chromaHeight)
        var red = [UInt8](repeating: background.v, count: chromaWidth * chromaHeight)
        // A quarter turn: the ball (radius 9) at (41, 18).
        let ball = MovingBall(width: width, height: height, seconds: MovingBall.turn / 4)
        XCTAssertEqual(ball.radius, 9)
        luma.withUnsafeMutableBufferPointer { y in
            blue.withUnsafeMutableBufferPointer { u in
                red.withUnsafeMutableBufferPointer { v in
                    ball.draw(into: I420Planes(y: y.baseAddress!, u: u.baseAddress!, v: v.baseAddress!,
                                               yStride: Int32(width), uStride: Int32(chromaWidth), vStride: Int32(chromaWidth)))
                }
            }
        }
        func lumaAt(_ x: Int, _ y: Int) -> UInt8 { luma[y * width + x] }
        // Inside: white, neutral colour.
        XCTAssertEqual(lumaAt(41, 14), 235)
        XCTAssertEqual(lumaAt(36, 20), 235)
        XCTAssertEqual(blue[9 * chromaWidth + 19], 128)
        XCTAssertEqual(red[9 * chromaWidth + 19], 128)
        // The edge is blended: between the background and white.
        let edge = lumaAt(47, 12)  // 8.5 px from the centre
        XCTAssertGreaterThan(edge, background.y, "the edge should be partly covered")
        XCTAssertLessThan(edge, 235, "the edge should be blended, not filled")
        // The lines: down the middle, and down and across through the ball's centre.
        XCTAssertEqual(lumaAt(32, 0), 235)
        XCTAssertEqual(lumaAt(32, 35), 235)
        XCTAssertEqual(lumaAt(41, 0), 235)
        XCTAssertEqual(lumaAt(0, 18), 235)
        XCTAssertEqual(lumaAt(63, 18), 235)
        // Elsewhere the frame is as it was.
        XCTAssertEqual(lumaAt(5, 5), background.y)
        XCTAssertEqual(lumaAt(20, 30), background.y)
        XCTAssertEqual(blue[2 * chromaWidth + 2], background.u)
        XCTAssertEqual(red[15 * chromaWidth + 4], background.v)
    }

    func test_draw_ballAtTheFramesEdges_writesNothingOutsideIt() {
        // 16x8: the ball (radius 2) goes round at 2 px from the middle, its edge and lines
        // reaching every border. Guard bytes before and after each plane must stay as they are.
        let guardBytes = 64, lumaCount = 16 * 8, chromaCount = 8 * 4
        var memory = [UInt8](repeating: 7, count: guardBytes * 4 + lumaCount + 2 * chromaCount)
        memory.withUnsafeMutableBufferPointer { all in
            let y = all.baseAddress! + guardBytes
            let u = y + lumaCount + guardBytes, v = u + chromaCount + guardBytes
            for step in 0..<40 {
                MovingBall(width: 16, height: 8, seconds: Double(step) * MovingBall.turn / 40)
                    .draw(into: I420Planes(y: y, u: u, v: v, yStride: 16, uStride: 8, vStride: 8))
            }
        }
        let guards = [0..<guardBytes, (guardBytes + lumaCount)..<(2 * guardBytes + lumaCount),
                      (2 * guardBytes + lumaCount + chromaCount)..<(3 * guardBytes + lumaCount + chromaCount),
                      (3 * guardBytes + lumaCount + 2 * chromaCount)..<memory.count]
        for range in guards { XCTAssertEqual(Set(memory[range]), [7], "written outside the frame at \(range)") }
        XCTAssertTrue(memory[guardBytes..<(guardBytes + lumaCount)].contains(235), "the ball was never drawn")
    }

    /// The source a pipeline makes of `.movingBall`: its frames have the background, the ball
    /// (about π r² of white pixels, plus its lines), and the ball moves.
    func test_pipelineSource_drawsTheMovingBallOverTheBackground() throws { try onMain {
        let pipeline = try MediaPipeline(source: .movingBall(background: 0xFF00_00FF),
                                         processing: "videoconvert ! video/x-raw,format=BGRA,width=320,height=180,framerate=30/1 ! "
                                            + "appsink name=frames max-buffers=1 drop=true sync=false")
        var frames: [VideoFrame] = []
        pipeline.receiveVideoFrames(fromAppSink: "frames") { frames.append($0) }
        try pipeline.play()
        XCTAssertTrue(runLoop(until: { frames.count >= 1 }), "no frames")
        let first = frames[0]
        let firstCount = frames.count
        XCTAssertTrue(runLoop(until: { frames.count >= firstCount + 20 }, timeout: 10), "frames stopped")
        let later = frames[frames.count - 1]
        pipeline.stop()

        func whiteCentre(of frame: VideoFrame) -> (count: Int, x: Double, y: Double, blue: Int) {
            var count = 0, blue = 0, sumX = 0, sumY = 0
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    guard let pixel = frame.pixel(x: x, y: y) else { continue }
                    if pixel.red > 200, pixel.green > 200, pixel.blue > 200 {
                        count += 1; sumX += x; sumY += y
                    } else if pixel.blue > 200, pixel.red < 60, pixel.green < 60 {
                        blue += 1
                    }
                }
            }
            return (count, Double(sumX) / Double(max(1, count)), Double(sumY) / Double(max(1, count)), blue)
        }
        let a = whiteCentre(of: first), b = whiteCentre(of: later)
        let ballArea = Double.pi * 45 * 45, lines = 180.0 * 2 + 320
        for seen in [a, b] {
            XCTAssertGreaterThan(Double(seen.count), 0.8 * ballArea, "too little white: no ball")
            XCTAssertLessThan(Double(seen.count), 1.2 * (ballArea + lines), "too much white")
            XCTAssertGreaterThan(seen.blue, 320 * 180 / 2, "the background colour should fill most of the frame")
        }
        // 20 frames (2/3 s at 30 fps) is a tenth of a turn: the ball's centre moves ~28 px.
        let moved = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        XCTAssertGreaterThan(moved, 10, "the ball did not move")
    } }
}
