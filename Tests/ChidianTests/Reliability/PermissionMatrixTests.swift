import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Every mutating route (and the role-gated reads) × every kind of caller, with the status and problem code
/// each cell must get. Each cell runs against its own fresh cast and store, so cells cannot affect each other.
/// `WRITE_DOCS=1 swift test --filter PermissionMatrixTests` rewrites docs/PERMISSIONS.md from the run.
@Suite struct PermissionMatrixTests {
    enum Actor: Int, CaseIterable, Sendable {
        case nobody, user, otherUser, manager, otherManager, admin

        var title: String {
            switch self {
            case .nobody: "nobody"
            case .user: "user (author)"
            case .otherUser: "another user"
            case .manager: "the store's manager"
            case .otherManager: "another manager"
            case .admin: "admin"
            }
        }
    }

    /// A fresh cast for one cell: two users, two managers, an admin, a store of `manager`, a review by `user`
    /// and an image uploaded by `user`.
    struct World: Sendable {
        let sessions: [Actor: Session]
        let passwords: [Actor: String]
        let storeID: String
        let reviewID: String
        let userImageID: String
        let suffix: String

        func session(_ actor: Actor) -> Session? { sessions[actor] }

        static func make(_ client: any TestClientProtocol, _ app: TestApp) async throws -> World {
            let suffix = String(UUID().uuidString.prefix(8)).lowercased()
            let user = try await client.register("user-\(suffix)")
            let otherUser = try await client.register("other-\(suffix)")
            let manager = try await client.register("boss-\(suffix)", role: "manager")
            let otherManager = try await client.register("rival-\(suffix)", role: "manager")
            let admin = try await app.admin(client, name: "admin-\(suffix)")
            let category = try await StoreFixture.category(app, "cat-\(suffix)")
            let store = try await StoreFixture.store(client, manager, name: "店-\(suffix)", categoryID: category)
            let review = try await client.send(
                .post, "/v1/stores/\(store.id)/comments", body: ["rating": 4, "body": "好吃"],
                token: user.token)
            guard review.status == .created else { throw TestFailure("review: \(review.status) \(review.text)") }
            return World(
                sessions: [
                    .user: user, .otherUser: otherUser, .manager: manager, .otherManager: otherManager, .admin: admin,
                ],
                passwords: [
                    .user: "correct horse", .otherUser: "correct horse", .manager: "correct horse",
                    .otherManager: "correct horse", .admin: "admin password",
                ],
                storeID: store.id, reviewID: try #require(review.json()["id"] as? String),
                userImageID: try await StoreFixture.image(app, uploaderID: user.id), suffix: suffix)
        }
    }

    struct Cell: Sendable {
        let client: any TestClientProtocol
        let world: World
        let actor: Actor
        var token: String? { world.session(actor)?.token }
        /// The actor's own name, or the user's for nobody (who signs in as them).
        var name: String { (world.session(actor) ?? world.session(.user)!).name }
        var password: String { world.passwords[actor] ?? world.passwords[.user]! }

        func send(_ method: HTTPRequest.Method, _ uri: String, body: [String: Any]? = nil) async throws -> TestResponse
        {
            try await client.send(method, uri, body: body, token: token)
        }
    }

    struct Row: Sendable {
        let route: String
        /// "201" or "403 not_store_owner", one per `Actor` in order.
        let expected: [String]
        let request: @Sendable (Cell) async throws -> TestResponse
    }

    static func signedIn(_ answer: String) -> [String] { ["401 login_required"] + Array(repeating: answer, count: 5) }

