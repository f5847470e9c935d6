import Foundation
import JWTKit

/// Issues and checks the HS256 tokens that identify users to the server.
///
/// The secret lives in a file (0600) that is created with 32 random bytes the first time it is
/// needed, so `confab-server token alice` and the running server agree without configuration.
public struct TokenAuthority: Sendable {
    /// Tokens name this audience, so a JWT signed by something else with the same secret is refused.
    static let audience = "confab"
    private let keys: JWTKeyCollection

    public init(secret: some DataProtocol) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: Array(secret)), digestAlgorithm: .sha256)
    }

    /// Loads the secret at `path`, creating it first if it does not exist.
    public static func loadingSecret(at path: String) async throws -> TokenAuthority {
        await TokenAuthority(secret: try SecretFile.readOrCreate(at: path))
    }

    /// A token for `userId`; `lifetime` nil means it never expires (fine for local use).
    public func token(for userId: String, lifetime: TimeInterval? = nil) async throws -> String {
        let payload = UserToken(
            sub: SubjectClaim(value: userId),
            aud: AudienceClaim(value: [Self.audience]),
            iat: IssuedAtClaim(value: Date()),
            exp: lifetime.map { ExpirationClaim(value: Date().addingTimeInterval($0)) }
        )
        return try await keys.sign(payload)
    }

    /// The user id a token was issued for; throws when the token is malformed, forged or expired.
    public func userId(fromToken token: String) async throws -> String {
        try await keys.verify(token, as: UserToken.self).sub.value
    }
}

/// The claims in a confab token.
struct UserToken: JWTPayload {
    var sub: SubjectClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim?

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try aud.verifyIntendedAudience(includes: TokenAuthority.audience)
        try exp?.verifyNotExpired()
    }
}
