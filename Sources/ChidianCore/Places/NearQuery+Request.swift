import Hummingbird

extension NearQuery {
    /// `near` and `radius` of a request's query string: every route that takes a position reads it here, once.
    package static func parse(_ query: Parameters) throws -> NearQuery? {
        try parse(near: query["near"].map(String.init), radius: query["radius"].map(String.init))
    }
}
