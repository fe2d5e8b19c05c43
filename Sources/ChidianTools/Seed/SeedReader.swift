import ChidianCore
import Foundation

/// Reads and validates a seed directory. Users and stores are small enough to hold; comments are streamed.
/// Used by one task at a time (validation, then the import's transaction), hence unchecked.
struct SeedReader: @unchecked Sendable {
    let directory: URL
    let existing: ExistingData
    let issues = SeedIssues()
    var images: SeedImageFiles

    private(set) var users: [SeedUser] = []
    private(set) var stores: [SeedStore] = []
    private(set) var categories: [SeedCategory] = []
    // Read by the comments' reader (SeedReader+Comments.swift), hence not private.
    /// Every user the comments may name: the file's and the database's.
    var roles: [String: Role] = [:]
    var managers: [String: String] = [:]
    var commentIDs = Set<String>()

    init(directory: URL, existing: ExistingData) {
        self.directory = directory
        self.existing = existing
        images = SeedImageFiles(directory: directory)
        roles = existing.userRoles
        managers = existing.storeManagers
    }

    func url(_ file: String) -> URL { directory.appendingPathComponent(file) }

    /// Opens a file's array, recording a missing file or a syntax error.
    func scanner(_ file: String) -> JSONScanner? {
        guard FileManager.default.fileExists(atPath: url(file).path) else {
            issues.add(file, nil, nil, nil, "the file is missing")
            return nil
        }
        do {
            return try JSONScanner(contentsOf: url(file))
        } catch {
            issues.add(file, nil, nil, nil, "cannot be read: \(error.localizedDescription)")
            return nil
        }
    }

    /// Iterates a file's objects; a syntax error is recorded with its line and column and ends the file.
    func forEachObject(_ file: String, _ body: (Int, FieldReader) throws -> Void) rethrows {
        guard var scanner = scanner(file) else { return }
        while true {
            let element: JSONValue?
            do {
                element = try scanner.next()
            } catch let error as JSONSyntaxError {
                issues.add(
                    file, nil, nil, nil,
                    "malformed JSON at line \(error.line), column \(error.column): \(error.message)")
                return
            } catch {
                issues.add(file, nil, nil, nil, "malformed JSON: \(error)")
                return
            }
            guard let element else { return }
            guard case .object(let object) = element else {
                issues.add(file, scanner.index, nil, element.preview, "each element must be a JSON object")
                continue
            }
            try body(scanner.index, FieldReader(file: file, index: scanner.index, object: object, issues: issues))
        }
    }

    mutating func readUsers() {
        let file = SeedFormat.usersFile
        var seenIDs = Set<String>()
        var seenNames: [String: String] = [:]
        var parsed: [SeedUser] = []
        forEachObject(file) { index, field in
            let id = field.id(seen: &seenIDs)
            let rawName = field.string("name")
            let keyword = field.string("keyword")
            let type = field.string("type")
            let avatar = field.string("avatar", required: false)
            let createdAt = field.date("createdAt")
            var ok = id != nil
            var name: String? = nil
            if let rawName {
                do {
                    name = try AccountRules.validName(rawName)
                } catch let problem as Problem {
                    field.fail("name", .string(rawName), problem.detail)
                } catch {}
            }
            if let name, let id {
                let lower = name.lowercased()
                if let other = seenNames[lower] {
                    field.fail(
                        "name", .string(name), "is already used by user \(other) (names are unique ignoring case)")
                    ok = false
                } else if let owner = existing.userIDsByLowerName[lower], owner != id {
                    field.fail("name", .string(name), "is already used by existing user \(owner)")
                    ok = false
                }
                seenNames[lower] = id
            } else {
                ok = false
            }
            if let keyword {
                if keyword.isEmpty { field.fail("keyword", .string(""), "must not be empty"); ok = false }
                do {
                    if !keyword.hasPrefix("$2") { _ = try AccountRules.checkPasswordBytes(keyword) }
                } catch let problem as Problem {
                    field.fail("keyword", nil, problem.detail); ok = false  // never echo a password
                } catch {}
                if keyword.hasPrefix("$2") && keyword.count != 60 {
                    field.fail("keyword", .string("$2…"), "looks like a bcrypt hash but is not 60 characters");
                    ok = false
                }
            } else {
                ok = false
            }
            let role = type.flatMap(Role.init(rawValue:))
            if let type, role == nil { field.fail("type", .string(type), "must be user, manager or admin"); ok = false }
            var usableAvatar: String? = nil
            if let avatar {
                switch images.usable([avatar], file: file, index: index, field: "avatar", issues: issues) {
                case nil: ok = false
                case let kept?: usableAvatar = kept.first
                }
            }
            if ok, let id, let name, let keyword, let role {
                parsed.append(
                    SeedUser(
                        id: id, name: name, keyword: keyword, role: role, avatar: usableAvatar, createdAt: createdAt,
                        position: index))
                if let usableAvatar { images.claim(usableAvatar, by: id) }
                roles[id] = role
            }
        }
        users = parsed
    }

