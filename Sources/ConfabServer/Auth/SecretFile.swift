import Foundation

/// The server's signing secret on disk.
enum SecretFile {
    static func readOrCreate(at path: String) throws -> [UInt8] {
        if FileManager.default.fileExists(atPath: path) {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            guard bytes.count >= 16 else { throw SecretFileError.tooShort(path) }
            return bytes
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Create with 0600 from the start rather than chmod afterwards: no window where others can read it.
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw SecretFileError.cannotCreate(path)
        }
        return bytes
    }
}

enum SecretFileError: Error, CustomStringConvertible {
    case tooShort(String)
    case cannotCreate(String)

    var description: String {
        switch self {
        case .tooShort(let path): "secret file \(path) holds fewer than 16 bytes; delete it to generate a new one"
        case .cannotCreate(let path): "cannot create secret file \(path)"
        }
    }
}
