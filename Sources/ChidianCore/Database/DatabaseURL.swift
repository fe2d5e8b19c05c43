import Foundation
import PostgresNIO

/// A `postgres://user:password@host:port/database?host=/socket/dir` URL.
public struct DatabaseURL: Sendable, Equatable {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    /// A unix-socket directory (libpq's `?host=`), used instead of TCP when set.
    public var socketDirectory: String?

    public init(_ string: String) throws {
        guard let components = URLComponents(string: string),
            let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
        else { throw DatabaseURLError(url: string) }
        user = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        password = components.password.flatMap { $0.removingPercentEncoding }
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        port = components.port ?? 5432
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        socketDirectory = components.queryItems?.first { $0.name == "host" }?.value
    }

    /// The same server, another database (tests clone one per suite).
    public func with(database: String) -> DatabaseURL {
        var copy = self
        copy.database = database
        return copy
    }

    public var isLocal: Bool {
        socketDirectory != nil || ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
    }

    public var clientConfiguration: PostgresClient.Configuration {
        if let socketDirectory {
            return .init(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password,
                database: database)
        }
        return .init(host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }

    public var description: String {
        var s = "postgres://\(user)@\(host):\(port)/\(database)"
        if let socketDirectory { s += "?host=\(socketDirectory)" }
        return s
    }
}

public struct DatabaseURLError: Error, CustomStringConvertible {
    public let url: String
    public var description: String { "DATABASE_URL is not a postgres:// URL" }
}
