import Foundation
import HTTPTypes
import HummingbirdTesting

@testable import ChidianCore

/// A store with its manager, and coupons offered through the API.
struct CouponFixture {
    let manager: Session
    let storeID: String

    static func make(_ client: any TestClientProtocol, _ app: TestApp, name: String = "券店") async throws -> Self {
        let manager = try await client.register("\(name)店长", role: "manager")
        let category = try await StoreAdmin(database: app.database).addCategory(name: "\(name)类").id
        let store = try await StoreFixture.store(client, manager, name: name, categoryID: category)
        return CouponFixture(manager: manager, storeID: store.id)
    }

    static func time(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// Offers a coupon live for a day unless `extra` says otherwise; its JSON.
    func offer(_ client: any TestClientProtocol, stock: Int = 10, extra: [String: Any] = [:]) async throws
        -> [String: Any]
    {
        var body: [String: Any] = [
            "title": "满100减20", "faceValue": 20, "minSpend": 100, "stock": stock,
            "endsAt": Self.time(Date().addingTimeInterval(86400)),
        ]
        body.merge(extra) { $1 }
        let response = try await client.send(.post, "/v1/stores/\(storeID)/coupons", body: body, token: manager.token)
        guard response.status == .created else { throw TestFailure("offer: \(response.status) \(response.text)") }
        return try response.json()
    }

    static func claim(_ client: any TestClientProtocol, _ couponID: String, _ user: Session, key: String? = nil)
        async throws -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return try await client.send(.post, "/v1/coupons/\(couponID)/claims", token: user.token, headers: headers)
    }
}
