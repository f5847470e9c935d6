import XCTest
final class Placeholder_Tests: XCTestCase { func test_placeholder() { XCTAssertTrue(true) } }