    mutating func readStores() {
        let file = SeedFormat.storesFile
        var seenIDs = Set<String>()
        var parsed: [SeedStore] = []
        forEachObject(file) { index, field in
            let id = field.id(seen: &seenIDs)
            let rawName = field.string("name")
            let imageNames = field.strings("imageName")
            let category = field.string("category")
            let manager = field.string("manager")
            let sumCost = field.integer("sumCost", required: false) ?? 0
            let stars = field.strings("staredUserId")
            let categoryID = field.string("categoryId", required: false)
            let description = field.string("description", required: false) ?? ""
            let address = field.string("address", required: false) ?? ""
            let archived = field.bool("archived") ?? false
            let createdAt = field.date("createdAt")
            let updatedAt = field.date("updatedAt")
            let version = field.integer("version", required: false)
            var ok = id != nil
            let name = rawName?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let name, name.isEmpty || name.count > 64 {
                field.fail("name", .string(rawName ?? ""), "must be 1–64 characters"); ok = false
            } else if name == nil {
                ok = false
            }
            let categoryName = category?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let categoryName, categoryName.isEmpty || categoryName.count > 64 {
                field.fail("category", .string(category ?? ""), "must be 1–64 characters"); ok = false
            } else if categoryName == nil {
                ok = false
            }
            if let manager {
                switch roles[manager] {
                case nil:
                    field.fail("manager", .string(manager), "is not a user id in userInfo.json or the database");
                    ok = false
                case .manager?: break
                case let role?:
                    field.fail("manager", .string(manager), "is a \(role.rawValue), not a manager"); ok = false
                }
            } else {
                ok = false
            }
            if sumCost < 0 || sumCost > 1_000_000_000 {
                field.fail("sumCost", .integer(sumCost), "must be 0–1,000,000,000"); ok = false
            }
            if let id, let spent = existing.storeAdSpend[id], sumCost < spent {
                field.fail(
                    "sumCost", .integer(sumCost),
                    "is below the store's recorded ad spend \(spent) (the ledger only grows)")
                ok = false
            }
            if imageNames.count > 9 {
                field.fail("imageName", .array([]), "has \(imageNames.count) images; at most 9"); ok = false
            }
            let keptImages = images.usable(imageNames, file: file, index: index, field: "imageName", issues: issues)
            if keptImages == nil { ok = false }
            let purchases = self.purchases(field, sumCost: sumCost)
            if purchases == nil { ok = false }
            if description.count > 2000 {
                field.fail("description", .string(description), "must be at most 2000 characters"); ok = false
            }
            if address.count > 200 {
                field.fail("address", .string(address), "must be at most 200 characters"); ok = false
            }
            if let version, version < 1 {
                field.fail("version", .integer(version), "must be at least 1"); ok = false
            }
            let place = Self.place(field)
            if place == nil { ok = false }
            // staredUserId is the original's list; `favorites` adds the time each was made (an export writes both).
            var times: [String: Date] = [:]
            var fans = stars.enumerated().map { ("staredUserId[\($0.offset)]", $0.element) }
            for (position, fan) in field.objects("favorites").enumerated() {
                guard let user = fan.string("userId") else { ok = false; continue }
                if let at = fan.date("createdAt") { times[user] = at }
                fans.append(("favorites[\(position)].userId", user))
            }
            var favorites: [SeedFavorite] = []
            var seenFans = Set<String>()
            for (place, fan) in fans where seenFans.insert(fan).inserted {
                if roles[fan] == nil {
                    issues.warn(file, index, place, "\"\(fan)\"", "unknown user skipped")
                } else {
                    favorites.append(SeedFavorite(userID: fan, createdAt: times[fan]))
                }
            }
            if ok, let id, let name, let categoryName, let manager, let keptImages, let purchases {
                parsed.append(
                    SeedStore(
                        id: id, name: name, imageNames: keptImages, category: categoryName, categoryID: categoryID,
                        managerID: manager, sumCost: sumCost, favorites: favorites, purchases: purchases,
                        description: description, address: address, location: place?.location, hours: place?.hours,
                        timeZone: place?.timeZone ?? StoreTimeZone.defaultName, archived: archived,
                        createdAt: createdAt,
                        updatedAt: updatedAt, version: version, position: index))
                managers[id] = manager
                for image in keptImages { images.claim(image, by: manager) }
            }
        }
        stores = parsed
    }

