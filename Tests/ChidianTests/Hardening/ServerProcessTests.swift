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

/// A real `chidian serve` process (the built binary), its log captured to a file, spoken to over TCP from chosen
/// loopback source addresses (Linux routes all of 127/8 to `lo`), so the throttle sees distinct clients.
final class ServerProcess: Sendable {
    let child: ChildProcess
    let port: Int
    let databaseURL: DatabaseURL

    init(databaseURL: DatabaseURL, environment extra: [String: String] = [:]) async throws {
        port = try Self.freePort()
        self.databaseURL = databaseURL
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = databaseURL.description
        environment["BCRYPT_COST"] = "4"
        environment["LOG_LEVEL"] = "info"
        // Every test request comes from loopback: limits are on only where a test asks for them.
        environment["RATE_LIMITS"] = "off"
        // The production deadlines (reads 1 s, writes 2 s) are for a loaded server, not for a test machine running
        // ten suites at once: a store's creation once took over 2 s there.
        environment["READ_STATEMENT_TIMEOUT_MS"] = "10000"
        environment["STATEMENT_TIMEOUT_MS"] = "20000"
        environment["DB_TIMEOUT_MS"] = "15000"
        environment["DB_IDLE_IN_TRANSACTION_MS"] = "60000"
        environment.merge(extra) { $1 }
        child = try ChildProcess(
            ChidianBinary.url, ["serve", "--host", "127.0.0.1", "--port", String(port)], environment: environment,
            directory: "/tmp", errorToOutput: true)
        // Until it answers, however long a loaded machine takes, or exits.
        while child.exitStatus == nil {
            if (try? request("GET", "/health"))?.status == 200 { return }
            // timing: a poll with no bound; it ends when the server answers or exits
            try? await Task.sleep(for: .milliseconds(50))
        }
        stop()
        throw TestFailure("chidian serve did not answer /health: \(log)")
    }

    /// SIGTERM, as an operator stops a server, and its exit: a shutdown that hangs is a hang of the test, which the
    /// suite's watchdog names (a 20 s bound here measured the machine, not the server).
    func stop() {
        guard child.exitStatus == nil else { return }
        child.signal(SIGTERM)
        _ = child.exitedBlocking()
    }

    var log: String { child.output }

    struct Response {
        let status: Int
        let headers: [String: String]
        let body: String
        let bytes: [UInt8]
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
    }

    /// One HTTP/1.1 request on a new connection from `source`.
    func request(
        _ method: String, _ path: String, body: String? = nil, token: String? = nil, from source: String = "127.0.0.1"
    ) throws -> Response {
        try request(
            method, path, bytes: body.map { Array($0.utf8) }, contentType: body == nil ? nil : "application/json",
            token: token, from: source)
    }

    /// One HTTP/1.1 request with any body and extra headers.
    func request(
        _ method: String, _ path: String, bytes body: [UInt8]?, contentType: String?, token: String? = nil,
        headers extra: [String: String] = [:], from source: String = "127.0.0.1"
    ) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket") }
        defer { close(fd) }
        // A server that stops answering fails the request, not the whole run.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw TestFailure("bind \(source)") }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("connect") }
        let payload = body ?? []
        var head =
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(payload.count)\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in extra { head += "\(name): \(value)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + payload
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw TestFailure("send") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw TestFailure("no answer in 30 s: \(path)") }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        guard let end = received.indices.first(where: { received[$0...].starts(with: Array("\r\n\r\n".utf8)) })
        else { throw TestFailure("no response") }
        let bodyBytes = Array(received[(end + 4)...])
        let lines = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
        }
        return Response(
            status: status, headers: headers, body: String(decoding: bodyBytes, as: UTF8.self), bytes: bodyBytes)
    }

    /// A port nothing listens on, below Linux's ephemeral range (32768–60999): a port the kernel hands out for
    /// port 0 can be taken, before the server binds it, by one of the suite's hundreds of outgoing PostgreSQL
    /// connections (a shake run's server failed with "Address already in use").
    static func freePort() throws -> Int {
        for _ in 0..<1000 {
            let port = Int.random(in: 20_000...29_999)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
            }
            if bound { return port }
        }
        throw TestFailure("no free port in 20000–29999")
    }
}

@Suite(.serialized) struct ServerProcessTests {
    static func json(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test func theOwnerSignsInFromAnotherAddressWhileTheirNameIsUnderAttack() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        let server = try await ServerProcess(databaseURL: url)
        defer { server.stop() }
        let register = try server.request(
            "POST", "/v1/auth/register", body: Self.json(["name": "Owner", "password": "owner password"]))
        #expect(register.status == 201)
        // MUT: an attacker at 127.0.0.2 guesses until refused, and keeps going
        var statuses: [Int] = []
        for i in 0..<12 {
            statuses.append(
                try server.request(
                    "POST", "/v1/auth/login", body: Self.json(["name": "owner", "password": "guess \(i)"]),
                    from: "127.0.0.2"
                ).status)
        }
        // validate
        #expect(statuses.prefix(5).allSatisfy { $0 == 401 })
        #expect(statuses.suffix(7).allSatisfy { $0 == 429 })
        let refused = try server.request(
            "POST", "/v1/auth/login", body: Self.json(["name": "Owner", "password": "owner password"]),
            from: "127.0.0.2")
        #expect(refused.status == 429)
        #expect((refused.headers["retry-after"].flatMap { Int($0) } ?? 0) > 0)
        // the owner, elsewhere, is not locked out
        let owner = try server.request(
            "POST", "/v1/auth/login", body: Self.json(["name": "Owner", "password": "owner password"]),
            from: "127.0.0.3")
        #expect(owner.status == 200, "\(owner.body)")
    }

