/// A part of a page as it is held: bytes rendered for this response, or a kept piece still deflated.
package enum PagePart: Sendable {
    case plain([UInt8])
    case deflated(DeflatedBytes)

    /// The whole page as bytes, inflating kept pieces (a client that does not take gzip).
    package static func joined(_ parts: [PagePart]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.size })
        for part in parts { bytes += try part.bytes() }
        return bytes
    }

    /// This part's bytes, inflated when kept deflated.
    package func bytes() throws -> [UInt8] {
        switch self {
        case .plain(let bytes): bytes
        case .deflated(let deflated): try deflated.inflated()
        }
    }

    /// The bytes this part holds in memory: its deflate stream when kept deflated.
    var heldBytes: Int {
        switch self {
        case .plain(let bytes): bytes.count
        case .deflated(let deflated): deflated.stream.count
        }
    }

    var size: Int {
        switch self {
        case .plain(let bytes): bytes.count
        case .deflated(let deflated): deflated.size
        }
    }

    /// Whether gzip would send any part as kept; a page with none is sent as it is.
    package static func anyDeflated(_ parts: [PagePart]) -> Bool {
        parts.contains { if case .deflated = $0 { true } else { false } }
    }
}

/// One gzip member (RFC 1952) written from page parts without compressing anything: kept pieces go in as their
/// deflate streams, which end byte-aligned and not final; bytes rendered for this response go in as stored
/// blocks; an empty final block closes the stream, and the trailer's CRC is combined from the parts' CRCs.
package enum GzipMember {
    package static func write(_ parts: [PagePart]) -> [UInt8] {
        var output: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]  // no name, no time, unknown OS
        // What the parts hold, a stored block's 5-byte header for each 65,535 bytes, the header and trailer.
        output.reserveCapacity(parts.reduce(32) { $0 + $1.heldBytes + 5 * ($1.heldBytes / 65_535 + 1) })
        var crc: UInt32 = 0
        var size = 0
        for part in parts {
            switch part {
            case .plain(let bytes):
                storedBlocks(bytes, to: &output)
                crc = CRC32.checksum(bytes, continuing: crc)
                size += bytes.count
            case .deflated(let deflated):
                output += deflated.stream
                crc = CRC32.combine(crc, deflated.crc, secondLength: deflated.size)
                size += deflated.size
            }
        }
        output += [0x03, 0x00]  // a final fixed-Huffman block holding only its end
        for value in [crc, UInt32(truncatingIfNeeded: size)] {
            output += [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
        }
        return output
    }

    /// Stored blocks of at most 65,535 bytes, each: a header byte (not final, stored, padded to the byte), the
    /// length and its complement, little-endian, then the bytes.
    static func storedBlocks(_ bytes: [UInt8], to output: inout [UInt8]) {
        var start = 0
        while start < bytes.count {
            let count = min(65_535, bytes.count - start)
            let length = UInt16(count)
            output += [0, UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8(~length >> 8)]
            output += bytes[start..<start + count]
            start += count
        }
    }

    /// Whether an `Accept-Encoding` value takes gzip: `gzip` (or `x-gzip`) with a weight above 0, or, when gzip is
    /// not named, `*` with one (RFC 9110, 12.5.3).
    package static func accepted(_ header: String?) -> Bool {
        guard let header else { return false }
        var named: Bool?
        var any: Bool?
        for item in header.split(separator: ",") {
            let fields = item.split(separator: ";")
            let name = fields.first.map { $0.trimmingSpaces.lowercased() } ?? ""
            var weight = 1.0
            for parameter in fields.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" {
                    weight = Double(pair[1].trimmingSpaces) ?? 0
                }
            }
            if name == "gzip" || name == "x-gzip" { named = (named ?? false) || weight > 0 }
            if name == "*" { any = weight > 0 }
        }
        return named ?? any ?? false
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
