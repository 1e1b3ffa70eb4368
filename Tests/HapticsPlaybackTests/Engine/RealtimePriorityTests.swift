import Foundation
import Glibc
import Synchronization
import Testing
@testable import HapticsPlayback

/// Runs `body` on a thread of its own (so the runner's threads keep their scheduling) and
/// returns what it returned. With `realtime`, the thread first makes itself SCHED_FIFO 5, as a
/// process run with `chrt` or a boosted start is.
private func onNewThread<T: Sendable>(realtime: Bool = false, _ body: @escaping @Sendable () -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        if realtime {
            var parameters = sched_param()
            parameters.sched_priority = 5
            pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        }
        let value = body()
        result.withLock { $0 = value }
        done.signal()
    }
    thread.start()
    done.wait()
    return result.withLock { $0! }
}

/// A thread's scheduling policy and priority.
private struct Scheduling: Equatable, Sendable {
    var policy: Int32
    var priority: Int32
    static let normal = Scheduling(policy: SCHED_OTHER, priority: 0)
    static func fifo(_ priority: Int32) -> Scheduling { Scheduling(policy: SCHED_FIFO, priority: priority) }
}

/// The calling thread's.
private func scheduling() -> Scheduling {
    var policy: Int32 = 0
    var parameters = sched_param()
    pthread_getschedparam(pthread_self(), &policy, &parameters)
    return Scheduling(policy: policy, priority: parameters.sched_priority)
}

/// Whether this process may make a thread real-time (root, CAP_SYS_NICE, an rtprio limit).
private let realtimeAllowed = onNewThread { () -> Bool in
    var parameters = sched_param()
    parameters.sched_priority = 1
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0
}

@Suite(
    "Real-time priority of a start and of the engine's threads",
    .enabled(if: realtimeAllowed, "needs the right to real-time scheduling (root, CAP_SYS_NICE or an rtprio limit)"))
struct RealtimePriorityTests {
    @Test func aStartBoostRunsANormalThreadAtFIFO1UntilItEnds() {
        let seen = onNewThread { () -> [Scheduling] in
            let before = scheduling()
            let boost = RealtimePriority.StartBoost()
            let during = scheduling()
            boost.end()
            let after = scheduling()
            // Ending twice changes nothing.
            boost.end()
            return [before, during, after, scheduling()]
        }
        #expect(seen == [.normal, .fifo(1), .normal, .normal])
    }

    @Test func aStartBoostLeavesAThreadThatWasRealTimeAsItWas() {
        let seen = onNewThread(realtime: true) { () -> (Bool, [Scheduling]) in
            let boost = RealtimePriority.StartBoost()
            let during = scheduling()
            boost.end()
            return (boost.isRaised, [during, scheduling()])
        }
        #expect(seen.0 == false)
        #expect(seen.1 == [.fifo(5), .fifo(5)])
    }

    @Test func aStartBoostNotAskedForLeavesTheThreadNormal() {
        let seen = onNewThread { () -> (Bool, Scheduling) in
            let boost = RealtimePriority.StartBoost(if: false)
            defer { boost.end() }
            return (boost.isRaised, scheduling())
        }
        #expect(seen.0 == false)
        #expect(seen.1 == .normal)
    }

    @Test func threadsStartedDuringAStartBoostInheritIt() {
        let inherited = onNewThread { () -> Scheduling in
            let boost = RealtimePriority.StartBoost()
            defer { boost.end() }
            return onNewThread { scheduling() }
        }
        #expect(inherited == .fifo(1))
    }

    /// A device that does not pace its writer (null, a file) lets the audio thread render as
    /// fast as it can: inheriting a real-time creator's policy, it would take a core from
    /// every normal process for as long as it renders.
    @Test func anUnpacedAudioThreadRunsAtNormalPriorityWhateverItsCreatorRan() {
        let seen = onNewThread(realtime: true) {
            onNewThread { () -> Scheduling in
                RealtimePriority.raiseCurrentThread(name: "haptics-audio", realtime: false)
                return scheduling()
            }
        }
        #expect(seen == .normal)
    }

    @Test func aPacedAudioThreadRunsAtFIFO40() {
        let seen = onNewThread { () -> Scheduling in
            RealtimePriority.raiseCurrentThread(name: "haptics-audio", realtime: true)
            return scheduling()
        }
        #expect(seen == .fifo(40))
    }
}