    @Test func twoServerProcessesShareOneThrottle() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        let a = try await ServerProcess(databaseURL: url)
        defer { a.stop() }
        let b = try await ServerProcess(databaseURL: url)
        defer { b.stop() }
        _ = try a.request(
            "POST", "/v1/auth/register", body: Self.json(["name": "Shared", "password": "shared password"]))
        // MUT: 20 wrong passwords at once, half to each process
        let statuses = await withTaskGroup(of: Int.self) { group in
            for i in 0..<20 {
                let server = i % 2 == 0 ? a : b
                group.addTask {
                    await withCheckedContinuation { continuation in
                        DispatchQueue.global().async {
                            let body = Self.json(["name": "Shared", "password": "guess \(i)"])
                            continuation.resume(
                                returning: (try? server.request("POST", "/v1/auth/login", body: body).status) ?? 0)
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // validate
        #expect(statuses.filter { $0 == 401 }.count == 5)
        #expect(statuses.filter { $0 == 429 }.count == 15)
    }

    @Test func hostileInputLeavesNoHashBodyOrTokenInTheLog() async throws {
        try await TestDatabase.withFresh { database, url in
            let server = try await ServerProcess(databaseURL: url)
            defer { server.stop() }
            let secretBody = "SECRET-REVIEW-\(UUID().uuidString)"
            let manager = try server.request(
                "POST", "/v1/auth/register",
                body: Self.json(["name": "Boss", "password": "boss password", "role": "manager"]))
            let token = try #require(manager.json["token"] as? String)
            let category = try await StoreAdmin(database: database).addCategory(name: "面").id
            let store = try server.request(
                "POST", "/v1/stores", body: Self.json(["name": "Shop", "categoryId": category]), token: token)
            let storeID = try #require(store.json["id"] as? String)
            // Constraints the code does not know, so their violations are unknown database errors whose
            // full description quotes the failing row (the new user's bcrypt hash, the review's body).
            try await database.query("ALTER TABLE users ADD CONSTRAINT test_trap_name CHECK (name <> 'Trapped')")
            try await database.query(
                "ALTER TABLE comments ADD CONSTRAINT test_trap_body CHECK (body NOT LIKE 'SECRET-REVIEW-%')")
            // MUT: the issue's hostile input, and the traps
            let heavyName = String(repeating: "a" + String(repeating: "\u{301}", count: 8), count: 32)
            let heavy = try server.request(
                "POST", "/v1/auth/register", body: Self.json(["name": heavyName, "password": "password1"]))
            let nul = try server.request(
                "POST", "/v1/auth/register",
                body: Self.json(["name": "Nul", "password": String(repeating: "\u{0}", count: 8)]))
            let cursor = Data(#"{"list":"feed","keys":["0","not-a-date","x"]}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(
                    of: "/", with: "_")
            let feed = try server.request("GET", "/v1/feed/featured?cursor=\(cursor)", token: token)
            let trappedUser = try server.request(
                "POST", "/v1/auth/register", body: Self.json(["name": "Trapped", "password": "trapped password"]))
            let trappedReview = try server.request(
                "POST", "/v1/stores/\(storeID)/comments", body: Self.json(["rating": 5, "body": secretBody]),
                token: token)
            var wrong: [Int] = []
            for _ in 0..<7 {
                wrong.append(
                    try server.request(
                        "POST", "/v1/auth/login", body: Self.json(["name": "Boss", "password": "wrong password"])
                    ).status)
            }
            let forged = try server.request("GET", "/v1/me", token: token + "x")
            server.stop()
            // validate: the answers
            #expect(heavy.status == 400)
            #expect(nul.status == 400)
            #expect(feed.status == 400)
            #expect(trappedUser.status == 500)
            #expect(trappedReview.status == 500)
            #expect(wrong.allSatisfy { $0 == 401 || $0 == 429 })
            #expect(forged.status == 401)
            // the log names the unknown errors by SQLSTATE, constraint and table, and holds none of the secrets
            let log = server.log
            #expect(log.contains("test_trap_name") && log.contains("test_trap_body") && log.contains("23514"))
            #expect(log.range(of: #"\$2[abxy]\$\d\d\$"#, options: .regularExpression) == nil)
            #expect(!log.contains(secretBody))
            #expect(!log.contains(token))
            #expect(!log.contains("Failing row"))
            #expect(!log.contains("boss password") && !log.contains("trapped password"))
        }
    }
}
