import Foundation
import OpenAPIRuntime
import Testing

@testable import ChidianClient

/// Posting a review with a photo, and editing it from a copy someone else's edit made stale.
@Suite(Demo.needsServer) struct WritingScreenTests {
    @Test func postAReviewWithAPhotoThenEditAStaleCopy() async throws {
        let client = try Demo.client()
        try await client.register(name: Demo.uniqueName("writer"), password: "a long password")
        let png = try Demo.png()
        // MUT: the photo, then the review carrying it
        let image = try await client.uploadImage(png, type: .png)
        let review = try await client.postReview(
            store: "s002", rating: 4, body: "麻婆豆腐很下饭", imageIds: [image.id],
            scores: .init(taste: 5, environment: 3, service: 4), pricePerPerson: 80)
        // validate
        #expect(image.contentType == "image/png" && image.bytes == png.count && image.url == "/v1/images/\(image.id)")
        #expect(review.kind == .review && review.rating == 4 && review.imageUrls == [image.url])
        #expect(review.scores?.taste == 5 && review.pricePerPerson == 80 && review.version == 1)
        let served = try await client.api.getImage(path: .init(id: image.id))
        let bytes = try await Data(collecting: served.ok.body.png, upTo: 1 << 20)
        #expect(bytes == png)

        // MUT: an edit from the copy just read, then one from the same (now stale) copy
        let edited = try await client.edit(review, body: "麻婆豆腐很下饭，米饭要两碗")
        let stale = try await Demo.refusal { try await client.edit(review, rating: 2) }
        // validate
        #expect(edited.version == review.version + 1 && edited.body.hasSuffix("两碗"))
        #expect(stale.code == .versionConflict && stale.status == 412)
        #expect(try await client.comment(review.id, track: false).rating == 4, "the stale edit changed nothing")
        let again = try await client.edit(edited, rating: 2)
        #expect(again.rating == 2 && again.version == edited.version + 1)
        try await client.delete(again)
        let gone = try await Demo.refusal { try await client.comment(review.id) }
        #expect(gone.code == .commentNotFound)
    }

    @Test func writingRefusals() async throws {
        let client = try Demo.client()
        let anonymous = try await Demo.refusal { try await client.postReview(store: "s002", rating: 5, body: "好吃") }
        #expect(anonymous.code == .loginRequired && anonymous.status == 401)
        try await client.register(name: Demo.uniqueName("writer"), password: "a long password")
        let rating = try await Demo.refusal { try await client.postReview(store: "s002", rating: 6, body: "好吃") }
        #expect(rating.code == .invalidRating && rating.status == 400)
        let notImage = try await Demo.refusal { try await client.uploadImage(Data("not a picture".utf8), type: .png) }
        #expect(notImage.code == .unsupportedMediaType && notImage.status == 415)
    }

    /// Refusals answered before the server reads the body arrive as refusals, many at once on shared connections:
    /// a streamed body lost about 3 in 1000 of them to `HTTPClientError.bodyLengthMismatch` (BufferedBodyTransport).
    @Test func earlyRefusalsInParallel() async throws {
        let codes = try await withThrowingTaskGroup(of: ChidianError.Code.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    let client = try Demo.client()
                    return try await Demo.refusal { try await client.postReview(store: "s002", rating: 5, body: "好吃") }
                        .code
                }
            }
            return try await group.reduce(into: [ChidianError.Code]()) { $0.append($1) }
        }
        #expect(codes.count == 200 && codes.allSatisfy { $0 == .loginRequired })
    }
}
