import Synchronization
import HapticsSystem

/// Renders and encodes on a second thread while the calling thread consumes the encoded
/// blocks: for a long render to a file, synthesis and conversion run on one core while the
/// writing runs on another.
///
/// The rendering thread converts each block to the file's sample format itself
/// (``RenderEncoder``), while the floats are still in its cache: handing floats over made the
/// other core pull twice the bytes across, which cost more than converting them. Blocks pass
/// through a ring of ``slotCount`` buffers, in order, so what the consumer sees is exactly what
/// rendering, converting and consuming in turn would give; only the timing changes. The renderer is used by the
/// rendering thread alone until ``run(_:)`` returns, and not after.
package final class RenderPipeline: @unchecked Sendable {
    /// Buffers in the ring: enough that neither thread waits on the other's short stalls.
    static let slotCount = 4
    /// Frames a buffer holds: large enough that handing a block over (a wake-up of the other
    /// thread) costs nothing next to rendering it, about 1 ms of synthesis at 48 kHz; at a
    /// quarter of this, the hand-overs cost a 600 s render 4 ms of its 50.
    static let slotFrames = 65_536

    private let encoder: RenderEncoder
    private let slotBytes: Int
    private let storage: UnsafeMutableRawPointer
    /// Frames in each slot, written by the rendering thread before it hands the slot over.
    private let frames: UnsafeMutablePointer<Int>
    /// Slots free for the rendering thread, and slots filled for the consumer.
    private let free = SystemSemaphore(value: RenderPipeline.slotCount)
    private let filled = SystemSemaphore(value: 0)
    /// Signalled once by the rendering thread when it has stopped touching the renderer.
    private let stopped = SystemSemaphore(value: 0)
    private let cancelled = Atomic<Bool>(false)

    /// A pipeline rendering and encoding what `encoder` has left.
    package init(encoder: RenderEncoder) {
        self.encoder = encoder
        slotBytes = Self.slotFrames * encoder.frameBytes
        storage = .allocate(byteCount: slotBytes * Self.slotCount, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: slotBytes * Self.slotCount)
        frames = .allocate(capacity: Self.slotCount)
        frames.initialize(repeating: 0, count: Self.slotCount)
    }

    /// A pipeline rendering `renderer` to the end as `format` samples (little-endian).
    package convenience init(renderer: HapticRenderer, format: SampleFormat) {
        self.init(encoder: RenderEncoder(renderer, format: format))
    }

    deinit {
        storage.deallocate()
        frames.deallocate()
    }

    /// Renders to the end, handing each block (whole frames, encoded) and its frame count to
    /// `consume` on the calling thread, in order. When `consume` throws, the rendering thread
    /// is stopped before the error is rethrown.
    package func run<E: Error>(_ consume: (UnsafeRawBufferPointer, Int) throws(E) -> Void) throws(E) {
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
        let frameBytes = encoder.frameBytes
        var slot = 0
        while true {
            filled.wait()
            let count = frames[slot]
            if count == 0 { return }
            try consume(UnsafeRawBufferPointer(start: storage + slot * slotBytes, count: count * frameBytes), count)
            free.signal()
            slot = (slot + 1) % Self.slotCount
        }
    }

    private func produce() {
        var slot = 0
        while true {
            free.wait()
            if cancelled.load(ordering: .relaxed) { break }
            let count = encoder.fill(storage + slot * slotBytes, frames: Self.slotFrames)
            frames[slot] = count
            filled.signal()
            if count == 0 { break }
            slot = (slot + 1) % Self.slotCount
        }
        stopped.signal()
    }
}
