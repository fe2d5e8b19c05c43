import Foundation
import HTTPTypes
import Hummingbird

/// The proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`: addresses and CIDR blocks, IPv4 or IPv6,
/// comma-separated). From anyone else the header is ignored, so a client cannot pick the address it is limited as.
public struct TrustedProxies: Sendable, Equatable {
    package struct Block: Sendable, Equatable {
        package let bytes: [UInt8]
        package let prefix: Int

        package func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address, bytes) where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if a & mask != b & mask { return false }
                left -= bits
            }
            return true
        }
    }

    let blocks: [Block]

    public static let none = TrustedProxies(blocks: [])

    package init(blocks: [Block]) { self.blocks = blocks }

    /// Parses the list; nil when an entry is not an address or block.
    public init?(_ text: String) {
        var blocks: [Block] = []
        for entry in text.split(separator: ",") {
            let parts = entry.trimmingCharacters(in: .whitespaces).split(
                separator: "/", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let bytes = Self.bytes(String(parts[0])) else { return nil }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...(bytes.count * 8)).contains(prefix) else { return nil }
            blocks.append(Block(bytes: bytes, prefix: prefix))
        }
        self.blocks = blocks
    }

    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(address) else { return false }
        return blocks.contains { $0.contains(bytes) }
    }

    /// Who the client is: the peer, or, when the peer is a trusted proxy, the right-most `X-Forwarded-For` address
    /// that is not itself a trusted proxy (entries to its left were written by the client and prove nothing).
    public func client(peer: String?, forwardedFor: [String]) -> String? {
        guard let peer, contains(peer) else { return peer }
        let chain = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for address in chain.reversed() {
            guard Self.bytes(address) != nil else { return peer }
            if !contains(address) { return address }
        }
        return chain.first ?? peer
    }

    /// The address's bytes (4 or 16; an IPv4-mapped IPv6 address as its IPv4 bytes), or nil.
    package static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return Array(bytes[12...])
        }
        return bytes
    }
}

/// Sets the request's client address from the peer and, behind a trusted proxy, `X-Forwarded-For`.
package struct ClientAddressMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    package let proxies: TrustedProxies

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.clientAddress = proxies.client(
            peer: context.clientAddress, forwardedFor: request.headers[values: .xForwardedFor])
        return try await next(request, context)
    }

    package init(proxies: TrustedProxies) {
        self.proxies = proxies
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
