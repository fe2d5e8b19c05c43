import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct ImageFormatTests {
    @Test func readsTheSizeFromEachHeader() throws {
        #expect(
            try ImageFormat.inspect(TestImages.png(width: 3, height: 2)) == .init(format: .png, width: 3, height: 2))
        #expect(
            try ImageFormat.inspect(TestImages.gif(width: 300, height: 20))
                == .init(format: .gif, width: 300, height: 20))
        #expect(try ImageFormat.inspect(TestImages.jpeg16) == .init(format: .jpeg, width: 16, height: 16))
        #expect(
            try ImageFormat.inspect(TestImages.jpeg(claimingWidth: 640, height: 480))
                == .init(format: .jpeg, width: 640, height: 480))
        #expect(try ImageFormat.inspect(TestImages.webpLossy) == .init(format: .webp, width: 1, height: 1))
        #expect(try ImageFormat.inspect(TestImages.webpLossless) == .init(format: .webp, width: 1, height: 1))
        #expect(try ImageFormat.inspect(TestImages.webpExtended) == .init(format: .webp, width: 1, height: 1))
    }

    @Test func readsWebPSizesBeyondOneByte() throws {
        // VP8X canvas 1000×700 (stored minus one, 24-bit little-endian).
        var extended = TestImages.webpExtended
        extended.replaceSubrange(24..<30, with: [0xE7, 0x03, 0x00, 0xBB, 0x02, 0x00])
        #expect(try ImageFormat.inspect(extended) == .init(format: .webp, width: 1000, height: 700))
        // VP8 14-bit sizes 500×250.
        var lossy = TestImages.webpLossy
        lossy.replaceSubrange(26..<30, with: [0xF4, 0x01, 0xFA, 0x00])
        #expect(try ImageFormat.inspect(lossy) == .init(format: .webp, width: 500, height: 250))
        // VP8L: width-1 = 99, height-1 = 49 in 14 bits each.
        var lossless = TestImages.webpLossless
        let bits: UInt32 = 99 | 49 << 14
        lossless.replaceSubrange(
            21..<25, with: [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)])
        #expect(try ImageFormat.inspect(lossless) == .init(format: .webp, width: 100, height: 50))
    }

    @Test func theJPEGWalkSkipsSegmentsAndFillBytes() throws {
        // An APP1 segment and fill bytes before the frame header.
        var bytes = TestImages.jpeg16
        bytes.insert(contentsOf: [0xFF, 0xE1, 0x00, 0x06, 0x45, 0x78, 0x69, 0x66, 0xFF, 0xFF], at: 2)
        #expect(try ImageFormat.inspect(bytes) == .init(format: .jpeg, width: 16, height: 16))
    }

    @Test func otherContentIsUnsupported() {
        for bytes: [UInt8] in [
            Array("hello, this is text".utf8), Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8),
            Array("BM".utf8) + [UInt8](repeating: 0, count: 60), Array("RIFF\u{24}\0\0\0WAVEfmt ".utf8), [0x00],
        ] {
            #expect(throws: ImageFormat.Failure.unsupported) { try ImageFormat.inspect(bytes) }
        }
    }

    @Test func brokenHeadersAreInvalid() throws {
        let sofEnd = TestImages.sofOffset(TestImages.jpeg16)
        let broken: [[UInt8]] = [
            [],
            Array(TestImages.png(width: 3, height: 2).prefix(20)),
            Array(TestImages.png(width: 3, height: 2).prefix(4)),
            Array(TestImages.gif(width: 3, height: 2).prefix(8)),
            Array(TestImages.jpeg16.prefix(sofEnd + 4)),
            Array(TestImages.jpeg16.prefix(2)),
            [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08],  // scan data before any frame header
            Array(TestImages.webpLossy.prefix(27)),
            Array(TestImages.webpLossy.prefix(10)),
            Array(TestImages.webpExtended.prefix(26)),
            TestImages.png(width: 0, height: 2),
            TestImages.png(width: 100_000, height: 100_000),
            TestImages.png(width: 20_001, height: 1),
            TestImages.jpeg(claimingWidth: 16, height: 0),
        ]
        for bytes in broken {
            do throws(ImageFormat.Failure) {
                let info = try ImageFormat.inspect(bytes)
                Issue.record("\(bytes.prefix(12)) accepted as \(info)")
            } catch .unsupported {
                Issue.record("\(bytes.prefix(12)) counted as unsupported, not invalid")
            } catch .invalid(_) {}
        }
        #expect(try ImageFormat.inspect(TestImages.png(width: 20_000, height: 2_000)).width == 20_000)
        // Each side allowed, but 400 megapixels in all: a 100-byte file no app should have to decode.
        #expect(throws: ImageFormat.Failure.self) {
            try ImageFormat.inspect(TestImages.png(width: 20_000, height: 20_000))
        }
        #expect(try ImageFormat.inspect(TestImages.png(width: 8_000, height: 5_000)).height == 5_000)
        #expect(throws: ImageFormat.Failure.self) {
            try ImageFormat.inspect(TestImages.png(width: 8_000, height: 5_001))
        }
    }
}
