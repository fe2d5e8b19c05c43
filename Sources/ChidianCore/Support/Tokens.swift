import Crypto
import Foundation

/// Random bearer tokens (256 bits, base64url) and the hash they are stored under.
public enum Tokens {
    /// 32 random bytes, base64url without padding (43 characters). Four draws of the system generator, not 32:
    /// each is a `getrandom` call, and a web page for a new visitor makes two tokens.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return base64URL(bytes)
    }

    static let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// RFC 4648's base64url without padding, written directly (Foundation's base64 and three string replacements
    /// took a fifth of a visitor's first page).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = base64URLAlphabet
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var n = UInt32(bytes[index]) << 16
            if count > 1 { n |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { n |= UInt32(bytes[index + 2]) }
            for shift in [18, 12, 6, 0].prefix(count + 1) { out.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(token.utf8)))
    }

    /// A readable random password for `user reset-password`.
    public static func password(length: Int = 16) -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
