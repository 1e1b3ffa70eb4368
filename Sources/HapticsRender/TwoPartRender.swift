import Synchronization
import HapticsSystem

/// Writes a long render in two parts on two threads, each rendering, converting and writing its
/// own part at its place in the file.
///
/// Where the render falls silent near its middle (``HapticRenderer/splitAtSilence()``), its
/// second part does not depend on the first, and the two cores each synthesise half of it,
/// where with ``RenderPipeline`` one synthesised while the other only wrote. The file is
/// exactly the one rendering in order writes. Used for new files only: a stream is written in
/// order. ``RenderFileWriter`` chooses it, and takes the second part's figures into the first
/// renderer's afterwards.
package final class TwoPartRender: @unchecked Sendable {
    private let first: RenderEncoder
    private let second: RenderEncoder
    /// Frames of the second part written so far, for progress.
    private let secondWritten = Atomic<Int>(0)
    /// Set when the first part fails, so that the second stops early.
    private let cancelled = Atomic<Bool>(false)
    /// Signalled once when the second thread has stopped touching its renderer and the file.
    private let secondDone = SystemSemaphore(value: 0)
    /// The second part's error, read after `secondDone`.
    private var secondError: WAVError?
    private let tail: WAVWriter.FramesWriter

    /// Renders `first` up to the frame `second` starts at, and `second` to the end (their
    /// renderers as ``HapticRenderer/splitAtSilence()`` made them), into the file `tail` writes
    /// into.
    package init(first: RenderEncoder, second: RenderEncoder, tail: WAVWriter.FramesWriter) {
        self.first = first
        self.second = second
        self.tail = tail
    }

    /// Writes both parts: the first through `writer` on the calling thread, the second at its
    /// place on another, and returns the frames of the second part (which `writer` has not
    /// counted). `progress` is told the frames rendered so far, in both parts. On any error
    /// both threads have stopped when it is thrown, and the caller discards the file.
    package func run(into writer: WAVWriter, progress: ((Int) -> Void)?) throws(WAVError) -> Int {
        let thread = SystemThread { [self] in writeSecondPart() }
        thread.name = "haptics-render"
        thread.start()
        do {
            try encode(first, stop: { false }) { (bytes, frames) throws(WAVError) in
                try writer.write(encoded: bytes, frames: frames)
                progress?(first.renderer.renderedFrames + secondWritten.load(ordering: .relaxed))
            }
        } catch {
            cancelled.store(true, ordering: .relaxed)
            secondDone.wait()
            throw error
        }
        secondDone.wait()
        if let secondError { throw secondError }
        return secondWritten.load(ordering: .relaxed)
    }

    private func writeSecondPart() {
        do throws(WAVError) {
            try encode(second, stop: { cancelled.load(ordering: .relaxed) }) { (bytes, frames) throws(WAVError) in
                try tail.write(encoded: bytes)
                secondWritten.add(frames, ordering: .relaxed)
            }
            try tail.finish()
        } catch {
            secondError = error
        }
        // Before the calling thread may close or remove the file.
        tail.close()
        secondDone.signal()
    }

    /// Held by the thread handing bytes to the file: the two never write at once. On tmpfs a
    /// write holds the file's lock in the kernel while it copies, and the other thread's write
    /// spun on it (up to 4% of the render's CPU); here a thread that finds the file busy
    /// renders its next buffer instead, and writes both when it has the lock.
    private let writing = SystemLock()

    /// Encodes what `encoder` has left (or until `stop` says so), handing the bytes to `emit` a
    /// buffer at a time, in order, never while the other part's thread is handing it bytes.
    private func encode(
        _ encoder: RenderEncoder, stop: () -> Bool, emit: (UnsafeRawBufferPointer, Int) throws(WAVError) -> Void
    ) throws(WAVError) {
        let slotBytes = RenderPipeline.slotFrames * encoder.frameBytes
        // Two buffers: one waiting for the file while the other is filled.
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 2 * slotBytes, alignment: 64)
        defer { bytes.deallocate() }
        var slot = 0
        var waiting: (slot: Int, frames: Int)?
        func emitHeld(_ filled: (slot: Int, frames: Int)) throws(WAVError) {
            try emit(UnsafeRawBufferPointer(start: bytes + filled.slot * slotBytes, count: filled.frames * encoder.frameBytes), filled.frames)
        }
        while !stop() {
            let frames = encoder.fill(bytes + slot * slotBytes, frames: RenderPipeline.slotFrames)
            if frames == 0 { break }
            if waiting == nil && !writing.tryLock() {
                // The other thread is writing: render the next buffer meanwhile.
                waiting = (slot, frames)
                slot ^= 1
                continue
            }
            if waiting != nil { writing.lock() }
            defer { writing.unlock() }
            if let earlier = waiting {
                waiting = nil
                try emitHeld(earlier)
            }
            try emitHeld((slot, frames))
            slot ^= 1
        }
        if let earlier = waiting, !stop() {
            writing.lock()
            defer { writing.unlock() }
            try emitHeld(earlier)
        }
    }
}
