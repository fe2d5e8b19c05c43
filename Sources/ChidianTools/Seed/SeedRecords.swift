import ChidianCore
import Foundation

/// Validated seed rows, ready to write.
package struct SeedUser {
    package var id: String
    package var name: String
    package var keyword: String
    package var role: Role
    package var avatar: String?
    package var createdAt: Date?
    /// Where the element stands in its array: without timestamps, the array's order is its time order.
    package var position: Int
}

package struct SeedCategory {
    package var id: String
    package var name: String
    package var createdAt: Date?
    package var position: Int
}

package struct SeedFavorite {
    package var userID: String
    package var createdAt: Date?
}

package struct SeedPurchase {
    package var id: String
    package var amount: Int
    package var buyerID: String?
    package var createdAt: Date
}

package struct SeedStore {
    package var id: String
    package var name: String
    package var imageNames: [String]
    package var category: String
    package var categoryID: String?
    package var managerID: String
    package var sumCost: Int
    package var favorites: [SeedFavorite]
    package var purchases: [SeedPurchase]
    package var description: String
    package var address: String
    package var location: GeoPoint?
    package var hours: WeeklyHours?
    package var timeZone: String
    package var archived: Bool
    package var createdAt: Date?
    package var updatedAt: Date?
    package var version: Int?
    package var position: Int
}

package struct SeedComment {
    package var id: String
    package var storeID: String
    package var userID: String
    package var kind: String
    package var rating: Int?
    package var body: String
    package var imageNames: [String]
    package var hiddenAt: Date?
    package var hidden: Bool
    package var createdAt: Date?
    package var updatedAt: Date?
    package var version: Int?
    package var position: Int
    package var scores: CommentScores?
    package var pricePerPerson: Int?
    package var likedUserIDs: [String] = []
    package var reply: SeedFormat.Reply?
    package var reports: [SeedFormat.Report] = []
}

/// What the database already holds that a seed may refer to or collide with.
package struct ExistingData: Sendable {
    package var userRoles: [String: Role] = [:]
    package var userIDsByLowerName: [String: String] = [:]
    package var passwordHashes: [String: String] = [:]
    package var storeManagers: [String: String] = [:]
    package var storeAdSpend: [String: Int] = [:]
}

/// Finds `images/NAME(.ext)` files, refusing names that would leave the folder.
package struct SeedImageFiles {
    package let folder: URL
    private var cache: [String: URL?] = [:]
    private var kinds: [String: Result<ImageFormat.Info, ImageFormat.Failure>] = [:]
    /// Every image name referenced, with the user who owns it (the store's manager or the comment's author).
    package private(set) var owners: [String: String] = [:]
    private var warnedMissing = Set<String>()

    package init(directory: URL) {
        folder = directory.appendingPathComponent(SeedFormat.imagesFolder, isDirectory: true)
    }

    package static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 200 && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\")
            && !name.contains("..") && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The file for `name`, or nil when there is none.
    package mutating func file(for name: String) -> URL? {
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
    package mutating func usable(_ names: [String], file: String, index: Int, field: String, issues: SeedIssues)
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

    package enum Check { case usable, missing, unusable(String) }

    package mutating func check(_ name: String) -> Check {
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
    package mutating func claim(_ name: String, by owner: String) {
        if owners[name] == nil { owners[name] = owner }
    }

    package func info(_ name: String) -> ImageFormat.Info? {
        if case .success(let info)? = kinds[name] { return info }
        return nil
    }
}
