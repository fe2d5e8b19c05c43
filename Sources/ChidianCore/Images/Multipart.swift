import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Just enough of `multipart/form-data` (RFC 7578) to take one field's bytes out of an upload.
package enum Multipart {
    /// Whether a Content-Type value names `multipart/form-data`.
    package static func isFormData(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "multipart/form-data"
    }

    /// The `boundary` parameter of a multipart Content-Type, or 400 `invalid_body`.
    package static func boundary(contentType: String) throws -> String {
        let parameters = Self.parameters(contentType)
        guard let boundary = parameters["boundary"], (1...70).contains(boundary.utf8.count) else {
            throw Problem.invalidBody("A multipart/form-data body needs a boundary of 1 to 70 characters.")
        }
        return boundary
    }

    /// The content of the first part whose field name is `name`, nil when there is none;
    /// 400 `invalid_body` when the body is not well-formed multipart.
    package static func field(_ name: String, in body: [UInt8], boundary: String) throws -> ArraySlice<UInt8>? {
        try parts(in: body, boundary: boundary).first { $0.name == name }?.content
    }

    /// Every part with its field name, in order; 400 `invalid_body` when the body is not well-formed multipart.
    package static func parts(in body: [UInt8], boundary: String) throws -> [(
        name: String?, content: ArraySlice<UInt8>
    )] {
        let malformed = Problem.invalidBody("The multipart/form-data body is malformed.")
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        // The first delimiter opens the body or follows a preamble line.
        var position: Int
        if body.starts(with: delimiter) {
            position = delimiter.count
        } else if let found = find(crlf + delimiter, in: body, from: 0) {
            position = found + 2 + delimiter.count
        } else {
            throw malformed
        }
        var found: [(name: String?, content: ArraySlice<UInt8>)] = []
        while true {
            if matches(Array("--".utf8), in: body, at: position) { return found }  // the closing delimiter
            while position < body.count, body[position] == 32 || body[position] == 9 { position += 1 }  // padding
            guard matches(crlf, in: body, at: position) else { throw malformed }
            position += 2
            let headerEnd: Int
            let contentStart: Int
            if matches(crlf, in: body, at: position) {
                headerEnd = position
                contentStart = position + 2
            } else {
                guard let end = find(crlf + crlf, in: body, from: position) else { throw malformed }
                headerEnd = end
                contentStart = end + 4
            }
            guard let next = find(crlf + delimiter, in: body, from: contentStart) else { throw malformed }
            let headers = String(decoding: body[position..<headerEnd], as: UTF8.self)
            found.append((fieldName(headers: headers), body[contentStart..<next]))
            guard found.count <= 64 else { throw malformed }
            position = next + 2 + delimiter.count
        }
    }

    /// The `name` of a part's `Content-Disposition: form-data` header.
    static func fieldName(headers: String) -> String? {
        for line in headers.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":"),
                line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition"
            else { continue }
            return parameters(String(line[line.index(after: colon)...]))["name"]
        }
        return nil
    }

    /// `type; key=value; key="quoted; value"` → lowercased keys to unquoted values.
    package static func parameters(_ header: String) -> [String: String] {
        var result: [String: String] = [:]
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in header {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";", !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let key = piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if result[key] == nil { result[key] = value }
        }
        return result
    }

    package static func matches(_ pattern: [UInt8], in bytes: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && offset + pattern.count <= bytes.count
            && bytes[offset..<offset + pattern.count].elementsEqual(pattern)
    }

    /// The first index of `pattern` in `bytes` at or after `start` (memchr and memcmp: uploads are megabytes).
    package static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, start >= 0, start + pattern.count <= bytes.count else { return nil }
        return bytes.withUnsafeBytes { haystack -> Int? in
            pattern.withUnsafeBytes { needle -> Int? in
                guard let base = haystack.baseAddress, let first = needle.baseAddress else { return nil }
                var offset = start
                let last = haystack.count - needle.count
                while offset <= last {
                    guard let hit = memchr(base + offset, Int32(pattern[0]), last - offset + 1) else { return nil }
                    let index = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + index, first, needle.count) == 0 { return index }
                    offset = index + 1
                }
                return nil
            }
        }
    }
}
