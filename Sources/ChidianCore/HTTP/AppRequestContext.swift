import Foundation
import HTTPTypes
import Hummingbird

/// Who is asking: a signed-in user, an anonymous visitor named by `X-Visitor-Id`, or nobody.
public enum Viewer: Sendable, Equatable {
    case user(AuthUser)
    case visitor(String)
    case nobody

    public var user: AuthUser? {
        if case .user(let user) = self { return user }
        return nil
    }

    /// The key click interests are stored under, or nil for nobody.
    public var interestKey: String? {
        switch self {
        case .user(let user): return "u:\(user.id)"
        case .visitor(let id): return "v:\(id)"
        case .nobody: return nil
        }
    }
}

extension Viewer {
    /// A visitor id as `X-Visitor-Id` and the web's visitor cookie carry it: 8–64 of A–Z, a–z, 0–9, _ and -.
    package static func isValidVisitorID(_ id: String) -> Bool {
        (8...64).contains(id.utf8.count)
            && id.utf8.allSatisfy {
                $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || (48...57).contains($0) || (65...90).contains($0)
                    || (97...122).contains($0)
            }
    }
}

/// The signed-in user as the authentication middleware found them.
public struct AuthUser: Sendable, Equatable {
    public let id: String
    public let name: String
    public let role: Role
    public let tokenHash: [UInt8]
}

public enum Role: String, Sendable, Codable, CaseIterable {
    case user, manager, admin
}

public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var viewer: Viewer = .nobody
    /// The client's IP address (for throttling and rate limits), when the request came over a socket: the peer,
    /// or behind a trusted proxy the address it forwarded (`ClientAddressMiddleware`).
    public var clientAddress: String?
    /// The device's visitor id (`X-Visitor-Id`, the web's visitor cookie) even when a user is signed in: where a
    /// review was posted from, for the trust judge.
    public var device: String?
    /// The visitor id was minted by this request (the web's first visit): nothing is known of them yet.
    package var newVisitor = false
    /// The web client's per-request state (language, CSRF token, cookies to set); nil on the JSON API.
    package var web: WebState?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Bodies are read with explicit limits by `decodeJSON` and the image upload.
    public var maxUploadSize: Int { 8 * 1024 * 1024 + 64 * 1024 }

    /// Where this request came from, as the trust judge remembers it (hashed in the database).
    package var origin: TrustOrigin { TrustOrigin(address: clientAddress, visitor: device) }

    /// The signed-in user, or 401 `login_required`.
    public func requireUser() throws -> AuthUser {
        guard let user = viewer.user else { throw Problem.loginRequired }
        return user
    }

    /// The signed-in user with one of `roles`, or 401 / 403 with `code`.
    public func requireRole(_ roles: Set<Role>, code: String, detail: String) throws -> AuthUser {
        let user = try requireUser()
        guard roles.contains(user.role) else { throw Problem.forbidden(code, detail) }
        return user
    }
}

extension JSONEncoder {
    /// RFC 3339 timestamps in UTC.
    package static var chidian: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
