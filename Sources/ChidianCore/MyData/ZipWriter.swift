import Foundation

/// A ZIP archive written front to back with no compression (method 0, "stored"): the export's photos are JPEG, PNG,
/// WebP or GIF, compressed already, and its JSON is small beside them. Each entry is whole in memory while its
/// header is made (its CRC-32 comes first); the archive as a whole never is, so a caller streams `header(...)`,
/// the bytes, and at the end `finish()`.
///
/// No ZIP64: an archive stays under 4 GiB and 65,535 entries (`ZipWriter.Full` past them), which the export's
/// own bounds keep far from.
public struct ZipWriter: Sendable {
    public struct Full: Error, CustomStringConvertible {
        public var description: String { "The archive would pass the ZIP limits (4 GiB, 65,535 entries)." }
    }

    /// Bytes written so far (local headers and data): where the next local header starts.
    public private(set) var offset = 0
    public private(set) var entryCount = 0
    private var central: [UInt8] = []
    private let time: UInt16
    private let date: UInt16

    /// `modified`: the time every entry is stamped with (MS-DOS time, 2-second steps, read as local time by most
    /// tools; the export writes UTC).
    public init(modified: Date = Date()) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: modified)
        let year = min(max((c.year ?? 1980) - 1980, 0), 127)
        time = UInt16((c.hour ?? 0) << 11 | (c.minute ?? 0) << 5 | (c.second ?? 0) / 2)
        date = UInt16(year << 9 | (c.month ?? 1) << 5 | (c.day ?? 1))
    }

    /// The local header for an entry named `name` holding `bytes`; write it, then the bytes themselves.
    public mutating func header(name: String, bytes: [UInt8]) throws -> [UInt8] {
        let nameBytes = Array(name.utf8)
        let size = bytes.count
        let crc = CRC32.checksum(bytes)
        let end = offset + 30 + nameBytes.count + size
        guard entryCount < 0xFFFF, end + central.count + 46 + nameBytes.count + 22 < 0xFFFF_FFFF,
            nameBytes.count < 0xFFFF
        else { throw Full() }
        var local: [UInt8] = []
        local.reserveCapacity(30 + nameBytes.count)
        Self.append32(0x0403_4b50, to: &local)
        appendCommon(crc: crc, size: size, nameLength: nameBytes.count, to: &local)
        Self.append16(0, to: &local)  // extra field length
        local += nameBytes

        Self.append32(0x0201_4b50, to: &central)
        Self.append16(20, to: &central)  // made by: MS-DOS attributes, version 2.0
        appendCommon(crc: crc, size: size, nameLength: nameBytes.count, to: &central)
        Self.append16(0, to: &central)  // extra field length
        Self.append16(0, to: &central)  // comment length
        Self.append16(0, to: &central)  // disk number
        Self.append16(0, to: &central)  // internal attributes
        Self.append32(0, to: &central)  // external attributes
        Self.append32(UInt32(offset), to: &central)
        central += nameBytes

        offset = end
        entryCount += 1
        return local
    }

    /// The central directory and its end record: the archive's last bytes.
    public func finish() -> [UInt8] {
        var tail = central
        Self.append32(0x0605_4b50, to: &tail)
        Self.append16(0, to: &tail)  // this disk
        Self.append16(0, to: &tail)  // disk with the central directory
        Self.append16(UInt16(entryCount), to: &tail)
        Self.append16(UInt16(entryCount), to: &tail)
        Self.append32(UInt32(central.count), to: &tail)
        Self.append32(UInt32(offset), to: &tail)
        Self.append16(0, to: &tail)  // comment length
        return tail
    }

    /// Version needed, flags, method, time, date, CRC, sizes and name length: the part both headers share.
    private func appendCommon(crc: UInt32, size: Int, nameLength: Int, to out: inout [UInt8]) {
        Self.append16(10, to: &out)  // version needed: 1.0, stored
        Self.append16(1 << 11, to: &out)  // names are UTF-8
        Self.append16(0, to: &out)  // method: stored
        Self.append16(time, to: &out)
        Self.append16(date, to: &out)
        Self.append32(crc, to: &out)
        Self.append32(UInt32(size), to: &out)  // compressed size
        Self.append32(UInt32(size), to: &out)  // uncompressed size
        Self.append16(UInt16(nameLength), to: &out)
    }

    static func append16(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value))
        out.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    static func append32(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
