import Hummingbird

/// A request's query string, read at the edge by one parser per kind of parameter: ids, lists of ids, positions,
/// integers (money, limits) and choices (search reads its text with `SearchQuery`). Each refuses what it cannot read with the 400 the caller names, so
/// nothing unchecked reaches SQL or a problem's detail. The API, the web and the pick's form all read through it.
package struct QueryParameters: Sendable {
    /// The first value of each name, percent-decoded.
    private let values: [String: String]

    package init(_ values: [String: String]) {
        self.values = values
    }

    package init(_ parameters: Parameters) {
        var values: [String: String] = [:]
        for (key, value) in parameters where values[String(key)] == nil { values[String(key)] = String(value) }
        self.values = values
    }

    /// The value as sent, nil when absent; for what is only compared (`?track=false`) or parsed elsewhere.
    package subscript(_ name: String) -> String? { values[name] }

    /// Absent or empty: nil.
    private func present(_ name: String) -> String? {
        guard let raw = values[name], !raw.isEmpty else { return nil }
        return raw
    }

    /// An id (a store's, a category's): at most 64 bytes, no control character; absent or empty is nil.
    package func id(_ name: String, orElse refusal: (String) -> any Error) throws -> String? {
        guard let raw = present(name) else { return nil }
        guard raw.utf8.count <= 64, PlausibleID.check(raw) else { throw refusal(raw) }
        return raw
    }

    /// Comma-separated ids (blanks around and between them ignored), at most `max`.
    package func ids(_ name: String, max: Int, orElse refusal: @autoclosure () -> any Error) throws -> [String] {
        let ids = (values[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard ids.count <= max, ids.allSatisfy({ $0.utf8.count <= 64 && PlausibleID.check($0) }) else {
            throw refusal()
        }
        return ids
    }

    /// A whole number in `range` (money, a limit), written in at most 12 characters.
    package func integer(
        _ name: String, in range: ClosedRange<Int>, emptyIsAbsent: Bool = true,
        orElse refusal: @autoclosure () -> any Error
    ) throws -> Int? {
        guard let raw = emptyIsAbsent ? present(name) : values[name] else { return nil }
        guard raw.utf8.count <= 12, let value = Int(raw), range.contains(value) else { throw refusal() }
        return value
    }

    /// One of a fixed set of words (a sort, a kind, a format). Empty is absent only where the caller says so.
    package func choice<Choice: RawRepresentable>(
        _ name: String, emptyIsAbsent: Bool = false, orElse refusal: @autoclosure () -> any Error
    ) throws -> Choice? where Choice.RawValue == String {
        guard let raw = emptyIsAbsent ? present(name) : values[name] else { return nil }
        guard raw.utf8.count <= 64, let choice = Choice(rawValue: raw) else { throw refusal() }
        return choice
    }

    /// `near` and `radius`: a position and how far from it (`NearQuery`'s 400s).
    package func position() throws -> NearQuery? {
        try NearQuery.parse(near: values["near"], radius: values["radius"])
    }
}

extension QueryParameters {
    package init(_ request: Request) {
        self.init(request.uri.queryParameters)
    }
}
