import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct MultipartTests {
    @Test func findsTheNamedFieldAmongOthers() throws {
        let file: [UInt8] = [0x00, 0x0D, 0x0A, 0x2D, 0x2D, 0xFF]  // bytes that look like line ends and dashes
        let body =
            Array("preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhi\r\n".utf8)
            + Array(
                "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a;b.png\"\r\nContent-Type: image/png\r\n\r\n"
                    .utf8)
            + file + Array("\r\n--XyZ--\r\n".utf8)
        #expect(Multipart.isFormData("multipart/form-data; boundary=\"XyZ\""))
        #expect(!Multipart.isFormData("image/png"))
        #expect(try Multipart.boundary(contentType: "Multipart/Form-Data; charset=utf-8; boundary=\"XyZ\"") == "XyZ")
        #expect(try Multipart.field("file", in: body, boundary: "XyZ").map(Array.init) == file)
        #expect(try Multipart.field("caption", in: body, boundary: "XyZ").map(Array.init) == Array("hi".utf8))
        #expect(try Multipart.field("other", in: body, boundary: "XyZ") == nil)
    }

    @Test func malformedBodiesAreRefused() {
        #expect(throws: Problem.self) { try Multipart.boundary(contentType: "multipart/form-data") }
        #expect(throws: Problem.self) {
            try Multipart.field("file", in: Array("no delimiter here".utf8), boundary: "B")
        }
        #expect(throws: Problem.self) {
            try Multipart.field(
                "file", in: Array("--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nunterminated".utf8),
                boundary: "B")
        }
    }

    /// A header name byte above 127 is malformed input, never a crash (MultipartKit 4.7.1 indexes a 128-entry table
    /// with it and traps, which took the whole server down under fuzzing).
    @Test func nonASCIIHeaderNamesAreRefusedNotCrashed() {
        let body =
            Array("--B\r\nContent-Disposition: form-data; name=\"file\"\r\n".utf8) + [0xE9, 0x3A, 0x20, 0x78]
            + Array("\r\n\r\nabc\r\n--B--\r\n".utf8)
        let found = try? Multipart.field("file", in: body, boundary: "B")
        #expect(found.flatMap { $0 }.map(Array.init) == Array("abc".utf8) || found == nil)
    }
}
