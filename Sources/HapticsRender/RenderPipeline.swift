import Synchronization

/// Renders on a second thread while the calling thread consumes the blocks: for a long render
/// to a file, synthesis runs on one core while conversion and writing run on another.
///
/// Blocks pass through a ring of ``slotCount`` buffers, in order, so what the consumer sees is
/// exactly what rendering and consuming in turn would give; only the timing changes. The
/// renderer is used by the rendering thread alone until ``run(_:)`` returns, and not after.
package final class RenderPipeline: @unchecked Sendable {
    /// Buffers in the ring: enough that neither thread waits on the other's short stalls.
    static let slotCount = 4
    /// Frames a buffer holds: large enough that handing a block over costs nothing next to
    /// rendering it (about 0.3 ms of synthesis at 48 kHz).
    static let slotFrames = 16_384

    private let renderer: HapticRenderer
    private let slotSamples: Int
    private let storage: UnsafeMutablePointer<Float>
    /// Frames in each slot, written by the rendering thread before it hands the slot over.
    private let frames: UnsafeMutablePointer<Int>
    /// Slots free for the rendering thread, and slots filled for the consumer.
    private let free = SystemSemaphore(value: RenderPipeline.slotCount)
    private let filled = SystemSemaphore(value: 0)
    /// Signalled once by the rendering thread when it has stopped touching the renderer.
    private let stopped = SystemSemaphore(value: 0)
    private let cancelled = Atomic<Bool>(false)

    package init(renderer: HapticRenderer) {
        self.renderer = renderer
        slotSamples = Self.slotFrames * renderer.channelCount
        storage = .allocate(capacity: slotSamples * Self.slotCount)
        storage.initialize(repeating: 0, count: slotSamples * Self.slotCount)
        frames = .allocate(capacity: Self.slotCount)
        frames.initialize(repeating: 0, count: Self.slotCount)
    }

    deinit {
        storage.deallocate()
        frames.deallocate()
    }

    /// Renders to the end, handing each block (interleaved, whole frames) to `consume` on the
    /// calling thread, in order. When `consume` throws, the rendering thread is stopped before
    /// the error is rethrown.
    package func run<E: Error>(_ consume: (UnsafeBufferPointer<Float>) throws(E) -> Void) throws(E) {
        let thread = SystemThread { [self] in produce() }
        thread.name = "haptics-render"
        thread.start()
        defer {
            // Normally the rendering thread has ended already; after a failed write it may be
            // rendering or waiting for a free slot, and stops at its next look at the flag.
            cancelled.store(true, ordering: .relaxed)
            free.signal()
            stopped.wait()
        }
        var slot = 0
        while true {
            filled.wait()
            let count = frames[slot]
            if count == 0 { return }
            try consume(UnsafeBufferPointer(start: storage + slot * slotSamples, count: count * renderer.channelCount))
            free.signal()
            slot = (slot + 1) % Self.slotCount
        }
    }

    private func produce() {
        var slot = 0
        while true {
            free.wait()
            if cancelled.load(ordering: .relaxed) { break }
            let count = renderer.render(into: UnsafeMutableBufferPointer(start: storage + slot * slotSamples, count: slotSamples))
            frames[slot] = count
            filled.signal()
            if count == 0 { break }
            slot = (slot + 1) % Self.slotCount
        }
        stopped.signal()
    }
}
