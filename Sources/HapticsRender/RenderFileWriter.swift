import FoundationEssentials
import HapticsSystem

/// Writes a render into a WAV file: the renderer renders, this type decides how its blocks
/// reach the file.
///
/// Three ways, chosen by ``strategy(frames:sampleRate:replacingFile:)``:
/// - ``Strategy/inOrder``: on the calling thread, block by block (short renders, where a
///   second thread costs more than it saves);
/// - ``Strategy/pipelined``: synthesis and conversion on a second thread, writing on the
///   calling one (``RenderPipeline``);
/// - ``Strategy/twoParts``: a new file whose render falls silent near its middle is rendered,
///   converted and written in two halves, each on its own thread at its place in the file
///   (``TwoPartRender``).
///
/// Whichever it takes, the file is byte for byte the render in order, and floats become the
/// file's samples in one place (``RenderEncoder``, through ``SampleFormat/encode(_:count:into:)``).
package enum RenderFileWriter {
    /// How a render is written.
    package enum Strategy: Sendable, Hashable {
        /// On the calling thread, block by block.
        case inOrder
        /// Rendered and converted on a second thread, written on the calling one.
        case pipelined
        /// In two parts split at a silence, each rendered, converted and written on its own thread.
        case twoParts
    }

    /// Signal length from which a render uses a second thread: below it, starting the thread
    /// costs more than it saves.
    static let pipelineSeconds = 10
    /// Frames converted and written at a time in order.
    static let inOrderFrames = 16_384

    /// The way to write `frames` frames at `sampleRate` into a new file (`replacingFile`) or a
    /// stream: ``Strategy/twoParts`` is where a split is worth trying, and falls back to
    /// ``Strategy/pipelined`` when the render does not fall silent near its middle.
    package static func strategy(frames: Int, sampleRate: Int, replacingFile: Bool) -> Strategy {
        guard frames >= pipelineSeconds * sampleRate else { return .inOrder }
        return replacingFile ? .twoParts : .pipelined
    }

    /// Renders everything `renderer` has left into a WAV file at `path` (`-` for standard
    /// output) as `format`, and returns the render's figures. `progress` is told the frames
    /// rendered so far, rising to ``HapticRenderer/totalFrames``. `io` is the file's system
    /// calls (tests inject failures there).
    @discardableResult
    package static func write(
        _ renderer: HapticRenderer, to path: String, format: SampleFormat, io: AtomicFile.IO = .system, progress: ((Int) -> Void)? = nil
    ) throws(WAVError) -> RenderStatistics {
        let frames = renderer.totalFrames - renderer.renderedFrames
        let file = try WAVWriter(
            path: path, sampleRate: renderer.sampleRate, channelCount: renderer.channelCount, format: format, frameCount: frames,
            riffLimit: WAVWriter.riffLimit, io: io)
        var strategy = strategy(frames: frames, sampleRate: renderer.sampleRate, replacingFile: file.isReplacingFile)
        var second: HapticRenderer?
        if strategy == .twoParts {
            second = renderer.splitAtSilence()
            if second == nil { strategy = .pipelined }
        }
        switch strategy {
        case .twoParts:
            let second = second!
            let tail = try file.framesWriter(from: second.renderedFrames)
            let secondFrames = try TwoPartRender(
                first: RenderEncoder(renderer, format: format), second: RenderEncoder(second, format: format), tail: tail
            ).run(into: file, progress: progress)
            try file.noteFramesWritten(secondFrames)
            // The second part's figures (peak, clipping, dropped events) join the first's.
            renderer.absorb(second)
            progress?(renderer.renderedFrames)
        case .pipelined:
            var written = renderer.renderedFrames
            try RenderPipeline(encoder: RenderEncoder(renderer, format: format)).run { (bytes, frames) throws(WAVError) in
                try file.write(encoded: bytes, frames: frames)
                written += frames
                progress?(written)
            }
        case .inOrder:
            let encoder = RenderEncoder(renderer, format: format)
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: inOrderFrames * encoder.frameBytes, alignment: 64)
            defer { bytes.deallocate() }
            while case let frames = encoder.fill(bytes, frames: inOrderFrames), frames > 0 {
                try file.write(encoded: UnsafeRawBufferPointer(start: bytes, count: frames * encoder.frameBytes), frames: frames)
                progress?(renderer.renderedFrames)
            }
        }
        try file.finish()
        return renderer.statistics
    }
}

/// A render turned into a file's bytes: renders a chunk of frames at a time and converts it to
/// the file's sample format while the floats are still in the first-level cache. Used by one
/// thread at a time.
package final class RenderEncoder: @unchecked Sendable {
    /// The renderer it pulls frames from.
    package let renderer: HapticRenderer
    /// How samples are stored.
    package let format: SampleFormat
    /// Bytes a frame takes in the file.
    package let frameBytes: Int
    /// Floats rendered and not yet converted.
    private let chunk: UnsafeMutableBufferPointer<Float>
    /// Frames rendered at a time before they are converted: small enough to stay in the
    /// first-level cache between the two.
    static let chunkFrames = 2_048

    /// An encoder of what `renderer` has left, as `format` samples (little-endian).
    package init(_ renderer: HapticRenderer, format: SampleFormat) {
        self.renderer = renderer
        self.format = format
        frameBytes = renderer.channelCount * format.bytesPerSample
        chunk = .allocate(capacity: Self.chunkFrames * renderer.channelCount)
        chunk.initialize(repeating: 0)
    }

    deinit { chunk.deallocate() }

    /// Renders up to `capacity` frames and writes them at `destination` in the file's format;
    /// returns the frames written, 0 once the render is complete.
    package func fill(_ destination: UnsafeMutableRawPointer, frames capacity: Int) -> Int {
        let channels = renderer.channelCount
        var count = 0
        if format == .s16 {
            // Straight to samples, without the float chunk (bit for bit the same).
            return renderer.render(int16: destination, frames: capacity)
        }
        while count < capacity {
            let n = renderer.render(into: UnsafeMutableBufferPointer(rebasing: chunk[..<(min(Self.chunkFrames, capacity - count) * channels)]))
            if n == 0 { break }
            format.encode(chunk.baseAddress!, count: n * channels, into: destination + count * frameBytes)
            count += n
        }
        return count
    }
}

extension HapticRenderer {
    /// Renders everything left into a WAV file (`-` for standard output), streaming block by
    /// block, and returns the figures. `progress` is told the frames rendered so far.
    ///
    /// ```swift
    /// let renderer = HapticRenderer(pattern: pattern, profile: .lra)
    /// try renderer.writeWAV(to: "tap.wav", format: .s16)
    /// ```
    ///
    /// The file replaces its target only once complete and on the disk (written to a temporary
    /// file, flushed and renamed); a long render is written on two cores.
    @discardableResult
    public func writeWAV(to path: String, format: SampleFormat, progress: ((Int) -> Void)? = nil) throws(WAVError) -> RenderStatistics {
        try RenderFileWriter.write(self, to: path, format: format, progress: progress)
    }

    /// Renders everything left into a WAV file at `url` (see ``writeWAV(to:format:progress:)-(String,_,_)``).
    @discardableResult
    public func writeWAV(to url: URL, format: SampleFormat, progress: ((Int) -> Void)? = nil) throws(WAVError) -> RenderStatistics {
        try RenderFileWriter.write(self, to: url.path, format: format, progress: progress)
    }
}
