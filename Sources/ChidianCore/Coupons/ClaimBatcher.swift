import Foundation
import PostgresNIO
import Synchronization

/// Claims of one coupon gathered while that coupon's previous batch runs, and sent together as one statement
/// (migration 031's `coupon_claim_batch`): the coupon's row is locked and written once per batch, not once per
/// claim. Alone, a claim is a batch of one and waits for nothing; in a rush, each batch carries the claims that
/// arrived during the last one. Nothing is answered before the batch commits.
package final class ClaimBatcher: Sendable {
    package let database: Database
    /// The most claims in one statement: bounds its time (and the row lock) when thousands wait.
    package let limit: Int
    /// The claims waiting per coupon; a coupon is here exactly while its batches run.
    private let queues = Mutex<[String: [Waiting]]>([:])

    /// One claim's answer from its batch: the row (its claim columns first, then `ord` and `refusal`).
    package enum Outcome: Sendable {
        case claimed(ClaimView)
        case refused(String)
    }

    struct Waiting {
        let user: String
        let code: String
        let key: String?
        let continuation: CheckedContinuation<Outcome, any Error>
    }

    package init(database: Database, limit: Int = 200) {
        self.database = database
        self.limit = limit
    }

    /// Claims coupon `coupon` for `user` in the next batch. Throws what the batch's statement threw (nothing of
    /// the batch was stored then).
    package func claim(coupon: String, user: String, code: String, key: String?) async throws -> Outcome {
        // The batch runs in a task of its own: this request wrote, so its answer waits for the cache fence.
        Database.primaryUsed?.set()
        return try await withCheckedThrowingContinuation { continuation in
            let waiting = Waiting(user: user, code: code, key: key, continuation: continuation)
            let first = queues.withLock { queues -> Bool in
                let first = queues[coupon] == nil
                queues[coupon, default: []].append(waiting)
                return first
            }
            if first {
                Task { await Database.$primaryUsed.withValue(nil) { await self.run(coupon) } }
            }
        }
    }

    /// Sends the coupon's waiting claims, `limit` at a time, until none is left; then the coupon has no queue.
    private func run(_ coupon: String) async {
        while true {
            let batch = queues.withLock { queues -> [Waiting] in
                guard let waiting = queues[coupon], !waiting.isEmpty else {
                    queues[coupon] = nil
                    return []
                }
                queues[coupon] = Array(waiting.dropFirst(limit))
                return Array(waiting.prefix(limit))
            }
            guard !batch.isEmpty else { return }
            do {
                let rows = try await database.query(
                    """
                    SELECT * FROM coupon_claim_batch(\(coupon), \(batch.map(\.user)), \(batch.map(\.code)),
                        \(batch.map { $0.key ?? "" }))
                    """)
                var outcomes: [Int: Outcome] = [:]
                for row in rows {
                    let cells = row.makeRandomAccess()
                    let ord = try cells[17].decode(Int.self)
                    if let refusal = try cells[18].decode(String?.self) {
                        outcomes[ord] = .refused(refusal)
                    } else {
                        outcomes[ord] = .claimed(try CouponRepository.claimView(row, trailing: 2))
                    }
                }
                for (index, waiting) in batch.enumerated() {
                    waiting.continuation.resume(returning: outcomes[index + 1] ?? .refused("coupon_not_found"))
                }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }
}
