// swift-tools-version:6.0
import Foundation
import PackageDescription

/// `CONFAB_CLIENT_ONLY=1` leaves the server targets out: the desktop client then builds
/// without the server packages (quicker to iterate on the UI and media layers).
let clientOnly = ProcessInfo.processInfo.environment["CONFAB_CLIENT_ONLY"] == "1"
/// XCTest on Linux runs tests on the main thread but cannot call main-actor test methods;
/// tests enter the main actor themselves, which Swift 6 mode's capture checks cannot see.
let testSettings: [SwiftSetting] = [.swiftLanguageMode(.v5)]
let serverTargetNames: Set<String> = ["ConfabServer", "CChildProcess", "confab-server", "ConfabServerTests", "ConfabEndToEndTests"]

/// One system-library target per pkg-config package. Their shim.h files hold only
/// static-inline helpers for C macros and variadics that Swift cannot import.
func systemLibrary(_ name: String, _ pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/CLibraries/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "Confab",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "confab", targets: ["confab"]),
        .executable(name: "confab-server", targets: ["confab-server"]),
        .executable(name: "confab-peer", targets: ["confab-peer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        // Server side (confab-server).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.0"),
        // PostgreSQL storage (`--db postgres://…`) and Prometheus metrics (`GET /metrics`).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // TLS to PostgreSQL (sslmode); already in the graph through postgres-nio.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.25.0"),
    ],
    targets: [
        // MARK: C libraries (system packages)
        systemLibrary("CGLib", "gio-unix-2.0", apt: "libglib2.0-dev"),
        systemLibrary("CGtk", "gtk4", apt: "libgtk-4-dev"),
        systemLibrary("CAdwaita", "libadwaita-1", apt: "libadwaita-1-dev"),
        systemLibrary("CGStreamer", "gstreamer-1.0", apt: "libgstreamer1.0-dev"),
        systemLibrary("CGStreamerApp", "gstreamer-app-1.0", apt: "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CGStreamerVideo", "gstreamer-video-1.0", apt: "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CGStreamerAudio", "gstreamer-audio-1.0", apt: "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CGStreamerWebRTC", "gstreamer-webrtc-1.0", apt: "libgstreamer-plugins-bad1.0-dev"),
        systemLibrary("CGStreamerSDP", "gstreamer-sdp-1.0", apt: "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CGStreamerRTP", "gstreamer-rtp-1.0", apt: "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CAlsa", "alsa", apt: "libasound2-dev"),
        // The DTLS key and certificate the process's WebRTC connections present (DTLSCertificate).
        systemLibrary("COpenSSL", "libcrypto", apt: "libssl-dev"),
        // libyuv ships no pkg-config file: the module map links it by name.
        .systemLibrary(name: "CYUV", path: "Sources/CLibraries/CYUV", providers: [.apt(["libyuv-dev"])]),

        // MARK: Binding layer — the only place with C interop
        .target(
            name: "GLibBridge",
            dependencies: ["CGLib", "CGStreamer", "CGStreamerApp",
                           "CGStreamerVideo", "CGStreamerAudio", "CGStreamerWebRTC", "CGStreamerSDP", "CGStreamerRTP", "CAlsa", "CYUV", "COpenSSL"]
        ),
        // The binding layer's widgets: apart, so that confab-peer, which shows nothing, loads
        // no GTK, Adwaita, cairo, Pango or X11 (about 2 MiB of its footprint).
        .target(name: "GtkBridge", dependencies: ["GLibBridge", "CGLib", "CGtk", "CAdwaita"]),

        // MARK: Client modules
        .target(name: "ConfabCore", dependencies: ["ConfabProtocol"]),
        .target(name: "ConfabMedia", dependencies: ["ConfabCore", "ConfabClient", "JanusProtocol", "GLibBridge"]),
        .target(
            name: "ConfabClient",
            dependencies: [
                "ConfabCore", "ConfabProtocol", "JanusProtocol",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // wss://: the trust store (system or --ca-file) and telling certificate failures apart.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "confab-peer",
            dependencies: ["ConfabClient", "ConfabCore", "ConfabProtocol", "ConfabMedia", "JanusProtocol", "GLibBridge", "ProcessSignals",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(
            name: "ConfabDesktop",
            dependencies: ["ConfabCore", "ConfabMedia", "ConfabClient", "GLibBridge", "GtkBridge"]
        ),
        .executableTarget(
            name: "confab",
            dependencies: ["ConfabDesktop", "ConfabClient", "GLibBridge", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // MARK: Shared wire protocol and the coordinator
        .target(name: "ConfabProtocol"),
        // Janus's own API (core and VideoRoom messages), spoken by the coordinator and the apps
        // alike: a third party's protocol, kept apart from ours (ConfabProtocol, versioned by
        // us) so that ConfabCore never sees it. Depends on ConfabProtocol only for FrameGuard.
        .target(name: "JanusProtocol", dependencies: ["ConfabProtocol"]),
        // fork/exec of the server's children with a clean signal state and a parent-death signal:
        // C, because only async-signal-safe calls may run between fork and exec.
        .target(name: "CChildProcess", path: "Sources/CChildProcess"),
        .target(
            name: "ConfabServer",
            dependencies: [
                "ConfabProtocol", "JanusProtocol", "CChildProcess",
                .product(name: "Hummingbird", package: "hummingbird"),
                // `--tls-cert`/`--tls-key`: wss:// and https:// served by the server itself.
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                // HTTPServerBuilder, named when choosing plain or TLS.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // WebSocketErrorCode: the 1007 close for invalid UTF-8.
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "confab-server",
            dependencies: ["ConfabServer", "ProcessSignals", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // SIGTERM and SIGINT held from a program's first line and read through Dispatch
        // (confab-server, confab-peer): a stop sent while it starts is not lost.
        .target(name: "ProcessSignals"),

        // MARK: Tests
        // What several suites share: main-actor test helpers and the one confab-server launcher.
        .target(name: "ConfabTestSupport", path: "Tests/ConfabTestSupport", swiftSettings: testSettings),
        .testTarget(name: "ConfabCoreTests", dependencies: ["ConfabCore", "ConfabTestSupport"], swiftSettings: testSettings),
        .testTarget(name: "GLibBridgeTests", dependencies: ["GLibBridge", "GtkBridge", "ConfabTestSupport"], swiftSettings: testSettings),
        .testTarget(name: "ConfabMediaTests", dependencies: ["ConfabMedia", "JanusProtocol", "GLibBridge", "ConfabTestSupport"], swiftSettings: testSettings),
        .testTarget(name: "JanusProtocolTests", dependencies: ["JanusProtocol", "ConfabProtocol"], swiftSettings: testSettings),
        .testTarget(name: "ConfabClientTests", dependencies: ["ConfabClient", "ConfabTestSupport"], swiftSettings: testSettings),
        .testTarget(name: "ConfabDesktopTests", dependencies: ["ConfabDesktop", "ConfabCore", "GLibBridge", "GtkBridge"], swiftSettings: testSettings),
        // Multi-process: real confab-server and confab-peer processes ringing and answering.
        .testTarget(name: "ConfabEndToEndTests", dependencies: ["ConfabCore", "ConfabProtocol", "ConfabTestSupport"],
                    exclude: ["Support/media-call.sh", "Support/production-host.py", "Support/kill-janus.sh", "Support/block-janus.sh", "Support/restart-server.sh",
                              "Support/packet-loss.sh", "Support/bandwidth-cap.sh", "Support/server-children.py", "Support/coordinator_ws.py",
                              "Support/janus-interop.sh", "Support/plain-janus.sh", "Support/chromium-page.sh",
                              "Support/network-change.sh", "Support/block-receiver.sh", "Support/kill-janus-node.py", "Support/replica-call.sh",
                              "Support/test-postgres.sh", "Support/peers.sh", "Resources"], swiftSettings: testSettings),
        .testTarget(
            name: "ConfabServerTests",
            dependencies: [
                "ConfabServer", "ConfabProtocol", "JanusProtocol",
                // TestCertificateAuthority: a CA and a server certificate made with openssl for the TLS tests.
                "ConfabTestSupport",
                // HTTPGet over https:// trusting the test CA.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                // Raw frames (invalid UTF-8 text) and close codes in the hostile-client tests.
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // A database as an older server left it, for the migration tests.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

if clientOnly {
    package.targets.removeAll { serverTargetNames.contains($0.name) }
    package.products.removeAll { $0.name == "confab-server" }
}
