import ChidianCore
import Foundation

/// One problem in a seed directory, naming the file, the array index, the field and the bad value.
public struct SeedIssue: Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let index: Int?
    public let field: String?
    public let value: String?
    public let message: String

    public var description: String {
        var place = file
        if let index { place += "[\(index)]" }
        if let field { place += ".\(field)" }
        if let value { place += " = \(value)" }
        return "\(place): \(message)"
    }
}

/// A rejected seed: every issue found, not just the first. Nothing was written.
public struct SeedError: Error, Sendable, CustomStringConvertible {
    public let issues: [SeedIssue]
    public var description: String {
        "seed rejected with \(issues.count) error\(issues.count == 1 ? "" : "s"), nothing written: "
            + issues.prefix(3).map(\.description).joined(separator: "; ") + (issues.count > 3 ? "; …" : "")
    }
}

/// Collects issues; past a limit it stops recording (a million bad rows need not be listed one by one).
final class SeedIssues: @unchecked Sendable {
    private(set) var issues: [SeedIssue] = []
    private(set) var count = 0
    var warnings: [SeedIssue] = []
    let limit = 1000

    var isEmpty: Bool { count == 0 }

    func add(_ file: String, _ index: Int?, _ field: String?, _ value: String?, _ message: String) {
        count += 1
        if issues.count < limit {
            issues.append(SeedIssue(file: file, index: index, field: field, value: value, message: message))
        }
    }

    func warn(_ file: String, _ index: Int?, _ field: String?, _ value: String?, _ message: String) {
        if warnings.count < limit {
            warnings.append(SeedIssue(file: file, index: index, field: field, value: value, message: message))
        }
    }

    func error() -> SeedError {
        var list = issues
        if count > issues.count {
            list.append(
                SeedIssue(
                    file: "…", index: nil, field: nil, value: nil, message: "and \(count - issues.count) more errors"))
        }
        return SeedError(issues: list)
    }
}

/// Reads typed fields out of one element, recording an issue for each wrong one.
struct FieldReader {
    let file: String
    let index: Int
    let object: [String: JSONValue]
    let issues: SeedIssues
    /// Names the enclosing field of a nested object ("promotions[2]."), so issues name the whole path.
    var prefix = ""

    func fail(_ field: String, _ value: JSONValue?, _ message: String) {
        issues.add(file, index, prefix + field, value?.preview, message)
    }

    /// An optional array of objects, each read by its own reader; missing means empty.
    func objects(_ key: String) -> [FieldReader] {
        switch object[key] {
        case .array(let items)?:
            var readers: [FieldReader] = []
            for (position, item) in items.enumerated() {
                if case .object(let nested) = item {
                    readers.append(
                        FieldReader(
                            file: file, index: index, object: nested, issues: issues,
                            prefix: "\(prefix)\(key)[\(position)]."))
                } else {
                    fail("\(key)[\(position)]", item, "must be an object")
                }
            }
            return readers
        case nil, .null?: return []
        case let other?:
            fail(key, other, "must be an array of objects")
            return []
        }
    }

    func string(_ key: String, required: Bool = true) -> String? {
        switch object[key] {
        case .string(let text)?: return text
        case nil, .null?:
            if required { fail(key, nil, "is required") }
            return nil
        case let other?:
            fail(key, other, "must be a string")
            return nil
        }
    }

    /// The element's `id`: 1–64 characters and not seen before in this file.
    func id(seen: inout Set<String>) -> String? {
        guard let id = string("id") else { return nil }
        guard !id.isEmpty, id.count <= 64 else {
            fail("id", .string(id), "must be 1–64 characters")
            return nil
        }
        guard seen.insert(id).inserted else {
            fail("id", .string(id), "is a duplicate id")
            return nil
        }
        return id
    }

    func integer(_ key: String, required: Bool = true) -> Int? {
        switch object[key] {
        case .integer(let value)?: return value
        case .number(let value)?:
            fail(key, .number(value), "must be a whole number")
            return nil
        case nil, .null?:
            if required { fail(key, nil, "is required") }
            return nil
        case let other?:
            fail(key, other, "must be a number")
            return nil
        }
    }

    func bool(_ key: String) -> Bool? {
        switch object[key] {
        case .bool(let value)?: return value
        case nil, .null?: return nil
        case let other?:
            fail(key, other, "must be true or false")
            return nil
        }
    }

    /// An array of strings; missing means empty, as the original's files always had them.
    func strings(_ key: String) -> [String] {
        switch object[key] {
        case .array(let items)?:
            var result: [String] = []
            for (position, item) in items.enumerated() {
                if case .string(let text) = item {
                    result.append(text)
                } else {
                    issues.add(file, index, "\(prefix)\(key)[\(position)]", item.preview, "must be a string")
                }
            }
            return result
        case nil, .null?: return []
        case let other?:
            fail(key, other, "must be an array of strings")
            return []
        }
    }

    func date(_ key: String, required: Bool = false) -> Date? {
        guard let text = string(key, required: required) else { return nil }
        if let date = SeedDates.parse(text) { return date }
        fail(key, .string(text), "must be an RFC 3339 timestamp")
        return nil
    }
}

/// RFC 3339 timestamps with or without fractional seconds; exports write microseconds.
enum SeedDates {
    /// Parses the fraction itself: Foundation's ISO 8601 styles keep only milliseconds.
    static func parse(_ text: String) -> Date? {
        guard let dot = text.firstIndex(of: ".") else { return try? Date(text, strategy: Date.ISO8601FormatStyle()) }
        let digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        let zone = text[text.index(dot, offsetBy: digits.count + 1)...]
        guard let whole = try? Date(String(text[..<dot] + zone), strategy: Date.ISO8601FormatStyle()) else {
            return nil
        }
        return whole.addingTimeInterval(Double("0." + digits)!)
    }

    /// Microseconds, PostgreSQL's own resolution, rounded (a stored .123456 comes back from Date as .1234559… and
    /// must print .123456 again, or an export of an import would differ from the export it came from).
    static func format(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        let whole = seconds - (fraction < 0 ? 1 : 0)
        let text = Date(timeIntervalSince1970: Double(whole)).formatted(Date.ISO8601FormatStyle())
        return String(text.dropLast()) + String(format: ".%06dZ", (fraction + 1_000_000) % 1_000_000)
    }
}

extension CopyBuffer {
    /// A seed date in COPY's text form, at PostgreSQL's resolution.
    static func date(_ date: Date?) -> String? { date.map(SeedDates.format) }
}
