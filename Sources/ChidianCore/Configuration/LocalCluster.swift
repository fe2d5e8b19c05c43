import Foundation

/// Finds the project's private cluster (started by `scripts/db.sh`), whose URL it writes to
/// `.postgres/database-url`: the default `DATABASE_URL` when none is set.
public enum LocalCluster {
    public static func databaseURL(
        startingAt directories: [URL] = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent(),
        ]
    ) -> String? {
        for start in directories {
            var directory = start.standardizedFileURL
            for _ in 0..<8 {
                let file = directory.appendingPathComponent(".postgres/database-url")
                if let text = try? String(contentsOf: file, encoding: .utf8) {
                    let url = text.trimmingWhitespace()
                    if !url.isEmpty { return url }
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return nil
    }
}
