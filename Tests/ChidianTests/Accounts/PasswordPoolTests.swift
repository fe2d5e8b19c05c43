import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// bcrypt runs on its own bounded pool: past its capacity a hash is refused at once, never queued without end.
@Suite struct PasswordPoolTests {
    @Test func beyondCapacityHashingIsRefusedAtOnceAndTheRestComplete() async throws {
        // setup: one thread, two slots, a cost slow enough (~50 ms) that a burst overlaps
        let one = NIOThreadPool(numberOfThreads: 1)
        one.start()
        let passwords = Passwords(cost: 10, pool: BcryptPool(capacity: 2, threads: one))
        // MUT: twelve at once
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<12 {
                group.addTask {
                    do {
                        let hash = try await passwords.hash("password \(index)")
                        return try await passwords.verify("password \(index)", hash: hash) ? "ok" : "wrong"
                    } catch is PasswordHashingBusy {
                        return "busy"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        // validate
        #expect(outcomes.filter { $0 == "busy" }.count >= 6, "\(outcomes)")
        #expect(outcomes.filter { $0 == "ok" }.count >= 2, "\(outcomes)")
        #expect(outcomes.allSatisfy { $0 == "ok" || $0 == "busy" }, "\(outcomes)")
        // and once the burst is over there is room again
        #expect(try await passwords.verify("x", hash: try await passwords.hash("x")))
        try await one.shutdownGracefully()
    }

    @Test func aSaturatedPoolIsA503BusyWithRetryAfter() async throws {
        let request = Request(
            head: HTTPRequest(method: .post, scheme: "http", authority: "x", path: "/v1/auth/register"),
            body: RequestBody(buffer: ByteBuffer()))
        let problem = ProblemMiddleware.problem(
            for: PasswordHashingBusy(), request: request, logger: TestDatabase.logger)
        #expect(problem.code == "busy")
        #expect(problem.status == .serviceUnavailable)
        #expect(problem.headers[.retryAfter] == "1")
    }
}
