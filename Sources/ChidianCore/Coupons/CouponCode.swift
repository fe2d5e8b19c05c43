import Foundation

/// Claim codes a waiter can read off a phone: 12 characters of `[0-9A-Z]` without `0`, `O`, `1` and `I` (32
/// symbols, so 60 bits), each drawn from the system's cryptographic source (`getrandom` on Linux), so no code
/// tells anything about another. Uniqueness is the database's constraint; a collision is drawn again.
public enum CouponCode {
    static let alphabet = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ".utf8)
    public static let length = 12

    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        var bits = generator.next()  // 64 bits: 12 symbols of 5
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        for _ in 0..<length {
            bytes.append(alphabet[Int(bits & 31)])
            bits >>= 5
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A code as typed at the table: trimmed and upper-cased; nil when it cannot be one of ours.
    public static func normalized(_ text: String) -> String? {
        let code = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard code.utf8.count == length, code.utf8.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return code
    }
}
