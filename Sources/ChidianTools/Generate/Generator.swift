import ChidianCore
import Foundation

/// `chidian generate`: a synthetic seed directory in the original app's JSON format (see `SeedFormat`), as large
/// as asked and the same bytes for the same arguments.
///
/// Rows are written as they are made; only a few small arrays per user and store stay in memory, so a million
/// comments stream straight to disk. Randomness comes only from `SeededRandom`, one stream per file, so the
/// users do not change when only the number of comments does.
public enum Generator {
    /// The password of every generated account.
    public static let password = "chidian-bench"
    /// bcrypt (cost 10) of "chidian-bench", computed once: hashing per user would dominate the run, and the seed
    /// importer stores a `$2…` keyword as it is.
    public static let passwordHash = "$2b$10$qOjuKSymGXYzBVihY8BtIOhw/cgsRRDOhjB0jvv1yWHPeiseXc906"

    public static let defaultSeed: UInt64 = 20_221_120
    public static let maxCount = 50_000_000

    public struct Summary: Sendable, Equatable {
        public var users = 0
        public var managers = 0
        public var stores = 0
        public var reviews = 0
        public var notices = 0
        public var favorites = 0
        public var promotedStores = 0
        public var bytes = 0
    }

    /// Where a run is, for a progress display.
    public struct Progress: Sendable {
        public let file: String
        public let done: Int
        public let total: Int
    }

    /// Writes `userInfo.json`, `store.json` and `comment.json` into `directory`, which is created if missing and
    /// must otherwise be empty.
    @discardableResult
    public static func write(
        to directory: URL, stores: Int, users: Int, comments: Int, seed: UInt64 = defaultSeed,
        progress: ((Progress) -> Void)? = nil
    ) throws -> Summary {
        try validate(stores: stores, users: users, comments: comments)
        try prepare(directory)
        var run = GeneratorRun(
            storeCount: stores, userCount: users, commentCount: comments, seed: seed, progress: progress)
        try run.writeUsers(to: directory.appendingPathComponent(SeedFormat.usersFile))
        try run.writeStores(to: directory.appendingPathComponent(SeedFormat.storesFile))
        try run.writeComments(to: directory.appendingPathComponent(SeedFormat.commentsFile))
        return run.summary
    }

    /// Counts that make a consistent seed: an admin always; a manager for any store; a reviewer and a store for
    /// any comment.
    static func validate(stores: Int, users: Int, comments: Int) throws {
        for (name, value) in [("stores", stores), ("users", users), ("comments", comments)] {
            guard (0...maxCount).contains(value) else {
                throw GeneratorError("--\(name) must be 0...\(maxCount), not \(value)")
            }
        }
        guard users >= 1 else { throw GeneratorError("--users must be at least 1 (the admin)") }
        if stores > 0, users < 2 {
            throw GeneratorError("--users must be at least 2 for stores (an admin and a manager)")
        }
        if comments > 0 {
            guard stores > 0 else { throw GeneratorError("--stores must be at least 1 for comments") }
            guard users >= 3 else {
                throw GeneratorError("--users must be at least 3 for comments (an admin, a manager and a reviewer)")
            }
        }
    }

    /// Creates the directory (and its parents) or checks that it is empty.
    static func prepare(_ directory: URL) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw GeneratorError("\(directory.path) exists and is not a directory") }
            let contents = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? ["?"]
            guard contents.isEmpty else {
                throw GeneratorError("\(directory.path) is not empty; give a new or empty directory")
            }
        } else {
            do {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw GeneratorError("cannot create \(directory.path): \(error.localizedDescription)")
            }
        }
    }
}
