import Foundation
import Synchronization
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The gate in front of searches that count reviews: a bounded number inside, a bounded queue waiting a bounded
/// time, and a rest after each so the work behind it cannot take a whole core.
@Suite struct AdmissionGateTests {
    /// Holds the gate's slot until `release` is resumed.
    final class Holder: Sendable {
        let entered = Mutex(false)
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)

        func hold(_ gate: AdmissionGate) async throws {
            try await gate.run {
                await withCheckedContinuation { continuation in
                    release.withLock { $0 = continuation }
                    entered.withLock { $0 = true }
                }
            }
        }

        func waitUntilInside() async throws {
            // timing: a poll of this process's own state with no bound: it ends on the event
            while !entered.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        }

        func letGo() { release.withLock { $0?.resume() } }
    }

    @Test func oneInsideOneWaitingTheNextRefused() async throws {
        let gate = AdmissionGate(limit: 1, queue: 1, maxWait: .seconds(10))
        let holder = Holder()
        async let held: Void = holder.hold(gate)
        try await holder.waitUntilInside()
        // MUT: a second waits, a third is refused at once
        async let waited = gate.run { 2 }
        // timing: a poll of the gate's own state with no bound: it ends once the second waits
        while gate.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: AdmissionGate.Busy.self) { try await gate.run { 3 } }
        #expect(gate.isFull)
        // validate: the waiter gets the slot when the holder leaves
        holder.letGo()
        try await held
        #expect(try await waited == 2)
        #expect(try await gate.run { 4 } == 4)
    }

    /// A refill beside a request never queues: refused while the slot is taken, even with room in the queue.
    @Test func workThatMustNotWaitIsRefusedWhileTheSlotIsTaken() async throws {
        let gate = AdmissionGate(limit: 1, queue: 8, maxWait: .seconds(10))
        let holder = Holder()
        async let held: Void = holder.hold(gate)
        try await holder.waitUntilInside()
        // MUT / validate
        await #expect(throws: AdmissionGate.Busy.self) { try await gate.run(waiting: false) { 1 } }
        #expect(gate.waiting == 0)
        holder.letGo()
        try await held
        #expect(!gate.isFull)
        #expect(try await gate.run(waiting: false) { 2 } == 2)
    }

    @Test func aWaiterGivesUpAfterMaxWait() async throws {
        let gate = AdmissionGate(limit: 1, queue: 4, maxWait: .milliseconds(100))
        let holder = Holder()
        async let held: Void = holder.hold(gate)
        try await holder.waitUntilInside()
        let started = ContinuousClock.now  // timing: a lower bound below; a slow machine only lengthens it
        // MUT
        await #expect(throws: AdmissionGate.Busy.self) { try await gate.run { 1 } }
        // validate
        let waited = ContinuousClock.now - started  // timing: as above
        // Not before maxWait. (No upper bound: the holder is still inside, so only maxWait can have ended the wait,
        // and a bound here measured the machine — a shake beside a CI build saw 7 s.)
        #expect(waited >= .milliseconds(100), "\(waited)")
        holder.letGo()
        try await held
        #expect(try await gate.run { 5 } == 5)
    }

    // A rest 10 times the task's 200 ms or more: long enough (2 s) that a busy machine's scheduling delays cannot pass
    // for it. The rest follows the time actually held, which a loaded machine stretches (a CI run held 100× 20 ms past
    // a 30 s maxWait), so the wait allowed is generous.
    @Test func whileOthersWaitTheSlotRestsAsLongAsItsTaskTook() async throws {
        let gate = AdmissionGate(limit: 1, queue: 4, maxWait: .seconds(120), rest: 10)
        let holder = Holder()
        async let held: Void = holder.hold(gate)
        try await holder.waitUntilInside()
        // MUT: another waits while the first holds the slot for at least 20 ms
        let started = ContinuousClock.now  // timing: a lower bound below; a slow machine only lengthens it
        async let second: Duration = gate.run { ContinuousClock.now - started }  // timing: as above
        // timing: a poll of the gate's own state with no bound, then a hold of at least 200 ms (a lower bound)
        while gate.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(200))  // timing: as above
        holder.letGo()
        try await held
        // validate: the second waited out the rest
        let waited = try await second
        #expect(waited >= .seconds(2), "\(waited)")
    }

    /// Work that yields rests only while others come: with `restsWhile` false a waiter gets the slot at once, where a
    /// rest of 1,000 times a hold of 200 ms or more would outlast its 30 s wait and refuse it.
    @Test func aSlotRestsOnlyWhileItsConditionHolds() async throws {
        let gate = AdmissionGate(limit: 1, queue: 4, maxWait: .seconds(30), rest: 1000, restsWhile: { false })
        let holder = Holder()
        async let held: Void = holder.hold(gate)
        try await holder.waitUntilInside()
        // MUT: another waits while the first holds the slot for at least 200 ms
        async let second = gate.run { 2 }
        // timing: a poll of the gate's own state with no bound, then a hold of at least 200 ms (a lower bound)
        while gate.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(200))  // timing: as above
        holder.letGo()
        try await held
        // validate
        #expect(try await second == 2)
    }

    @Test func aLoneClientIsNotMadeToRest() async throws {
        let gate = AdmissionGate(limit: 1, queue: 4, maxWait: .seconds(30), rest: 100)
        // MUT: a task with nobody waiting behind it
        _ = try await gate.run { 1 }
        // validate: its slot is free as soon as it returns (a resting slot stays taken until the rest ends)
        #expect(gate.inside == 0)
        #expect(try await gate.run { 2 } == 2)
    }

    @Test func onlyTextsCountedInReviewsPassTheGate() throws {
        #expect(try SearchQuery("很好吃").countsReviews)
        #expect(try SearchQuery("Hot Pot Spot").countsReviews)
        #expect(try !SearchQuery("水煮鱼").countsReviews)
        #expect(try !SearchQuery("鱼").countsReviews)
        #expect(try !SearchQuery("火锅").countsReviews)
    }
}
