import CGLib
import COpenSSL
import FoundationEssentials
import Glibc

/// Keeps the RSA key of the process's DTLS certificate in the user's cache, so that a program
/// started again makes its certificate in milliseconds instead of searching for two 1024-bit
/// primes.
///
/// Why: GStreamer 1.22's dtls plugin makes the process's certificate with a new RSA 2048 key
/// the first time a DTLS element is made (0.07–0.9 s of a core here; 0.5–1.6 s after start on
/// a saturated machine in bench-media), and every call's first offer or answer waits for it.
/// A peer that joins as it starts, or an app whose Join is clicked at once or that was started
/// to answer a call, had its first frame that much later, and an app starting paid that CPU
/// beside its first preview. There is no way to hand the plugin a key or certificate first: its
/// `dtlsdec` asks for the generated one in its instance init, and the classes involved are
/// private to the plugin until then. What it calls is OpenSSL's `RSA_generate_key_ex`, which
/// asks the default RSA method for a key generator: while `makingCertificate` runs, that is
/// ours, which answers with the kept key.
///
/// The certificate itself is still made new by every process (its serial number, name and
/// dates, so its fingerprint, differ each time); only the key is kept, readable by the user
/// alone, and replaced after `maximumAge`. A kept key that cannot be read, that others could
/// read or write, or that is not a 2048-bit key for exponent 65537, is replaced by a new one as
/// if there were none.
enum DTLSKeyCache {
    static let maximumAge: TimeInterval = 7 * 24 * 3600

    /// What `makingCertificate` did for the key.
    enum Outcome: Equatable, Sendable {
        /// No key was asked for (the certificate existed already, the plugin changed, or
        /// OpenSSL gave no RSA method to start from).
        case notAsked
        case reused
        case made(kept: Bool)
        case failed
    }

    /// `$XDG_CACHE_HOME/confab/dtls-key.pem`.
    static var defaultFile: URL {
        URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("confab/dtls-key.pem")
    }

    /// Runs `make` (which makes the process's first DTLS element) with RSA keys coming from
    /// `file`. Called once per process, on the thread that makes the certificate, before
    /// anything else makes an RSA key (nothing else in the process does).
    static func makingCertificate(keyIn file: URL, _ make: () -> Void) -> Outcome {
        guard let original = RSA_get_default_method(), let ours = RSA_meth_dup(original) else {
            make()
            return .notAsked
        }
        // `ours` stays alive with the process: a key made through it points at it until
        // `generate(into:…)` sets the key's method back.
        KeyGeneratorState.file = file
        KeyGeneratorState.original = original
        KeyGeneratorState.outcome = .notAsked
        RSA_meth_set_keygen(ours) { rsa, bits, exponent, _ in
            DTLSKeyCache.generate(into: rsa, bits: bits, exponent: exponent) ? 1 : 0
        }
        RSA_set_default_method(ours)
        make()
        RSA_set_default_method(original)
        return KeyGeneratorState.outcome
    }

    /// The kept key, or a new one (then kept), copied into `rsa`.
    private static func generate(into rsa: OpaquePointer?, bits: Int32, exponent: OpaquePointer?) -> Bool {
        guard let rsa, let file = KeyGeneratorState.file else { return false }
        defer {
            // Its own methods from now on, as any other key's.
            if let original = KeyGeneratorState.original { RSA_set_method(rsa, original) }
        }
        let isUsual = bits == 2048 && exponent.map { BN_is_word($0, 65537) == 1 } == true
        if isUsual, let kept = readKey(from: file) {
            defer { RSA_free(kept) }
            if copyKey(from: kept, to: rsa) {
                KeyGeneratorState.outcome = .reused
                return true
            }
        }
        // A new key, made by OpenSSL's own generator.
        guard let new = RSA_new() else { return fail() }
        defer { RSA_free(new) }
        guard let builtIn = RSA_PKCS1_OpenSSL(), RSA_set_method(new, builtIn) == 1,
              let exponentCopy = BN_dup(exponent) else { return fail() }
        defer { BN_free(exponentCopy) }
        guard RSA_generate_key_ex(new, bits, exponentCopy, nil) == 1, copyKey(from: new, to: rsa) else { return fail() }
        KeyGeneratorState.outcome = .made(kept: isUsual && keep(new, in: file))
        return true
    }

