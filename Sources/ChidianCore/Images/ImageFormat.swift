import Foundation

/// The four accepted image types, recognised by their magic numbers and measured from their headers only:
/// pixels are never decoded, so a hostile file cannot make the server do real work.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case webp = "image/webp"
    case gif = "image/gif"

    public var contentType: String { rawValue }

    public static let maxBytes = 8 * 1024 * 1024
    /// Larger claimed sides are refused: a decoder on a client would try to allocate them.
    public static let maxSide = 20_000
    /// A cap on width × height: a small file may declare a huge image, which every client that shows it must
    /// decode (40 megapixels is about 160 MB as RGBA; a phone photo is 12–48).
    public static let maxPixels = 40_000_000

    public struct Info: Sendable, Equatable {
        public var format: ImageFormat
        public var width: Int
        public var height: Int
    }

    public enum Failure: Error, Equatable {
        /// Not one of the four types (415).
        case unsupported
        /// Empty, truncated or unreadable header, or absurd dimensions (400).
        case invalid(String)
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
    private static let gif87: [UInt8] = Array("GIF87a".utf8)
    private static let gif89: [UInt8] = Array("GIF89a".utf8)
    private static let riff: [UInt8] = Array("RIFF".utf8)
    private static let webpTag: [UInt8] = Array("WEBP".utf8)

    /// The type and size of `bytes`, judged by content alone.
    public static func inspect(_ bytes: [UInt8]) throws(Failure) -> Info {
        guard !bytes.isEmpty else { throw .invalid("The image is empty.") }
        let reader = ByteReader(bytes)
        let info: Info
        if reader.starts(with: pngSignature) {
            info = try png(reader)
        } else if reader.starts(with: jpegSignature) {
            info = try jpeg(reader)
        } else if reader.starts(with: gif87) || reader.starts(with: gif89) {
            info = try gif(reader)
        } else if reader.starts(with: riff), bytes.count >= 12, reader.matches(webpTag, at: 8) {
            info = try webp(reader)
        } else if isTruncatedSignature(bytes) {
            throw .invalid("The image header is truncated.")
        } else {
            throw .unsupported
        }
        guard info.width > 0, info.height > 0 else { throw .invalid("The image header gives a zero size.") }
        guard info.width <= maxSide, info.height <= maxSide else {
            throw .invalid("The image header claims \(info.width)×\(info.height) pixels; at most \(maxSide) per side.")
        }
        guard info.width * info.height <= maxPixels else {
            throw .invalid(
                "The image header claims \(info.width)×\(info.height) pixels; at most \(maxPixels / 1_000_000) megapixels."
            )
        }
        return info
    }

    /// A body shorter than a signature it begins: an image cut off, not another type.
    private static func isTruncatedSignature(_ bytes: [UInt8]) -> Bool {
        for signature in [pngSignature, jpegSignature, gif87, gif89] where bytes.count < signature.count {
            if signature.starts(with: bytes) { return true }
        }
        // WebP: "RIFF", a 4-byte size, then "WEBP" from byte 8.
        guard bytes.count < 12 else { return false }
        if bytes.count <= 4 { return riff.starts(with: bytes) }
        return bytes.starts(with: riff) && (bytes.count <= 8 || webpTag.starts(with: bytes[8...]))
    }

    /// PNG: the IHDR chunk must come first; width and height are big-endian 32-bit.
    private static func png(_ r: ByteReader) throws(Failure) -> Info {
        guard r.count >= 24, r.matches(Array("IHDR".utf8), at: 12) else {
            throw .invalid("The PNG header (IHDR) is missing or truncated.")
        }
        return Info(format: .png, width: Int(r.uint32BE(at: 16)), height: Int(r.uint32BE(at: 20)))
    }

    /// GIF: the logical screen size, little-endian 16-bit, right after the signature.
    private static func gif(_ r: ByteReader) throws(Failure) -> Info {
        guard r.count >= 10 else { throw .invalid("The GIF header is truncated.") }
        return Info(format: .gif, width: Int(r.uint16LE(at: 6)), height: Int(r.uint16LE(at: 8)))
    }

    /// JPEG: walk the marker segments from SOI to the first start-of-frame (SOFn) and read its size.
    private static func jpeg(_ r: ByteReader) throws(Failure) -> Info {
        var i = 2
        while true {
            guard i < r.count, r[i] == 0xFF else { throw .invalid("The JPEG header is truncated or malformed.") }
            while i < r.count, r[i] == 0xFF { i += 1 }  // fill bytes
            guard i < r.count else { throw .invalid("The JPEG header is truncated.") }
            let marker = r[i]
            i += 1
            switch marker {
            case 0x01, 0xD0...0xD8:
                continue  // standalone markers carry no length
            case 0xD9, 0xDA:
                throw .invalid("The JPEG has no frame header before its image data.")
            default:
                break
            }
            guard i + 2 <= r.count else { throw .invalid("The JPEG header is truncated.") }
            let length = Int(r.uint16BE(at: i))
            guard length >= 2 else { throw .invalid("The JPEG has a malformed segment.") }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                // length(2) precision(1) height(2) width(2)
                guard length >= 7, i + 7 <= r.count else { throw .invalid("The JPEG frame header is truncated.") }
                return Info(format: .jpeg, width: Int(r.uint16BE(at: i + 5)), height: Int(r.uint16BE(at: i + 3)))
            }
            i += length
        }
    }

    /// WebP: the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended, with the canvas size).
    private static func webp(_ r: ByteReader) throws(Failure) -> Info {
        guard r.count >= 20 else { throw .invalid("The WebP header is truncated.") }
        let chunk = String(decoding: r.slice(12, 4), as: UTF8.self)
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard r.count >= 30, r.matches([0x9D, 0x01, 0x2A], at: 23) else {
                throw .invalid("The WebP (VP8) header is truncated.")
            }
            return Info(
                format: .webp, width: Int(r.uint16LE(at: 26) & 0x3FFF), height: Int(r.uint16LE(at: 28) & 0x3FFF))
        case "VP8L":
            // Signature 0x2F, then width-1 and height-1 in 14 bits each.
            guard r.count >= 25, r[20] == 0x2F else { throw .invalid("The WebP (VP8L) header is truncated.") }
            let bits = r.uint32LE(at: 21)
            return Info(format: .webp, width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            // Flags (1), reserved (3), canvas width-1 and height-1 in 24 bits each.
            guard r.count >= 30 else { throw .invalid("The WebP (VP8X) header is truncated.") }
            return Info(format: .webp, width: Int(r.uint24LE(at: 24)) + 1, height: Int(r.uint24LE(at: 27)) + 1)
        default:
            throw .invalid("The WebP has no VP8, VP8L or VP8X chunk first.")
        }
    }
}

/// Bounds-aware reads of integers from a byte array; callers check lengths first.
struct ByteReader {
    package let bytes: [UInt8]
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var count: Int { bytes.count }
    package subscript(_ index: Int) -> UInt8 { bytes[index] }

    package func starts(with prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
    package func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
        offset + pattern.count <= bytes.count && bytes[offset..<offset + pattern.count].elementsEqual(pattern)
    }
    package func slice(_ offset: Int, _ length: Int) -> ArraySlice<UInt8> { bytes[offset..<offset + length] }

    func uint16BE(at i: Int) -> UInt16 { UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) }
    func uint16LE(at i: Int) -> UInt16 { UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 }
    func uint24LE(at i: Int) -> UInt32 {
        UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16
    }
    func uint32BE(at i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }
    func uint32LE(at i: Int) -> UInt32 {
        UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }
}
