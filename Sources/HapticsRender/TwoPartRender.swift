import Synchronization
import HapticsSystem

/// Writes a long render in two parts on two threads, each rendering, converting and writing its
/// own part at its place in the file.
///
/// Where the render falls silent near its middle (``HapticRenderer/splitAtSilence()``), its
/// second part does not depend on the first, and the two cores each synthesise half of it,
/// where with ``RenderPipeline`` one synthesised while the other only wrote. The file is
/// exactly the one rendering in order writes. Used for new files only: a stream is written in
/// order.
package final class TwoPartRender: @unchecked Sendable {
    private let first: HapticRenderer
    private let second: HapticRenderer
    private let format: SampleFormat
    /// Frames of the second part written so far, for progress.
    private let secondWritten = Atomic<Int>(0)
    /// Set when the first part fails, so that the second stops early.
    private let cancelled = Atomic<Bool>(false)
    /// Signalled once when the second thread has stopped touching its renderer and the file.
    private let secondDone = SystemSemaphore(value: 0)
    /// The second part's error, read after `secondDone`.
    private var secondError: WAVError?
    private let tail: WAVWriter.FramesWriter

    /// Renders `first` up to the frame `second` starts at, and `second` to the end (as
    /// ``HapticRenderer/splitAtSilence()`` made them), into the file `tail` writes into.
    package init(first: HapticRenderer, second: HapticRenderer, tail: WAVWriter.FramesWriter, format: SampleFormat) {
        self.first = first
        self.second = second
        self.tail = tail
        self.format = format
    }

    /// Writes both parts: the first through `writer` on the calling thread, the second at its
    /// place on another; then takes the second's figures into `first`. `progress` is told the
    /// frames written so far, in both parts. On any error both threads have stopped when it is
    /// thrown, and the caller discards the file.
    package func run(into writer: WAVWriter, progress: ((Int) -> Void)?) throws(WAVError) {
        let thread = SystemThread { [self] in writeSecondPart() }
        thread.name = "haptics-render"
        thread.start()
        let start = first.renderedFrames
        do {
            try Self.encode(first, as: format, stop: { false }) { (bytes, frames) throws(WAVError) in
                try writer.write(encoded: bytes, frames: frames)
                progress?(first.renderedFrames - start + secondWritten.load(ordering: .relaxed))
            }
        } catch {
            cancelled.store(true, ordering: .relaxed)
            secondDone.wait()
            throw error
        }
        secondDone.wait()
        if let secondError { throw secondError }
        try writer.noteFramesWritten(secondWritten.load(ordering: .relaxed))
        first.absorb(second)
        progress?(first.renderedFrames - start)
    }

    private func writeSecondPart() {
        do throws(WAVError) {
            try Self.encode(second, as: format, stop: { cancelled.load(ordering: .relaxed) }) { (bytes, frames) throws(WAVError) in
                try tail.write(encoded: bytes)
                secondWritten.add(frames, ordering: .relaxed)
            }
        } catch {
            secondError = error
        }
        // Before the calling thread may close or remove the file.
        tail.close()
        secondDone.signal()
    }

    /// Renders `renderer` to its end (or until `stop` says so), handing the converted frames to
    /// `emit` a buffer at a time.
    private static func encode(
        _ renderer: HapticRenderer, as format: SampleFormat, stop: () -> Bool, emit: (UnsafeRawBufferPointer, Int) throws(WAVError) -> Void
    ) throws(WAVError) {
        let channels = renderer.channelCount
        let frameBytes = channels * format.bytesPerSample
        let chunk = UnsafeMutableBufferPointer<Float>.allocate(capacity: RenderPipeline.chunkFrames * channels)
        defer { chunk.deallocate() }
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: RenderPipeline.slotFrames * frameBytes, alignment: 64)
        defer { bytes.deallocate() }
        while !stop() {
            let frames = RenderPipeline.fill(bytes, frames: RenderPipeline.slotFrames, from: renderer, through: chunk, as: format)
            if frames == 0 { return }
            try emit(UnsafeRawBufferPointer(start: bytes, count: frames * frameBytes), frames)
        }
    }
}
