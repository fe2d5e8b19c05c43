import Foundation

/// The store rules of the contract, free of any database.
public enum StoreRules {
    public static let maxNameLength = 64
    public static let maxDescriptionLength = 2000
    public static let maxAddressLength = 200
    public static let maxImages = 9
    public static let maxPromotionAmount = 1_000_000

    /// The trimmed name, or 400 `name_required` / `invalid_name` (over 64 characters or control characters).
    public static func validName(_ raw: String?) throws -> String {
        let name = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw StoreError.nameRequired }
        guard TextLimit.fits(name, maxNameLength) else {
            throw StoreError.invalidName("The store name must be at most \(maxNameLength) characters.")
        }
        guard !containsControl(name, allowingLineBreaks: false) else {
            throw StoreError.invalidName("The store name must not contain control characters.")
        }
        return name
    }

    /// The trimmed description (line breaks and tabs allowed), or 400 `invalid_description`.
    public static func validDescription(_ raw: String?) throws -> String {
        let text = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.fits(text, maxDescriptionLength) else {
            throw StoreError.invalidDescription("The description must be at most \(maxDescriptionLength) characters.")
        }
        guard !containsControl(text, allowingLineBreaks: true) else {
            throw StoreError.invalidDescription("The description must not contain control characters.")
        }
        return text
    }

    /// The trimmed address (one line), or 400 `invalid_address`.
    public static func validAddress(_ raw: String?) throws -> String {
        let text = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.fits(text, maxAddressLength) else {
            throw StoreError.invalidAddress("The address must be at most \(maxAddressLength) characters.")
        }
        guard !containsControl(text, allowingLineBreaks: false) else {
            throw StoreError.invalidAddress("The address must not contain control characters.")
        }
        return text
    }

    /// At most nine image ids, or 400 `invalid_images`; whether each is the actor's is checked in the database.
    public static func checkImageCount(_ ids: [String]) throws -> [String] {
        guard ids.count <= maxImages else {
            throw StoreError.invalidImages("A store has at most \(maxImages) images.")
        }
        guard ids.allSatisfy(PlausibleID.check) else {
            throw StoreError.invalidImages("An image id is not one this server issued.")
        }
        return ids
    }

    /// A JSON integer from 1 to 1,000,000; anything else (a string, a fraction, null, missing) 400 `invalid_amount`.
    public static func validAmount(_ value: JSONValue?) throws -> Int {
        guard let amount = value?.integerValue, (1...maxPromotionAmount).contains(amount) else {
            throw StoreError.invalidAmount
        }
        return amount
    }

    static func containsControl(_ text: String, allowingLineBreaks: Bool) -> Bool {
        text.unicodeScalars.contains { scalar in
            if allowingLineBreaks, scalar == "\n" || scalar == "\r" || scalar == "\t" { return false }
            return scalar.properties.generalCategory == .control
        }
    }
}

/// Who may do what to a store, by role and ownership.
public enum StorePermissions {
    /// Its manager and admins see a store's ad spend; nobody else ever does.
    public static func seesAdSpend(_ viewer: AuthUser?, managerID: String) -> Bool {
        guard let viewer else { return false }
        return viewer.role == .admin || viewer.id == managerID
    }

    /// Edit and archive: its manager or an admin, else 403 `not_store_owner`.
    public static func requireEditor(_ user: AuthUser, managerID: String) throws {
        guard user.role == .admin || user.id == managerID else {
            throw StoreError.notOwner("Only the store's manager or an admin may change it.")
        }
    }

    /// Buying promotion: its manager only (admins included in the refusal), else 403 `not_store_owner`.
    public static func requireManager(_ user: AuthUser, managerID: String) throws {
        guard user.id == managerID else {
            throw StoreError.notOwner("Only the store's manager may buy promotion for it.")
        }
    }

    /// Creating stores and listing one's own: managers only (admins too are refused), else 403 `manager_required`.
    public static func requireManagerRole(_ context: AppRequestContext) throws -> AuthUser {
        try context.requireRole([.manager], code: "manager_required", detail: "Only managers have stores.")
    }
}
