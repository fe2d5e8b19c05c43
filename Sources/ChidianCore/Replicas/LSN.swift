/// A PostgreSQL write-ahead-log position (`pg_lsn`), as PostgreSQL prints it: two hexadecimal halves, `16/B374D848`.
public struct LSN: Sendable, Comparable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) { self.value = value }

    /// Parses PostgreSQL's text form; nil for anything else (a client's marker is untrusted input).
    public init?(_ text: Substring) {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, halves.allSatisfy({ (1...8).contains($0.count) }),
            let high = UInt64(halves[0], radix: 16), let low = UInt64(halves[1], radix: 16)
        else { return nil }
        value = high << 32 | low
    }

    public var description: String {
        String(value >> 32, radix: 16, uppercase: true) + "/" + String(value & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    public static func < (lhs: LSN, rhs: LSN) -> Bool { lhs.value < rhs.value }
}