    /// The store's optional `location`, `hours` and `timeZone` (the API's rules), or nil after recording why not.
    private static func place(_ field: FieldReader) -> (location: GeoPoint?, hours: WeeklyHours?, timeZone: String)? {
        var ok = true
        var location: GeoPoint?
        var hours: WeeklyHours?
        if let raw = field.object["location"], raw != .null {
            do {
                location = try GeoPoint.location(raw)
            } catch {
                field.fail("location", raw, "must be {\"lat\": -90…90, \"lng\": -180…180}"); ok = false
            }
        }
        if let raw = field.object["hours"], raw != .null {
            do {
                hours = try WeeklyHours.parse(raw)
            } catch let error as PlaceError {
                field.fail("hours", raw, error.message); ok = false
            } catch {
                field.fail("hours", raw, "is not a weekly schedule"); ok = false
            }
        }
        let zone = field.string("timeZone", required: false) ?? StoreTimeZone.defaultName
        if (try? StoreTimeZone.valid(zone)) == nil {
            field.fail("timeZone", .string(zone), "is not an IANA time zone name"); ok = false
        }
        return ok ? (location, hours, zone) : nil
    }

    /// The store's purchase history (`promotions`), when given; their sum may not exceed `sumCost`.
    private func purchases(_ field: FieldReader, sumCost: Int) -> [SeedPurchase]? {
        var result: [SeedPurchase] = []
        var ok = true
        for purchase in field.objects("promotions") {
            let id = purchase.string("id")
            let amount = purchase.integer("amount")
            let buyer = purchase.string("buyerId", required: false)
            let createdAt = purchase.date("createdAt", required: true)
            if let id, id.isEmpty || id.count > 64 {
                purchase.fail("id", .string(id), "must be 1–64 characters"); ok = false
            }
            if let amount, !(1...1_000_000_000).contains(amount) {
                purchase.fail("amount", .integer(amount), "must be 1–1,000,000,000"); ok = false
            }
            if let buyer, roles[buyer] == nil {
                purchase.fail("buyerId", .string(buyer), "is not a user id"); ok = false
            }
            guard let id, let amount, let createdAt else { ok = false; continue }
            result.append(SeedPurchase(id: id, amount: amount, buyerID: buyer, createdAt: createdAt))
        }
        let total = result.reduce(0) { $0 + $1.amount }
        if total > sumCost {
            field.fail("promotions", nil, "add up to \(total), more than sumCost \(sumCost)"); ok = false
        }
        return ok ? result : nil
    }

    /// `categories.json` is optional: the categories an export holds, stores or not.
    mutating func readCategories() {
        let file = SeedFormat.categoriesFile
        guard FileManager.default.fileExists(atPath: url(file).path) else { return }
        var seenIDs = Set<String>()
        var seenNames = Set<String>()
        var parsed: [SeedCategory] = []
        forEachObject(file) { index, field in
            let id = field.id(seen: &seenIDs)
            let name = field.string("name")?.trimmingCharacters(in: .whitespacesAndNewlines)
            let createdAt = field.date("createdAt")
            guard let id, let name else { return }
            guard !name.isEmpty, name.count <= 64 else {
                field.fail("name", .string(name), "must be 1–64 characters"); return
            }
            guard seenNames.insert(name.lowercased()).inserted else {
                field.fail("name", .string(name), "is a duplicate category name (names are unique ignoring case)");
                return
            }
            parsed.append(SeedCategory(id: id, name: name, createdAt: createdAt, position: index))
        }
        categories = parsed
    }
}