    static let rows: [Row] = [
        Row(route: "POST /v1/auth/register", expected: Array(repeating: "201", count: 6)) { cell in
            try await cell.send(
                .post, "/v1/auth/register",
                body: ["name": "new-\(cell.world.suffix)-\(cell.actor.rawValue)", "password": "long enough"])
        },
        Row(route: "POST /v1/auth/login", expected: Array(repeating: "200", count: 6)) { cell in
            try await cell.send(.post, "/v1/auth/login", body: ["name": cell.name, "password": cell.password])
        },
        Row(route: "POST /v1/auth/logout", expected: signedIn("204")) { cell in
            try await cell.send(.post, "/v1/auth/logout")
        },
        Row(route: "PATCH /v1/me", expected: signedIn("200")) { cell in
            try await cell.send(.patch, "/v1/me", body: ["name": "renamed-\(cell.world.suffix)-\(cell.actor.rawValue)"])
        },
        Row(route: "PUT /v1/me/password", expected: signedIn("204")) { cell in
            try await cell.send(
                .put, "/v1/me/password", body: ["currentPassword": cell.password, "newPassword": "another secret"])
        },
        Row(
            route: "DELETE /v1/me",
            expected: ["401 login_required", "204", "204", "409 stores_remain", "204", "204"]
        ) { cell in
            try await cell.send(.delete, "/v1/me", body: ["password": cell.password])
        },
        Row(
            route: "PUT /v1/me/avatar (the user's image)",
            expected: ["401 login_required", "200"] + Array(repeating: "400 invalid_images", count: 4)
        ) { cell in
            try await cell.send(.put, "/v1/me/avatar", body: ["imageId": cell.world.userImageID])
        },
        Row(route: "POST /v1/images", expected: signedIn("201")) { cell in
            var headers: HTTPFields = [.contentType: "image/gif"]
            if let token = cell.token { headers[.authorization] = "Bearer \(token)" }
            return try await cell.client.execute(
                uri: "/v1/images", method: .post, headers: headers,
                body: ByteBuffer(bytes: TestImages.gif(width: 2, height: 3)))
        },
        Row(
            route: "POST /v1/stores",
            expected: [
                "401 login_required", "403 manager_required", "403 manager_required", "201", "201",
                "403 manager_required",
            ]
        ) { cell in
            let category =
                try await cell.client.send(.get, "/v1/stores/\(cell.world.storeID)").json()["category"]
                as! [String: Any]
            return try await cell.send(
                .post, "/v1/stores", body: ["name": "新店", "categoryId": category["id"] as! String])
        },
        Row(
            route: "PATCH /v1/stores/{id}",
            expected: [
                "401 login_required", "403 not_store_owner", "403 not_store_owner", "200", "403 not_store_owner", "200",
            ]
        ) { cell in
            try await cell.send(.patch, "/v1/stores/\(cell.world.storeID)", body: ["address": "春熙路 1 号"])
        },
        Row(
            route: "DELETE /v1/stores/{id}",
            expected: [
                "401 login_required", "403 not_store_owner", "403 not_store_owner", "204", "403 not_store_owner", "204",
            ]
        ) { cell in
            try await cell.send(.delete, "/v1/stores/\(cell.world.storeID)")
        },
        Row(route: "PUT /v1/stores/{id}/favorite", expected: signedIn("204")) { cell in
            try await cell.send(.put, "/v1/stores/\(cell.world.storeID)/favorite")
        },
        Row(route: "DELETE /v1/stores/{id}/favorite", expected: signedIn("204")) { cell in
            try await cell.send(.delete, "/v1/stores/\(cell.world.storeID)/favorite")
        },
        Row(
            route: "POST /v1/stores/{id}/promotions",
            expected: [
                "401 login_required", "403 not_store_owner", "403 not_store_owner", "201", "403 not_store_owner",
                "403 not_store_owner",
            ]
        ) { cell in
            try await cell.send(.post, "/v1/stores/\(cell.world.storeID)/promotions", body: ["amount": 100])
        },
        Row(
            route: "GET /v1/stores/{id}/promotions (read)",
            expected: [
                "401 login_required", "403 not_store_owner", "403 not_store_owner", "200", "403 not_store_owner", "200",
            ]
        ) { cell in
            try await cell.send(.get, "/v1/stores/\(cell.world.storeID)/promotions")
        },
        Row(
            route: "GET /v1/stores/{id}/insights (read)",
            expected: [
                "401 login_required", "403 not_store_owner", "403 not_store_owner", "200", "403 not_store_owner", "200",
            ]
        ) { cell in
            try await cell.send(.get, "/v1/stores/\(cell.world.storeID)/insights")
        },
        Row(
            route: "GET /v1/admin/stats (read)",
            expected: ["401 login_required"] + Array(repeating: "403 admin_required", count: 4) + ["200"]
        ) { cell in
            try await cell.send(.get, "/v1/admin/stats")
        },
        Row(
            route: "GET /v1/me/stores (read)",
            expected: [
                "401 login_required", "403 manager_required", "403 manager_required", "200", "200",
                "403 manager_required",
            ]
        ) { cell in
            try await cell.send(.get, "/v1/me/stores")
        },
        Row(
            route: "POST /v1/stores/{id}/comments",
            expected: ["401 login_required", "201", "201", "201", "403 not_store_owner", "403 forbidden"]
        ) { cell in
            try await cell.send(
                .post, "/v1/stores/\(cell.world.storeID)/comments", body: ["rating": 5, "body": "再来一次"])
        },
        Row(
            route: "PATCH /v1/comments/{id} (the user's review)",
            expected: ["401 login_required", "200"] + Array(repeating: "403 not_author", count: 4)
        ) { cell in
            try await cell.send(.patch, "/v1/comments/\(cell.world.reviewID)", body: ["rating": 2])
        },
        Row(
            route: "DELETE /v1/comments/{id} (the user's review)",
            expected: ["401 login_required", "204", "403 not_author", "403 not_author", "403 not_author", "204"]
        ) { cell in
            try await cell.send(.delete, "/v1/comments/\(cell.world.reviewID)")
        },
        Row(
            route: "PUT /v1/comments/{id}/like (the user's review)",
            expected: ["401 login_required", "403 own_comment", "204", "204", "204", "204"]
        ) { cell in
            try await cell.send(.put, "/v1/comments/\(cell.world.reviewID)/like")
        },
        Row(
            route: "DELETE /v1/comments/{id}/like (the user's review)",
            expected: ["401 login_required", "403 own_comment", "204", "204", "204", "204"]
        ) { cell in
            try await cell.send(.delete, "/v1/comments/\(cell.world.reviewID)/like")
        },
        Row(
            route: "PUT /v1/comments/{id}/reply (the user's review)",
            expected: [
                "401 login_required", "403 not_store_owner", "403 not_store_owner", "200", "403 not_store_owner",
                "403 not_store_owner",
            ]
        ) { cell in
            try await cell.send(.put, "/v1/comments/\(cell.world.reviewID)/reply", body: ["body": "谢谢"])
        },
        Row(
            route: "POST /v1/comments/{id}/reports (the user's review)",
            expected: ["401 login_required", "403 own_comment", "201", "201", "201", "201"]
        ) { cell in
            try await cell.send(.post, "/v1/comments/\(cell.world.reviewID)/reports", body: ["reason": "spam"])
        },
        Row(
            route: "GET /v1/moderation/reports (read)",
            expected: ["401 login_required"] + Array(repeating: "403 admin_required", count: 4) + ["200"]
        ) { cell in
            try await cell.send(.get, "/v1/moderation/reports")
        },
        Row(
            route: "POST /v1/moderation/comments/{id} (hide the user's review)",
            expected: ["401 login_required"] + Array(repeating: "403 admin_required", count: 4) + ["200"]
        ) { cell in
            try await cell.send(.post, "/v1/moderation/comments/\(cell.world.reviewID)", body: ["action": "hide"])
        },
        Row(route: "DELETE /v1/me/interests", expected: signedIn("204")) { cell in
            try await cell.send(.delete, "/v1/me/interests")
        },
    ]

