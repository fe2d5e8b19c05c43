import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// The pick written from the stores' cached JSON (`PickService.written`, what the API sends with the cache on)
/// against the answer of their views (`PickService.answer`, what the web client renders): the same bytes for the same
/// draws, for every kind of viewer, including one who favorited the stores and the manager who sees their ad spend.
@Suite struct PickWrittenTests {
    @Test func theWrittenPickIsTheAnswersJSON() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: 60 stores around Chunxi Road with ad spend, most favorited by one user
            let manager = try await client.register("店长", role: "manager")
            let eater = try await client.register("食客")
            let admin = try await client.register("管理员")
            try await app.database.query("UPDATE users SET role = 'admin' WHERE id = \(admin.id)")
            let main = try await StoreFixture.category(app, "火锅")
            let second = try await StoreFixture.category(app, "面馆")
            try await NearWalkTests.crowd(app, managerID: manager.id, categories: [main, second], count: 60)
            try await app.database.query("UPDATE stores SET ad_spend = 10 + length(name)")
            try await app.database.query(
                """
                INSERT INTO favorites (user_id, store_id)
                    SELECT \(eater.id), id FROM stores WHERE archived_at IS NULL AND name NOT LIKE '%3'
                """)
            await app.settle()
            func user(_ session: Session, _ role: Role) -> Viewer {
                .user(AuthUser(id: session.id, name: session.name, role: role, tokenHash: []))
            }
            let viewers: [Viewer] = [
                .nobody, .visitor("visitor-1"), user(eater, .user), user(manager, .manager), user(admin, .admin),
            ]
            let questions = try [
                ["near": "30.659,104.081"],
                ["near": "30.659,104.081", "radius": "9000"],
                ["near": "30.659,104.081", "radius": "9000", "category": second],
            ].map { try PickService.Question(QueryParameters($0)) }
            let services = app.services
            let pick = buildServices(
                services,
                sessions: SessionRepository(
                    database: services.database, lifetime: services.config.sessionLifetime,
                    maxLifetime: services.config.sessionMaxLifetime, cache: services.caching?.sessions,
                    touches: services.sessionTouches)
            ).pick
            var compared = 0
            for viewer in viewers {
                for question in questions {
                    for seed in UInt64(0)..<8 {
                        let english = seed % 2 == 1
                        // MUT
                        var first = SeededRandom(seed: seed)
                        let answer = try await pick.answer(question, viewer: viewer, english: english, using: &first)
                        var second = SeededRandom(seed: seed)
                        let written = try await pick.written(
                            question, viewer: viewer, english: english, using: &second)
                        // validate
                        let expected = String(decoding: try JSONWriter.bytes(of: answer), as: UTF8.self)
                        let sent = String(decoding: try JSONWriter.bytes(of: written), as: UTF8.self)
                        #expect(sent == expected, "\(viewer) \(seed)")
                        compared += 1
                    }
                }
            }
            // The cases that differ from the plain anonymous bytes did occur.
            var generator = SeededRandom(seed: 99)
            let eaters = try await pick.written(
                questions[1], viewer: user(eater, .user), english: false, using: &generator)
            #expect(eaters.store.favorited || eaters.alternatives.contains(where: \.favorited))
            #expect(compared == viewers.count * questions.count * 8)
        }
    }
}
