import Foundation
import HTTPTypes
import HummingbirdTesting

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A signed-in test user.
struct Session: Sendable {
    let token: String
    let id: String
    let name: String
}

extension TestClientProtocol {
    /// Registers `name` through the API and returns the session.
    func register(_ name: String, role: String = "user", password: String = "correct horse") async throws -> Session {
        let response = try await send(
            .post, "/v1/auth/register", body: ["name": name, "password": password, "role": role])
        guard response.status == .created else {
            throw TestFailure("register \(name): \(response.status) \(response.text)")
        }
        let body = try response.json()
        let user = body["user"] as? [String: Any]
        return Session(token: body["token"] as! String, id: user?["id"] as! String, name: name)
    }
}

extension TestApp {
    /// Makes an admin directly (admins cannot register) and signs them in.
    func admin(_ client: any TestClientProtocol, name: String = "Admin") async throws -> Session {
        let hash = try await Passwords(cost: 4).hash("admin password")
        _ = try await UserRepository(database: database).create(name: name, passwordHash: hash, role: .admin)
        let response = try await client.send(
            .post, "/v1/auth/login", body: ["name": name, "password": "admin password"])
        let body = try response.json()
        return Session(
            token: body["token"] as! String, id: (body["user"] as! [String: Any])["id"] as! String, name: name)
    }
}
