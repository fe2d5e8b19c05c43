import Foundation

/// What the judge saw in a review (issue #48): a kind such as `burst` and a sentence for the admin. Shown to
/// admins only, never to the review's author.
public struct TrustSignal: Codable, Sendable, Equatable {
    public var kind: String
    public var detail: String
}

/// One review in the admins' trust queue, with the evidence and how suspicious it is.
public struct TrustItem: Encodable, Sendable, Equatable {
    public var comment: CommentView
    public var signals: [TrustSignal]
    public var score: Double
}
