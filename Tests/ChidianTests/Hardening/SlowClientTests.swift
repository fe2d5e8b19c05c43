import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that send half a request and stall: the server closes them after its idle timeout and keeps answering
/// everyone else meanwhile.
@Suite(.serialized) struct SlowClientTests {
    /// A connected socket that has sent `text` and nothing more.
    static func stalled(port: Int, sending text: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket") }
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("connect") }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        return fd
    }

    /// Whether the server has closed `fd`: a read returns end of file (or a reset) within `seconds`.
    /// Whether the server closed `fd`, read until it does (no timeout: one it never closes is a hang, which the
    /// suite's watchdog names; 5 s here measured the machine as much as the server's 1 s idle timeout).
    static func isClosed(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return true }  // orderly close
            if n < 0 { return errno == ECONNRESET }
        }
    }

    @Test func halfSentRequestsAreClosedAfterTheIdleTimeoutWhileOthersAreServed() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        let server = try await ServerProcess(databaseURL: url, environment: ["IDLE_TIMEOUT_SECONDS": "1"])
        defer { server.stop() }
        // setup: 50 connections that send half a header and stall
        var stalled: [Int32] = []
        defer { for fd in stalled { close(fd) } }
        for _ in 0..<50 {
            stalled.append(
                try Self.stalled(port: server.port, sending: "GET /v1/categories HTTP/1.1\r\nHost: x\r\nX-Slow: "))
        }
        // MUT + validate: everyone else is answered meanwhile, and every stalled connection is closed
        #expect(try server.request("GET", "/health").status == 200)
        let categories = try server.request("GET", "/v1/categories")
        #expect(categories.status == 200, "\(categories.status) \(categories.body)")
        let closed = stalled.filter { Self.isClosed($0) }.count
        #expect(closed == stalled.count, "\(closed) of \(stalled.count) stalled connections closed")
        #expect(try server.request("GET", "/health").status == 200)
    }
}
