import Foundation
import Testing

@testable import Chidian

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
        #expect(try Multipart.field("file", in: body, boundary: "XyZ") == file)
        #expect(try Multipart.field("caption", in: body, boundary: "XyZ") == Array("hi".utf8))
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
}
