import Foundation
import Synchronization

/// Spins `count` threads at normal priority until stopped, as a busy app or a build would: the
/// load under which the low-latency engine must hold (the latency benchmark and the real-time
/// tests both use it).
package final class BusyThreads: @unchecked Sendable {
    private let running = Atomic<Bool>(true)
    private let finished = Atomic<Int>(0)
    private let count: Int

    package init(count: Int) {
        self.count = count
        for _ in 0..<count {
            Thread.detachNewThread { [self] in
                var x: UInt64 = 1
                while running.load(ordering: .relaxed) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                withExtendedLifetime(x) {}
                finished.add(1, ordering: .releasing)
            }
        }
    }

    /// Stops the threads and waits until they have.
    package func stop() {
        running.store(false, ordering: .relaxed)
        while finished.load(ordering: .acquiring) < count { usleep(1_000) }
    }
}
