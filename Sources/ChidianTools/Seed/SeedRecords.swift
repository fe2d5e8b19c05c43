import ChidianCore
import Foundation

/// Validated seed rows, ready to write.
struct SeedUser {
    var id: String
    var name: String
    var keyword: String
    var role: Role
    var avatar: String?
    var createdAt: Date?
    /// Where the element stands in its array: without timestamps, the array's order is its time order.
    var position: Int
}

struct SeedCategory {
    var id: String
    var name: String
    var createdAt: Date?
    var position: Int
}

struct SeedFavorite {
    var userID: String
    var createdAt: Date?
}

struct SeedPurchase {
    var id: String
    var amount: Int
    var buyerID: String?
    var createdAt: Date
}

struct SeedStore {
    var id: String
    var name: String
    var imageNames: [String]
    var category: String
    var categoryID: String?
    var managerID: String
    var sumCost: Int
    var favorites: [SeedFavorite]
    var purchases: [SeedPurchase]
    var description: String
    var address: String
    var location: GeoPoint?
    var hours: WeeklyHours?
    var timeZone: String
    var archived: Bool
    var createdAt: Date?
    var updatedAt: Date?
    var version: Int?
    var position: Int
}

struct SeedComment {
    var id: String
    var storeID: String
    var userID: String
    var kind: String
    var rating: Int?
    var body: String
    var imageNames: [String]
    var hiddenAt: Date?
    var hidden: Bool
    var createdAt: Date?
    var updatedAt: Date?
    var version: Int?
    var position: Int
    var scores: CommentScores?
    var pricePerPerson: Int?
    var likedUserIDs: [String] = []
    var reply: SeedFormat.Reply?
    var reports: [SeedFormat.Report] = []
}

/// What the database already holds that a seed may refer to or collide with.
struct ExistingData: Sendable {
    var userRoles: [String: Role] = [:]
    var userIDsByLowerName: [String: String] = [:]
    var passwordHashes: [String: String] = [:]
    var storeManagers: [String: String] = [:]
    var storeAdSpend: [String: Int] = [:]
}

/// Finds `images/NAME(.ext)` files, refusing names that would leave the folder.
struct SeedImageFiles {
    let folder: URL
    private var cache: [String: URL?] = [:]
    private var kinds: [String: Result<ImageFormat.Info, ImageFormat.Failure>] = [:]
    /// Every image name referenced, with the user who owns it (the store's manager or the comment's author).
    private(set) var owners: [String: String] = [:]
    private var warnedMissing = Set<String>()

    init(directory: URL) {
        folder = directory.appendingPathComponent(SeedFormat.imagesFolder, isDirectory: true)
    }

    static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 200 && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\")
            && !name.contains("..") && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The file for `name`, or nil when there is none.
    mutating func file(for name: String) -> URL? {
        if let cached = cache[name] { return cached }
        var found: URL? = nil
        let candidates = [name] + SeedFormat.imageExtensions.map { "\(name).\($0)" }
        for candidate in candidates {
            let url = folder.appendingPathComponent(candidate)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found = url
                break
            }
        }
        cache[name] = found
        return found
    }

    /// The usable names of one image list, in order; nil when one is unusable (an issue is recorded). A name
    /// without a file is left out with one warning per name: the original app kept its photos in the app
    /// bundle, so its JSON names images that no directory holds.
    mutating func usable(_ names: [String], file: String, index: Int, field: String, issues: SeedIssues)
        -> [String]?
    {
        var kept: [String] = []
        var ok = true
        for (position, name) in names.enumerated() {
            switch check(name) {
            case .usable: kept.append(name)
            case .missing:
                if warnedMissing.insert(name).inserted {
                    issues.warn(
                        file, index, "\(field)[\(position)]", "\"\(name)\"",
                        "no file images/\(name).jpg|png|webp|gif; image skipped")
                }
            case .unusable(let reason):
                issues.add(file, index, "\(field)[\(position)]", "\"\(name)\"", reason)
                ok = false
            }
        }
        return ok ? kept : nil
    }

    enum Check { case usable, missing, unusable(String) }

    mutating func check(_ name: String) -> Check {
        guard Self.isSafe(name) else { return .unusable("image names must stay inside images/ (no /, \\ or ..)") }
        guard let url = self.file(for: name) else { return .missing }
        if kinds[name] == nil {
            let bytes = (try? Data(contentsOf: url)).map { [UInt8]($0) } ?? []
            kinds[name] =
                bytes.count > ImageFormat.maxBytes
                ? .failure(.invalid("over 8 MiB"))
                : Result { () throws(ImageFormat.Failure) in try ImageFormat.inspect(bytes) }
        }
        if case .failure(let failure) = kinds[name] {
            switch failure {
            case .unsupported: return .unusable("images/\(url.lastPathComponent) is not a JPEG, PNG, WebP or GIF image")
            case .invalid(let detail):
                return .unusable("images/\(url.lastPathComponent) is not a usable image: \(detail)")
            }
        }
        return .usable
    }

    /// Records who attaches `name` first; they become its uploader.
    mutating func claim(_ name: String, by owner: String) {
        if owners[name] == nil { owners[name] = owner }
    }

    func info(_ name: String) -> ImageFormat.Info? {
        if case .success(let info)? = kinds[name] { return info }
        return nil
    }
}