    private static func fail() -> Bool {
        KeyGeneratorState.outcome = .failed
        return false
    }

    /// The key in `file` if it is ours and readable by us alone, younger than `maximumAge`, and
    /// a 2048-bit key for 65537. (A key others could read, or have written, is not used.)
    private static func readKey(from file: URL) -> OpaquePointer? {
        var status = stat()
        guard lstat(file.path, &status) == 0, status.st_uid == getuid(), status.st_mode & 0o077 == 0,
              Date().timeIntervalSince1970 - Double(status.st_mtim.tv_sec) < maximumAge,
              let text = try? Data(contentsOf: file), let bio = text.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) })
        else { return nil }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else { return nil }
        defer { EVP_PKEY_free(key) }
        guard let rsa = EVP_PKEY_get1_RSA(key) else { return nil }
        var exponent: OpaquePointer?
        RSA_get0_key(rsa, nil, &exponent, nil)
        guard RSA_bits(rsa) == 2048, let exponent, BN_is_word(exponent, 65537) == 1 else {
            RSA_free(rsa)
            return nil
        }
        return rsa
    }

    /// Writes `rsa` to `file`, readable by the user alone (a new file moved over the old one).
    private static func keep(_ rsa: OpaquePointer, in file: URL) -> Bool {
        guard let bio = BIO_new(BIO_s_mem()) else { return false }
        defer { BIO_free(bio) }
        guard PEM_write_bio_RSAPrivateKey(bio, rsa, nil, nil, 0, nil, nil) == 1 else { return false }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        guard BIO_read(bio, &bytes, Int32(bytes.count)) == Int32(bytes.count) else { return false }

        let folder = file.deletingLastPathComponent()
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])) != nil else { return false }
        // Made 0600 from its first byte (not written, then restricted), under a name of this
        // process's own, then moved over the old one: a reader sees the old key or the new one.
        let partial = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid())").path
        unlink(partial)
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard close(descriptor) == 0, written == bytes.count, rename(partial, file.path) == 0 else {
            unlink(partial)
            return false
        }
        return true
    }

    /// Copies the key's numbers (public and private, with the CRT ones) into `to`.
    private static func copyKey(from: OpaquePointer, to: OpaquePointer) -> Bool {
        var n: OpaquePointer?, e: OpaquePointer?, d: OpaquePointer?
        var p: OpaquePointer?, q: OpaquePointer?
        var dmp1: OpaquePointer?, dmq1: OpaquePointer?, iqmp: OpaquePointer?
        RSA_get0_key(from, &n, &e, &d)
        RSA_get0_factors(from, &p, &q)
        RSA_get0_crt_params(from, &dmp1, &dmq1, &iqmp)
        guard let n, let e, let d, let p, let q, let dmp1, let dmq1, let iqmp else { return false }
        // Each set0 takes its numbers (and frees them with the key); on failure they are ours.
        let key = (BN_dup(n), BN_dup(e), BN_dup(d))
        guard RSA_set0_key(to, key.0, key.1, key.2) == 1 else {
            BN_free(key.0); BN_free(key.1); BN_clear_free(key.2)
            return false
        }
        let factors = (BN_dup(p), BN_dup(q))
        guard RSA_set0_factors(to, factors.0, factors.1) == 1 else {
            BN_clear_free(factors.0); BN_clear_free(factors.1)
            return false
        }
        let crt = (BN_dup(dmp1), BN_dup(dmq1), BN_dup(iqmp))
        guard RSA_set0_crt_params(to, crt.0, crt.1, crt.2) == 1 else {
            BN_clear_free(crt.0); BN_clear_free(crt.1); BN_clear_free(crt.2)
            return false
        }
        return true
    }
}

/// What the key generator (a C function: it captures nothing) reads and writes. Set by
/// `DTLSKeyCache.makingCertificate` before the generator can run, on the one thread that runs
/// both; the generator runs inside `make` on that thread.
private enum KeyGeneratorState {
    nonisolated(unsafe) static var file: URL?
    nonisolated(unsafe) static var original: OpaquePointer?
    nonisolated(unsafe) static var outcome: DTLSKeyCache.Outcome = .notAsked
}
