import Foundation
import MultipartKit

/// `multipart/form-data` uploads (RFC 7578): the Content-Type's boundary, and one field's bytes parsed by
/// MultipartKit.
enum Multipart {
    /// Whether a Content-Type value names `multipart/form-data`.
    static func isFormData(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "multipart/form-data"
    }

    /// The `boundary` parameter of a multipart Content-Type (among any others), or 400 `invalid_body`.
    static func boundary(contentType: String) throws -> String {
        var boundary: String?
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            boundary = value
        }
        guard let boundary, (1...70).contains(boundary.utf8.count) else {
            throw Problem.invalidBody("A multipart/form-data body needs a boundary of 1 to 70 characters.")
        }
        return boundary
    }

    /// The content of the first part whose field name is `name`, nil when there is none;
    /// 400 `invalid_body` when the body is not well-formed multipart.
    static func field(_ name: String, in body: [UInt8], boundary: String) throws -> [UInt8]? {
        let parser = MultipartParser(boundary: boundary)
        var parts: [MultipartPart] = []
        var current = MultipartPart(body: [UInt8]())
        parser.onHeader = { field, value in current.headers.add(name: field, value: value) }
        parser.onBody = { buffer in current.body.writeBuffer(&buffer) }
        parser.onPartComplete = {
            parts.append(current)
            current = MultipartPart(body: [UInt8]())
        }
        do {
            try parser.execute(body)
        } catch {
            throw Problem.invalidBody("The multipart/form-data body is malformed.")
        }
        guard !parts.isEmpty else { throw Problem.invalidBody("The multipart/form-data body is malformed.") }
        return parts.first { $0.name == name }.map { Array($0.body.readableBytesView) }
    }
}
