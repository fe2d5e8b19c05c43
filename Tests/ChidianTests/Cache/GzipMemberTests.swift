import CompressNIO
import Foundation
import NIOCore
import Testing

@testable import ChidianCore

/// A page of kept pieces goes to a browser as one gzip member written without compressing anything: the pieces'
/// deflate streams as kept, the rest as stored blocks, the CRC combined from the parts'.
@Suite struct GzipMemberTests {
    @Test func aPageOfPiecesAndPlainPartsReadsBackInEveryDecoder() async throws {
        var random = SeededRandom(seed: 11)
        let text = Array(String(repeating: "<li class=\"review\">好吃不贵，环境一般</li>\n", count: 300).utf8)
        let binary = (0..<70_000).map { _ in UInt8(random.below(256)) }  // over one stored block's 65,535
        let parts: [PagePart] = [
            .plain(Array("<!doctype html><title>店</title>".utf8)),
            .deflated(try DeflatedBytes(deflating: text)),
            .plain([]),
            .deflated(try DeflatedBytes(deflating: [])),
            .plain(binary),
            .deflated(try DeflatedBytes(deflating: Array(binary.prefix(5_000)))),
            .plain(Array("</main></html>".utf8)),
        ]
        let expected =
            Array("<!doctype html><title>店</title>".utf8) + text + binary + binary.prefix(5_000)
            + Array("</main></html>".utf8)
        let member = GzipMember.write(parts)
        #expect(try PagePart.joined(parts) == expected)
        // zlib through CompressNIO checks the trailer's CRC and size
        var input = ByteBuffer(bytes: member)
        var output = ByteBufferAllocator().buffer(capacity: expected.count)
        try input.decompress(to: &output, with: .gzip())
        #expect(Array(output.readableBytesView) == expected)
        // Debian's gzip, whose inflate is its own, checks them too
        #expect(try await Self.gunzip(member) == expected)
    }

    @Test func aPieceKeptDeflatedIsSmallerAndInflatesToItself() throws {
        let page = Array(String(repeating: "<article>麻辣香锅 ★★★★☆</article>\n", count: 200).utf8)
        let kept = try DeflatedBytes(deflating: page)
        #expect(kept.stream.count < page.count / 5)
        #expect(kept.size == page.count && kept.crc == CRC32.checksum(page))
        #expect(try kept.inflated() == page)
        // a sync flush ends the stream byte-aligned on an empty stored block, and no block is final
        #expect(Array(kept.stream.suffix(4)) == [0, 0, 0xff, 0xff])
        // streams are reused: the next piece starts afresh, never referring back into the last one's bytes
        let again = try DeflatedBytes(deflating: page)
        #expect(again.stream == kept.stream)
        #expect(try again.inflated() == page)
    }

    @Test func crcsCombineAsIfComputedOverTheWhole() {
        var random = SeededRandom(seed: 3)
        let bytes = (0..<10_000).map { _ in UInt8(random.below(256)) }
        for split in [0, 1, 777, 9_999, 10_000] {
            let first = Array(bytes[..<split])
            let second = Array(bytes[split...])
            let combined = CRC32.combine(
                CRC32.checksum(first), CRC32.checksum(second), secondLength: second.count)
            #expect(combined == CRC32.checksum(bytes), "split at \(split)")
            #expect(CRC32.checksum(second, continuing: CRC32.checksum(first)) == CRC32.checksum(bytes))
        }
    }

    @Test func acceptEncodingIsReadAsRFC9110Says() {
        let cases: [(String?, Bool)] = [
            (nil, false), ("", false), ("identity", false), ("br", false),
            ("gzip", true), ("GZIP", true), ("gzip, deflate, br, zstd", true), ("deflate , gzip ;q=0.5", true),
            ("x-gzip", true), ("*", true), ("gzip;q=0", false), ("gzip; q=0.000", false), ("*;q=0", false),
            ("gzip;q=0, *", false), ("*, gzip;q=0", false), ("br;q=1, *;q=0.1", true), ("gzip;q=abc", false),
        ]
        for (header, takes) in cases {
            #expect(GzipMember.accepted(header) == takes, "\(header ?? "nil")")
        }
    }

    /// The member through Debian's `gzip -dc`, run as the suite runs children (`ChildProcess`: no test thread
    /// blocks on it).
    static func gunzip(_ bytes: [UInt8]) async throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chidian-\(UUID()).gz")
        try Data(bytes).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let gzip = try ChildProcess(
            URL(fileURLWithPath: "/bin/gzip"), ["-dc", path.path], environment: [:],
            directory: FileManager.default.temporaryDirectory.path)
        defer { gzip.removeFiles() }
        #expect(await gzip.exited() == 0, "gzip -dc refused the member: \(gzip.error)")
        return [UInt8](try Data(contentsOf: gzip.outputURL))
    }
}
