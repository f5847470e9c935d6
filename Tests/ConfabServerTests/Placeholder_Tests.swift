import XCTest
@testable import ConfabServer
final class Placeholder_Tests: XCTestCase { func test_nothing() { XCTAssertTrue(true) } }
