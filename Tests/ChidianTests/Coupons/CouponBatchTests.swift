import Foundation
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianCore

/// Migration 031's batch: each claim judged alone and in order, a refusal a row that undoes nothing of the others,
/// and the coupon counted once per batch.
@Suite struct CouponBatchTests {
    @Test func eachClaimOfABatchIsJudgedAloneInOrder() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            var users: [Session] = []
            for n in 0..<4 { users.append(try await client.register("批\(n)")) }
            let coupon = try #require(try await shop.offer(client, stock: 4, extra: ["perUser": 2])["id"] as? String)
            let (a, b, c, d) = (users[0].id, users[1].id, users[2].id, users[3].id)
            let codes = (0..<8).map { _ in CouponCode.generate() }
            // MUT: the manager; a twice (allowed); a a third time (limit); b with a key, then b again with that key;
            // c, the last of the stock; d past it
            let rows = try await app.database.query(
                """
                SELECT ord, refusal, held, claimed, code FROM coupon_claim_batch(\(coupon),
                    \([shop.manager.id, a, a, a, b, b, c, d]), \(codes),
                    \(["", "", "", "", "batch-key-0001", "batch-key-0001", "", ""]))
                ORDER BY ord
                """)
            let got = try rows.map { try $0.decode((Int, String?, Int?, Int?, String?).self) }
            // validate
            #expect(got.map(\.0) == Array(1...8))
            let refusals = got.map(\.1)
            #expect(refusals == ["own_store", nil, nil, "claim_limit", nil, "conflict", nil, "sold_out"])
            #expect(got[1].2 == 1 && got[2].2 == 2 && got[4].2 == 1)
            #expect(got[1].3 == 1 && got[2].3 == 2 && got[4].3 == 3)
            #expect(got[1].4 == codes[1] && got[4].4 == codes[4])
            let (claimed, stored, heldByB) = try await app.database.query(
                """
                SELECT claimed, (SELECT count(*)::int FROM coupon_claims WHERE coupon_id = \(coupon)),
                    (SELECT held FROM coupon_holders WHERE coupon_id = \(coupon) AND user_id = \(b))::int
                FROM coupons WHERE id = \(coupon)
                """)[0].decode((Int, Int, Int).self)
            // b's second claim, refused for its key, left b holding the one claim stored
            #expect(claimed == 4 && stored == 4 && heldByB == 1)
            #expect(got[6].3 == 4 && got[6].4 == codes[6])
        }
    }

    @Test func anUnknownCouponRefusesEveryClaim() async throws {
        try await TestApp.run { client, app in
            let user = try await client.register("无券")
            let rows = try await app.database.query(
                """
                SELECT refusal FROM coupon_claim_batch('k_missing', \([user.id, user.id]),
                    \([CouponCode.generate(), CouponCode.generate()]), \(["", ""])) ORDER BY ord
                """)
            #expect(try rows.map { try $0.decode(String?.self) } == ["coupon_not_found", "coupon_not_found"])
        }
    }
}

/// A sold-out coupon's answers from memory: its holders, read once after the sale, still get their claim back for
/// their key; anyone else is `sold_out` at once, keyed or not.
@Suite struct CouponSoldOutMemoryTests {
    @Test func aHoldersKeyReplaysAfterTheSaleAndOthersAreSoldOut() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let holder = try await client.register("抢到了")
            let late = try await client.register("晚来了")
            let coupon = try #require(try await shop.offer(client, stock: 1)["id"] as? String)
            let made = try await CouponFixture.claim(client, coupon, holder, key: "sold-out-key-01")
            #expect(made.status == .created)
            // the server learns of the sale (and reads who holds the coupon)
            #expect(try await CouponFixture.claim(client, coupon, late).problemCode == "sold_out")
            // MUT: the holder's answer was lost; their retry finds the claim
            let again = try await CouponFixture.claim(client, coupon, holder, key: "sold-out-key-01")
            #expect(again.status == .ok)
            #expect(try again.json()["id"] as? String == (try made.json()["id"] as? String))
            // a new key of the holder's is a new claim: sold out
            #expect(
                try await CouponFixture.claim(client, coupon, holder, key: "sold-out-key-02").problemCode == "sold_out")
            #expect(
                try await CouponFixture.claim(client, coupon, late, key: "sold-out-key-03").problemCode == "sold_out")
        }
    }
}

