/// What a feature's repositories and rules throw when a request cannot be done as asked: a stable `code` (the
/// problem code clients branch on), the kind of failure, and one line for people. They know nothing of HTTP:
/// `Problem.init(_:)` is the one place a kind becomes a status, and the CLI prints `message`.
public protocol DomainError: Error, Sendable, CustomStringConvertible {
    var code: String { get }
    var kind: FailureKind { get }
    var message: String { get }
}

extension DomainError {
    public var description: String { message }
}

public enum FailureKind: Sendable, Equatable {
    /// The input breaks a rule (400).
    case invalid
    /// The credentials are wrong (401).
    case unauthenticated
    /// The actor may not do this (403).
    case forbidden
    /// The thing named does not exist, or is not visible (404).
    case notFound
    /// The change clashes with what is stored (409).
    case conflict
}
