import Foundation

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Small, real image files built byte by byte (or, for JPEG and WebP, tiny known-good files),
/// and broken variants of them.
enum TestImages {
    /// A valid RGB PNG of `width`×`height` red pixels: IHDR, one stored (uncompressed) zlib IDAT, IEND.
    static func png(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        // A header that claims a huge image carries no pixels: building them would take gigabytes.
        for _ in 0..<(width * height <= 1_000_000 ? height : 0) {
            raw.append(0)  // filter: none
            for _ in 0..<width { raw += [0xFF, 0x00, 0x00] }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let chunk = Array(raw[offset..<min(raw.count, offset + 65535)])
            offset += chunk.count
            let final: UInt8 = offset >= raw.count ? 1 : 0
            let length = UInt16(chunk.count)
            zlib +=
                [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + chunk
        } while offset < raw.count
        zlib += be32(adler32(raw))
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [8, 2, 0, 0, 0]  // 8-bit RGB, deflate, no filter method extras, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    /// A valid GIF89a: a `width`×`height` logical screen holding one 1×1 frame.
    static func gif(width: Int, height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height)
            + [0x80, 0x00, 0x00]  // global colour table of 2, background 0
            + [0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF]
            + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00]  // image descriptor: 1×1 at 0,0
            + [0x02, 0x02, 0x44, 0x01, 0x00]  // LZW min code size 2, one data sub-block
            + [0x3B]
    }

    /// A real 16×16 baseline JPEG (JFIF, DQT ×2, SOF0, DHT ×4, SOS).
    static let jpeg16: [UInt8] = Array(
        Data(
            base64Encoded: """
                /9j/4AAQSkZJRgABAQEAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8Q\
                EBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/wAARCAAQABADASIAAhEB\
                AxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABwQF/8QAJBAAAQQBBAICAwAAAAAAAAAAAQIDBAYFBwgSExEiABQJMTL/xAAVAQEBAAAAAAAAAAAAAAAAAAAA\
                Bv/EACMRAAECBQMFAAAAAAAAAAAAAAECEQMEBQYhABIxFRZhgeH/2gAMAwEAAhEDEQA/ABSm0mobc8HmExLUlRzzEWPkJWW+ulrsaUVAseUgslSlH9LK\
                uPryIKuWPZdskzXmm3fX5m2nF4GlVxx/HOpx4ks51+MiU/Iaad7UcUo4tILoS4kqcWkezS0hO/HvuRp0rO6hWnWO1UisZVuFi4GFeyEpmGepa5S5SWVP\
                uciFKRFLgSrwetnyPIB+Vb4N9mKhQMzo5po9XLdDs9d6ZVix2VEhiL9kuNPxw2gEKcDQ/rs8AuA8VAe0vdl7VOYn+27flGAUgmITjbhSmCg3BYlyeWDk\
                Molvw4KOp1KM6iCNvngZHwetf//Z
                """)!)

    /// Real 1×1 WebP files: lossy (VP8), lossless (VP8L) and extended with alpha (VP8X).
    static let webpLossy: [UInt8] = Array(
        Data(base64Encoded: "UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA")!)
    static let webpLossless: [UInt8] = Array(Data(base64Encoded: "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")!)
    static let webpExtended: [UInt8] = Array(
        Data(
            base64Encoded:
                "UklGRkoAAABXRUJQVlA4WAoAAAAQAAAAAAAAAAAAQUxQSAwAAAARBxAR/Q9ERP8DAABWUDggGAAAABQBAJ0BKgEAAQAAAP4AAA3AAP7mtQAAAA=="
        )!)

    /// `jpeg16` with its frame header claiming another size.
    static func jpeg(claimingWidth width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg16
        let sof = sofOffset(bytes)
        bytes.replaceSubrange(sof + 3..<sof + 7, with: be16(height) + be16(width))  // length, precision, height, width
        return bytes
    }

    /// The index of the SOF0 marker's length field in `bytes`.
    static func sofOffset(_ bytes: [UInt8]) -> Int {
        (0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }! + 2
    }

    /// `bytes` followed by zeros up to `count` bytes (trailing data after an image is allowed).
    static func padded(_ bytes: [UInt8], to count: Int) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: count - bytes.count)
    }

    // MARK: Byte helpers

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return be32(UInt32(data.count)) + typeBytes + data + be32(crc32(typeBytes + data))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    /// An uploaded image of `uploaderID`, stored as an upload is (row and bytes); each call a distinct PNG.
    static func row(_ app: TestApp, uploaderID: String) async throws -> String {
        let bytes = png(width: 1, height: 1) + Array(UUID().uuidString.utf8)
        return try await ImageRepository(database: app.database)
            .create(bytes: bytes, info: try ImageFormat.inspect(bytes), uploaderID: uploaderID).id
    }
}
