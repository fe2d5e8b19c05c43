import Foundation
import HTTPTypes
import Synchronization

/// Coupons' rules, for the API and the web client alike: who may offer, end, claim and redeem, and in what order
/// a claim is refused. A coupon once sold out stays so (its stock never grows), so each server remembers it and
/// answers `sold_out` without asking PostgreSQL: a rush past the stock does not queue on the coupon's row.
package struct CouponService: Sendable {
    package let coupons: CouponRepository
    package let stores: StoreRepository
    /// Wrong codes at the table count as failed sign-ins do (scope `redeem`, per store and address).
    package let throttle: LoginThrottle?
    /// While other requests come, claims pass this gate (a few at a time, each slot resting after its claim), so a
    /// rush takes only what pages and the rest leave of the cores; with nothing else asked, they run at once.
    package let yielding: (gate: AdmissionGate, foreground: ForegroundTraffic)?
    private let soldOut = SoldOut()
    static let soldOutMemory = 10_000
    /// A sold-out coupon's holders are remembered up to this many (past it, each keyed claim asks PostgreSQL).
    static let holdersMemory = 20_000

    /// The coupons this server has seen sold out (shared by every copy of the service), with who holds them once
    /// read: after the sale no claim is made, so that set is final, and a keyed claim of anyone else cannot be a
    /// replay (a rush's sold-out answers then read nothing).
    final class SoldOut: Sendable {
        let coupons = Mutex<[String: Set<String>?]>([:])
    }

    package init(
        coupons: CouponRepository, stores: StoreRepository, throttle: LoginThrottle? = nil,
        yielding: (gate: AdmissionGate, foreground: ForegroundTraffic)? = nil
    ) {
        self.coupons = coupons
        self.stores = stores
        self.throttle = throttle
        self.yielding = yielding
    }

    /// Its manager offers a coupon (admins too get 403 `not_store_owner`).
    package func offer(_ user: AuthUser, storeID: String, draft: CouponDraft, now: Date = Date()) async throws
        -> CouponView
    {
        try Self.requireManager(user, managerID: try await stores.requireManagerID(of: storeID))
        return try await coupons.create(storeID: storeID, offer: try CouponRules.check(draft, now: now))
    }

    /// A live store's coupons (404 `store_not_found` otherwise).
    package func list(storeID: String, viewer: AuthUser?) async throws -> CouponList {
        _ = try await stores.requireManagerID(of: storeID)
        return CouponList(items: try await coupons.list(storeID: storeID, viewerID: viewer?.id))
    }

    package func coupon(id: String, viewer: AuthUser?) async throws -> CouponView {
        try await require(id, viewer: viewer).view
    }

    /// Its manager ends a coupon now; claims made stay usable.
    package func end(id: String, user: AuthUser) async throws {
        let found = try await require(id, viewer: user)
        try Self.requireManager(user, managerID: found.managerID)
        try await coupons.end(id: id)
    }

    /// A claim, or the claim this user already made under `key` (`replayed`: answered 200, not 201).
    package func claim(id: String, user: AuthUser, key: String?) async throws -> (claim: ClaimView, replayed: Bool) {
        guard PlausibleID.check(id) else { throw CouponError.notFound(id: id) }
        if let replayed = try await fromMemory(id: id, user: user, key: key) { return (replayed, true) }
        // Otherwise the batch finds a claim already made under the key first (`conflict`), and it is answered.
        do {
            let made = try await yieldingIfOthersCome {
                // The coupon may have sold out while this claim waited its turn: then memory answers it.
                if let replayed = try await fromMemory(id: id, user: user, key: key) {
                    return (claim: replayed, replayed: true)
                }
                return try await coupons.claim(couponID: id, userID: user.id, key: key)
            }
            // A claim valid one day is due at once: its holder hears now, not at the next minute's round.
            if made.claim.coupon.validDays == 1 { _ = try? await CouponReminders.send(coupons.database) }
            return made
        } catch CouponError.soldOut {
            await remember(soldOut: id)
            throw CouponError.soldOut
        }
    }

    /// For a coupon this server has seen sold out: the holder's claim under `key`, else `sold_out`; nil while it
    /// is not known sold out.
    private func fromMemory(id: String, user: AuthUser, key: String?) async throws -> ClaimView? {
        guard let holders = soldOut.coupons.withLock({ $0[id] }) else { return nil }
        // A read: a replay or a sold-out answer after it commits nothing, so needs no cache fence.
        if let key, holders?.contains(user.id) ?? true,
            let earlier = try await Database.$primaryUsed.withValue(
                nil, operation: { try await coupons.claim(userID: user.id, couponID: id, key: key) })
        {
            return earlier
        }
        throw CouponError.soldOut
    }

    private func yieldingIfOthersCome<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard let yielding, yielding.foreground.isPresent else { return try await body() }
        return try await yielding.gate.run(body)
    }

    private func remember(soldOut id: String) async {
        let first = soldOut.coupons.withLock { coupons -> Bool in
            guard coupons[id] == nil else { return false }
            if coupons.count >= Self.soldOutMemory { coupons.removeAll() }
            coupons[id] = .some(nil)
            return true
        }
        guard first, let holders = try? await coupons.holders(of: id, limit: Self.holdersMemory) else { return }
        soldOut.coupons.withLock { coupons in
            if coupons[id] != nil { coupons[id] = .some(holders) }
        }
    }

    package func claims(user: AuthUser, state: String?, page: PageRequest) async throws -> Page<ClaimView> {
        var parsed: CouponRepository.ClaimState?
        if let state {
            guard let known = CouponRepository.ClaimState(rawValue: state) else { throw CouponError.invalidState }
            parsed = known
        }
        return try await coupons.claims(userID: user.id, state: parsed, page: page)
    }

    /// Its manager redeems a code at the table: 404 `code_not_found` (unknown, or another store's), 409
    /// `already_redeemed`, 410 `claim_expired`; wrong codes are throttled as failed sign-ins are.
    package func redeem(storeID: String, user: AuthUser, code raw: String, address: String?) async throws
        -> ClaimView
    {
        try Self.requireManager(user, managerID: try await stores.requireManagerID(of: storeID))
        let attempt = try await throttle?.attempt("redeem", subject: storeID, address: address)
        guard let code = CouponCode.normalized(raw) else { throw CouponError.codeNotFound }
        switch try await coupons.redeem(code: code, storeID: storeID) {
        case .success(let claim):
            if let attempt { try await throttle?.succeeded(attempt) }
            return claim
        case .failure(.notFound): throw CouponError.codeNotFound
        case .failure(.alreadyRedeemed):
            if let attempt { try await throttle?.succeeded(attempt) }
            throw CouponError.alreadyRedeemed
        case .failure(.expired):
            if let attempt { try await throttle?.succeeded(attempt) }
            throw Problem(.gone, "claim_expired", "This claim expired before it was redeemed.")
        }
    }

    private func require(_ id: String, viewer: AuthUser?) async throws -> (view: CouponView, managerID: String) {
        guard PlausibleID.check(id), let found = try await coupons.coupon(id: id, viewerID: viewer?.id) else {
            throw CouponError.notFound(id: id)
        }
        return found
    }

    static func requireManager(_ user: AuthUser, managerID: String) throws {
        guard user.id == managerID else { throw StoreError.notOwner("Only the store's manager may do this.") }
    }
}
