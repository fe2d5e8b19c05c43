import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct ZipWriterTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    /// An archive of several entries (empty, binary, a UTF-8 name) reads back the same in Swift, in Python's
    /// zipfile (which checks every CRC) and in Debian's `unzip -t`.
    @Test func archivesReadBackEverywhere() throws {
        var random = SeededRandom(seed: 7)
        let binary = (0..<70_000).map { _ in UInt8(random.below(256)) }
        let files: [(String, [UInt8])] = [
            ("data.json", Array("{\"名字\":\"测试\"}".utf8)),
            ("images/empty.png", []),
            ("images/图片.bin", binary),
        ]
        var zip = ZipWriter(modified: Date(timeIntervalSince1970: 1_764_000_000))
        var archive: [UInt8] = []
        for (name, bytes) in files {
            archive += try zip.header(name: name, bytes: bytes)
            archive += bytes
        }
        archive += zip.finish()
        #expect(zip.entryCount == 3)

        let read = try ZipReading.entries(archive)
        #expect(read.map(\.name) == files.map(\.0))
        #expect(read.map(\.bytes) == files.map(\.1))
        #expect(try ZipReading.python(archive) == files.map(\.0))
        if let unzip = try ZipReading.unzipTest(archive) { #expect(unzip) }
    }

    @Test func anEmptyArchiveIsValid() throws {
        let archive = ZipWriter().finish()
        #expect(archive.count == 22)
        #expect(try ZipReading.entries(archive).isEmpty)
        #expect(try ZipReading.python(archive) == [])
    }
}