/// Two servers on one database (each with its own batches and its own memory of sold-out coupons), claiming one
/// coupon at once: never one too many, and a holder's key answers on either.
@Suite struct CouponTwoServerTests {
    @Test func twoServersClaimExactlyTheStockAndEitherReplaysAKey() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            var registered: [Session] = []
            for n in 0..<24 { registered.append(try await client.register("两台\(n)")) }
            let users = registered
            let coupon = try #require(try await shop.offer(client, stock: 10)["id"] as? String)
            let servers: [any TestClientProtocol] = [client]
            try await app.uncached().test(.router) { other in
                let both = servers + [other]
                // MUT: every user claims once, keyed, half through each server, all at once
                let answers = try await withThrowingTaskGroup(of: (Int, Int, String?).self) { group in
                    for (n, user) in users.enumerated() {
                        group.addTask {
                            let response = try await CouponFixture.claim(
                                both[n % 2], coupon, user, key: "two-servers-\(n)")
                            return (n, Int(response.status.code), try? response.json()["id"] as? String)
                        }
                    }
                    return try await group.reduce(into: [(Int, Int, String?)]()) { $0.append($1) }
                }
                // validate
                let made = answers.filter { $0.1 == 201 }
                #expect(made.count == 10)
                #expect(answers.filter { $0.1 == 409 }.count == 14)
                let stored = try await app.database.query(
                    """
                    SELECT (SELECT count(*)::int FROM coupon_claims WHERE coupon_id = \(coupon)), claimed
                    FROM coupons WHERE id = \(coupon)
                    """)[0].decode((Int, Int).self)
                #expect(stored == (10, 10))
                // each holder's key answers its claim on the other server (from its memory of the sale, or its batch)
                for (n, _, id) in made {
                    let again = try await CouponFixture.claim(
                        both[(n + 1) % 2], coupon, users[n], key: "two-servers-\(n)")
                    #expect(again.status == .ok)
                    #expect(try again.json()["id"] as? String == id)
                }
                let late = try #require(answers.first { $0.1 == 409 })
                for server in both {
                    let refused = try await CouponFixture.claim(
                        server, coupon, users[late.0], key: "two-servers-\(late.0)")
                    #expect(refused.problemCode == "sold_out")
                }
            }
        }
    }
}

/// A sold-out coupon's batch refuses without waiting for the coupon's row: a server that has not yet seen the sale
/// does not queue on the row another holds.
@Suite struct CouponSoldOutRowTests {
    @Test func aSoldOutBatchDoesNotWaitForTheCouponsRow() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let holder = try await client.register("持券")
            let late = try await client.register("迟到")
            let coupon = try #require(try await shop.offer(client, stock: 1)["id"] as? String)
            #expect(try await CouponFixture.claim(client, coupon, holder).status == .created)
            let logger = TestDatabase.logger
            try await app.database.withConnection { blocker in
                // the row held by another transaction, as a batch of another server would
                try await blocker.rows("BEGIN", logger: logger)
                try await blocker.rows(
                    "SELECT 1 FROM coupons WHERE id = \(coupon) FOR NO KEY UPDATE", logger: logger)
                // MUT: a batch after the sale, bounded by a lock timeout of its own
                let refusals = try await app.database.transaction { connection in
                    try await connection.rows("SET LOCAL lock_timeout = '2s'", logger: logger)
                    return try await connection.rows(
                        """
                        SELECT refusal FROM coupon_claim_batch(\(coupon), \([late.id]),
                            \([CouponCode.generate()]), \([""]))
                        """, logger: logger
                    ).map { try $0.decode(String?.self) }
                }
                try await blocker.rows("ROLLBACK", logger: logger)
                // validate
                #expect(refusals == ["sold_out"])
            }
        }
    }
}