    /// "403 not_store_owner", or just the status when the answer is not a problem.
    static func outcome(_ response: TestResponse) -> String {
        response.problemCode.map { "\(response.status.code) \($0)" } ?? "\(response.status.code)"
    }

    @Test func everyCellGetsItsExpectedAnswer() async throws {
        try await TestApp.run { client, app in
            // MUT: rows in parallel, a few at a time; each cell on its own fresh world.
            let actual = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
                var results: [Int: [String]] = [:]
                var next = 0
                func start() {
                    guard next < Self.rows.count else { return }
                    let index = next
                    next += 1
                    group.addTask {
                        var outcomes: [String] = []
                        for actor in Actor.allCases {
                            let world = try await World.make(client, app)
                            let response = try await Self.rows[index].request(
                                Cell(client: client, world: world, actor: actor))
                            outcomes.append(Self.outcome(response))
                        }
                        return (index, outcomes)
                    }
                }
                for _ in 0..<4 { start() }
                while let (index, outcomes) = try await group.next() {
                    results[index] = outcomes
                    start()
                }
                return (0..<Self.rows.count).map { results[$0]! }
            }
            // validate
            var differing: [String] = []
            for (row, outcomes) in zip(Self.rows, actual) {
                for actor in Actor.allCases where outcomes[actor.rawValue] != row.expected[actor.rawValue] {
                    differing.append(
                        "\(row.route) as \(actor.title): expected \(row.expected[actor.rawValue]), got \(outcomes[actor.rawValue])"
                    )
                }
            }
            #expect(
                differing.isEmpty,
                Comment(rawValue: "\(differing.count) cells differ:\n" + differing.joined(separator: "\n")))
            #expect(Self.rows.count * Actor.allCases.count == 168)
            if ProcessInfo.processInfo.environment["WRITE_DOCS"] == "1" {
                try Self.document(actual: actual).write(to: Self.docURL, atomically: true, encoding: .utf8)
            }
        }
    }

    static var docURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../docs/PERMISSIONS.md"
        ).standardized
    }

    static func document(actual: [[String]]) -> String {
        let cells = rows.count * Actor.allCases.count
        let same = zip(rows, actual).reduce(0) { sum, pair in
            sum + zip(pair.0.expected, pair.1).filter { $0 == $1 }.count
        }
        var lines = [
            "# Permissions",
            "",
            "Generated by `Tests/ChidianTests/Reliability/PermissionMatrixTests.swift` "
                + "(`WRITE_DOCS=1 swift test --filter PermissionMatrixTests`); do not edit by hand.",
            "",
            "Every mutating route (and the role-gated reads) called by each kind of caller against a fresh cast: "
                + "a user who wrote the review, another user, the store's manager, another manager and an admin. "
                + "A cell is the status the server answered, with the problem `code` for errors. "
                + "Permissions are checked on the server, by role and by ownership.",
            "",
            "| route | " + Actor.allCases.map(\.title).joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---|", count: Actor.allCases.count),
        ]
        for (row, outcomes) in zip(rows, actual) {
            let parts = row.route.split(separator: " (", maxSplits: 1)
            let route = "`\(parts[0])`" + (parts.count > 1 ? " (\(parts[1])" : "")
            lines.append(
                "| \(route) | "
                    + outcomes.map { $0.replacingOccurrences(of: " ", with: " `") + ($0.contains(" ") ? "`" : "") }
                    .joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "\(cells) cells; \(same) match the expected table, \(cells - same) differ.",
            "",
            "Notes:",
            "- \"nobody\" sends no token; for `POST /v1/auth/login` it signs in as the user.",
            "- Admins moderate but do not write: no stores, no comments, no promotion; they edit and archive any store and delete any comment.",
            "- A manager's comment on their own store is a notice (201); on another manager's store it is refused.",
            "- `PUT /v1/me/avatar` takes only an image the caller uploaded; the user's image is refused to everyone else with `invalid_images`.",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
