import Foundation

/// Validated seed rows, ready to write.
struct SeedUser {
    var id: String
    var name: String
    var keyword: String
    var role: Role
    var avatar: String?
    var createdAt: Date?
}

struct SeedStore {
    var id: String
    var name: String
    var imageNames: [String]
    var category: String
    var categoryID: String?
    var managerID: String
    var sumCost: Int
    var favoritedBy: [String]
    var description: String
    var address: String
    var archived: Bool
    var createdAt: Date?
    var updatedAt: Date?
    var version: Int?
}

struct SeedComment {
    var id: String
    var storeID: String
    var userID: String
    var kind: String
    var rating: Int?
    var body: String
    var imageNames: [String]
    var hidden: Bool
    var createdAt: Date?
    var updatedAt: Date?
    var version: Int?
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

    /// Checks one image name field; records an issue and returns false when it is unusable.
    mutating func check(_ name: String, file: String, index: Int, field: String, issues: SeedIssues) -> Bool {
        guard Self.isSafe(name) else {
            issues.add(file, index, field, "\"\(name)\"", "image names must stay inside images/ (no /, \\ or ..)")
            return false
        }
        guard let url = self.file(for: name) else {
            issues.add(file, index, field, "\"\(name)\"", "no file images/\(name).jpg|png|webp|gif")
            return false
        }
        if kinds[name] == nil {
            let bytes = (try? Data(contentsOf: url)).map { [UInt8]($0) } ?? []
            kinds[name] = bytes.count > ImageFormat.maxBytes
                ? .failure(.invalid("over 8 MiB")) : Result { () throws(ImageFormat.Failure) in try ImageFormat.inspect(bytes) }
        }
        if case .failure(let failure) = kinds[name] {
            let reason: String
            switch failure {
            case .unsupported: reason = "is not a JPEG, PNG, WebP or GIF image"
            case .invalid(let detail): reason = "is not a usable image: \(detail)"
            }
            issues.add(file, index, field, "\"\(name)\"", "images/\(url.lastPathComponent) \(reason)")
            return false
        }
        return true
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
