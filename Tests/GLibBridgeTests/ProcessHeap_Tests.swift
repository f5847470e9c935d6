import CGLib
import ConfabTestSupport
import Foundation
import GLibBridge
import XCTest

/// What a torn-down page or pipeline freed goes back to the system (issue 15: the app's
/// footprint beside a browser tab).
final class ProcessHeap_Tests: XCTestCase {
    private static let childVariable = "CONFAB_PROCESS_HEAP_CHILD"

    /// A program started without G_SLICE starts again with it, and its GLib slices are then
    /// malloc's: a slice freed is what the next malloc of its size gets (the thread's cache).
    /// GLib's own slices would keep it in their magazine. In a process of its own (this test
    /// binary, started for this one test, without G_SLICE), as the setting needs a fresh program.
    func test_restartWithGLibSlicesFromMalloc_givesGLibsSlicesFromMalloc() throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] == "1" {
            ProcessHeap.restartWithGLibSlicesFromMalloc()
            let slice = g_slice_alloc(72)
            g_slice_free1(72, slice)
            let block = malloc(72)
            defer { free(block) }
            print("slices: G_SLICE=\(getenv("G_SLICE").map { String(cString: $0) } ?? "unset"), a freed slice is malloc's next block: \(slice == block)")
            return
        }
        var environment = ProcessInfo.processInfo.environment
        environment["G_SLICE"] = nil
        environment[Self.childVariable] = "1"
        let (status, output) = try runToEnd(URL(fileURLWithPath: CommandLine.arguments[0]),
                                            ["GLibBridgeTests.ProcessHeap_Tests/test_restartWithGLibSlicesFromMalloc_givesGLibsSlicesFromMalloc"],
                                            environment: environment)
        XCTAssertEqual(status, 0, output)
        let report = output.split(separator: "\n").filter { $0.hasPrefix("slices: ") }
        print(report.joined(separator: "\n"))
        XCTAssertEqual(report, ["slices: G_SLICE=always-malloc, a freed slice is malloc's next block: true"], output)
    }

    /// 48 MiB in 16 KiB blocks, each written, then all freed but every 16th: the heap cannot
    /// shrink from its top, so `free` alone keeps nearly all of it resident.
    func test_returnFreePages_givesBackWhatFreeKeptResident() throws {
        let blockSize = 16 << 10
        var blocks: [UnsafeMutableRawPointer] = (0..<3072).map { _ in
            let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
            block.initializeMemory(as: UInt8.self, repeating: 0xA5, count: blockSize)
            return block
        }
        defer { blocks.forEach { $0.deallocate() } }
        for index in blocks.indices.reversed() where index % 16 != 0 { blocks[index].deallocate(); blocks.remove(at: index) }
        let kept = try residentBytes()
        XCTAssertTrue(ProcessHeap.returnFreePagesNow(), "malloc_trim found nothing to give back")
        let after = try residentBytes()
        print("process heap: resident \(kept >> 20) MiB after free, \(after >> 20) MiB after returning free pages")
        XCTAssertGreaterThan(kept - after, 32 << 20, "less than 32 of the 45 MiB freed went back")
    }

    func test_trimmer_waitsForThingsToSettle_andTrimsOnceForABurstOfChanges() { onMain {
        var trims = 0
        let trimmer = HeapTrimmer(delay: 0.5) { trims += 1 }
        trimmer.changed()
        MainLoop.iterate(until: { false }, timeout: 0.3)
        trimmer.changed()
        trimmer.changed()
        MainLoop.iterate(until: { false }, timeout: 0.25)
        XCTAssertEqual(trims, 0, "trimmed before the last change had settled")
        MainLoop.iterate(until: { trims > 0 }, timeout: 3)
        MainLoop.iterate(until: { false }, timeout: 0.6)
        XCTAssertEqual(trims, 1, "one trim for one burst of changes")
        trimmer.changed()
        MainLoop.iterate(until: { trims > 1 }, timeout: 3)
        XCTAssertEqual(trims, 2, "a later change trims again")
    } }

    func test_trimmer_gone_trimsNothing() { onMain {
        var trims = 0
        var trimmer: HeapTrimmer? = HeapTrimmer(delay: 0.1) { trims += 1 }
        trimmer?.changed()
        trimmer = nil
        MainLoop.iterate(until: { false }, timeout: 0.3)
        XCTAssertEqual(trims, 0)
        _ = trimmer
    } }

    private func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return try XCTUnwrap(Int(statm[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
