import FoundationEssentials
import HapticsSystem

/// Sample formats for files and devices.
public enum SampleFormat: String, Sendable, CaseIterable {
    /// 16-bit signed integer PCM (converted with ``int16Sample(_:)``).
    case s16
    /// 32-bit IEEE float.
    case f32

    /// Bytes per sample.
    public var bytesPerSample: Int { self == .s16 ? 2 : 4 }
}

extension SampleFormat {
    /// Converts `count` samples into this format, little-endian, at `destination` (which need
    /// not be aligned): the one float → file conversion, for ``WAVWriter`` and every render
    /// written to a file (``RenderEncoder``). 16-bit samples are ``int16Sample(_:)``'s, bit for
    /// bit, as devices receive them.
    @inline(__always)
    package func encode(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer) {
        switch self {
        case .s16: convertToInt16(source, count: count, into: destination)
        case .f32: convertToFloat32LittleEndian(source, count: count, into: destination)
        }
    }
}

/// A failure writing a WAV file, naming the file (`standard output` for `-`).
public enum WAVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A format a WAV header cannot hold or no reader plays: a sample rate outside
    /// ``WAVWriter/sampleRateRange`` or a channel count outside ``WAVWriter/channelRange``.
    /// Nothing was written.
    case unsupportedFormat(path: String, sampleRate: Int, channelCount: Int)
    /// The file could not be created, for `reason` (the system's).
    case cannotCreate(path: String, reason: String)
    /// Writing failed part-way (or flushing it to the disk, or putting it in place), for
    /// `reason`; the target, if it existed, is as it was.
    case writeFailed(path: String, reason: String)
    /// Closing the file failed (the data may not have reached the disk), for `reason`.
    case closeFailed(path: String, reason: String)

    /// The file, or `-` for standard output.
    public var path: String {
        switch self {
        case .unsupportedFormat(let path, _, _), .cannotCreate(let path, _), .writeFailed(let path, _), .closeFailed(let path, _):
            return path
        }
    }

    /// One line naming the file and what failed.
    public var description: String {
        let name = path == "-" ? "standard output" : path
        switch self {
        case .unsupportedFormat(_, let rate, let channels):
            return "\(name): cannot write a WAV file at \(rate) Hz with \(channels) channel\(channels == 1 ? "" : "s")"
                + " (rates \(WAVWriter.sampleRateRange.lowerBound)…\(WAVWriter.sampleRateRange.upperBound) Hz"
                + " and \(WAVWriter.channelRange.lowerBound)…\(WAVWriter.channelRange.upperBound) channels are supported)"
        case .cannotCreate(_, let reason):
            return "\(name): cannot create the file (\(reason))"
        case .writeFailed(let path, let reason):
            return path == "-" ? "\(name): cannot write (\(reason))" : "\(name): cannot write the file (\(reason))"
        case .closeFailed(_, let reason):
            return "\(name): \(reason)"
        }
    }
}

extension WAVError {
    /// The WAV form of a failure of the file underneath.
    init(_ error: FileWriteError, path: String) {
        switch error.stage {
        case .create: self = .cannotCreate(path: path, reason: error.reason)
        case .write: self = .writeFailed(path: path, reason: error.reason)
        }
    }
}

/// Streams interleaved samples into a WAV file or standard output.
///
/// The header is written first with the frame count given up front, so the output can be a
/// pipe; on a regular file, ``finish()`` corrects the header if fewer frames arrived. Channels
/// above two use `WAVE_FORMAT_EXTENSIBLE`, as multi-channel readers expect.
///
/// The file is written through ``AtomicFile``: it replaces the target only when ``finish()``
/// succeeds, so a failed write (a full disk, an I/O error) leaves the old file as it was.
///
/// A file whose RIFF size would pass 4 GiB is written as RF64 (EBU Tech 3306): the `RF64` id,
/// a `ds64` chunk holding the 64-bit RIFF size, data size and sample count, and the 32-bit
/// size fields set to 0xFFFFFFFF. The form follows from the declared frame count; if more
/// frames arrive than a RIFF header can describe, writing stops with an error.
package final class WAVWriter {
    /// The file written, or `-` for standard output.
    package let path: String
    /// Frames per second in the header.
    package let sampleRate: Int
    /// Interleaved channels per frame.
    package let channelCount: Int
    /// How samples are stored.
    package let format: SampleFormat
    package private(set) var framesWritten = 0
    /// Whether the header is RF64 rather than RIFF.
    package let isRF64: Bool
    private let declaredFrames: Int
    private let file: AtomicFile
    /// Bytes before the first sample.
    private let headerBytes: Int
    /// The largest RIFF size field a plain RIFF header may hold (injectable for tests).
    private let riffLimit: Int
    /// Bytes waiting to be written; flushed when 48 KiB or more are pending.
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: WAVWriter.bufferBytes, alignment: 4)
    private var pending = 0
    private static let bufferBytes = 64 * 1024
    private var finished = false

    /// The RIFF size field's ceiling: 4 GiB − 1 bytes after the first 8.
    package static let riffLimit = Int(UInt32.max)
    /// Sample rates the writer accepts, in hertz: every rate a WAV reader plays.
    package static let sampleRateRange = 1...1_000_000
    /// Channel counts the writer accepts (WAVE_FORMAT_EXTENSIBLE names up to 18 positions;
    /// more are unspecified but valid).
    package static let channelRange = 1...256

    /// Opens `path` (`-` for standard output) and writes the header for `frameCount` frames.
    ///
    /// - Throws: ``WAVError/unsupportedFormat(path:sampleRate:channelCount:)`` before touching
    ///   the file when the rate or channel count is outside what a header holds.
    package convenience init(path: String, sampleRate: Int, channelCount: Int, format: SampleFormat, frameCount: Int) throws(WAVError) {
        try self.init(
            path: path, sampleRate: sampleRate, channelCount: channelCount, format: format,
            frameCount: frameCount, riffLimit: Self.riffLimit, io: .system)
    }

    /// As the package initializer, with the RIFF size limit and the system calls injectable.
    package init(
        path: String, sampleRate: Int, channelCount: Int, format: SampleFormat, frameCount: Int,
        riffLimit: Int, io: AtomicFile.IO = .system
    ) throws(WAVError) {
        guard Self.sampleRateRange.contains(sampleRate), Self.channelRange.contains(channelCount) else {
            throw .unsupportedFormat(path: path, sampleRate: sampleRate, channelCount: channelCount)
        }
        self.path = path
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
        self.riffLimit = riffLimit
        declaredFrames = frameCount
        let header = Self.header(
            sampleRate: sampleRate, channelCount: channelCount, format: format,
            frames: frameCount, riffLimit: riffLimit)
        isRF64 = header.isRF64
        headerBytes = header.bytes.count
        do {
            file = try AtomicFile(path: path, io: io, expectedBytes: headerBytes + frameCount * channelCount * format.bytesPerSample)
            try file.write(header.bytes)
        } catch {
            throw WAVError(error, path: path)
        }
    }

    deinit {
        file.discard()
        buffer.deallocate()
    }

    /// Appends interleaved frames.
    package func write(_ samples: UnsafeBufferPointer<Float>) throws(WAVError) {
        let frames = samples.count / channelCount
        try checkRoom(for: frames)
        var index = 0
        let bytesPerSample = format.bytesPerSample
        while index < samples.count {
            if pending + bytesPerSample > Self.bufferBytes { try flushBuffer() }
            let count = min(samples.count - index, (Self.bufferBytes - pending) / bytesPerSample)
            format.encode(samples.baseAddress! + index, count: count, into: buffer + pending)
            pending += count * bytesPerSample
            index += count
        }
        framesWritten += frames
        if pending >= 48 * 1024 { try flushBuffer() }
    }

    /// Appends `frames` frames already in the file's sample format (little-endian,
    /// interleaved), as ``RenderEncoder`` makes them: written as they are, without a copy.
    package func write(encoded bytes: UnsafeRawBufferPointer, frames: Int) throws(WAVError) {
        precondition(bytes.count == frames * channelCount * format.bytesPerSample, "whole frames in the file's format")
        try checkRoom(for: frames)
        if pending > 0 { try flushBuffer() }
        do {
            try file.write(bytes)
        } catch {
            throw WAVError(error, path: path)
        }
        framesWritten += frames
    }

    /// Whether the output is a new file (not a stream), which ``framesWriter(from:)`` can
    /// write at any place.
    package var isReplacingFile: Bool { file.isReplacingFile }

    /// A writer of frames from `frame` on at their place in the file, for another thread while
    /// this writer appends the frames before it (see ``noteFramesWritten(_:)``). Only for a new
    /// file (``isReplacingFile``): a stream is written in order.
    package func framesWriter(from frame: Int) throws(WAVError) -> FramesWriter {
        precondition(isReplacingFile && !finished, "only a new file being written")
        do {
            return FramesWriter(file: try file.positionalWriter(), offset: headerBytes + frame * channelCount * format.bytesPerSample, path: path)
        } catch {
            finished = true
            throw WAVError(error, path: path)
        }
    }

    /// Writes encoded frames at their place in the file (see ``framesWriter(from:)``), from
    /// one thread at a time.
    package final class FramesWriter: @unchecked Sendable {
        private let file: AtomicFile.PositionalWriter
        private var offset: Int
        private let path: String

        fileprivate init(file: AtomicFile.PositionalWriter, offset: Int, path: String) {
            self.file = file
            self.offset = offset
            self.path = path
        }

        /// Writes the next frames, already in the file's format.
        package func write(encoded bytes: UnsafeRawBufferPointer) throws(WAVError) {
            do {
                try file.write(bytes, at: offset)
            } catch {
                throw WAVError(error, path: path)
            }
            offset += bytes.count
        }

        /// Writes what it still holds (a file written around the page cache keeps a block or
        /// more); after the last write.
        package func finish() throws(WAVError) {
            do {
                try file.finish()
            } catch {
                throw WAVError(error, path: path)
            }
        }

        /// Stops writing: the descriptor it wrote through is closed.
        package func close() { file.close() }
    }

    /// Counts `frames` frames that a ``FramesWriter`` wrote after those appended, once the
    /// appended ones have reached them.
    package func noteFramesWritten(_ frames: Int) throws(WAVError) {
        try checkRoom(for: frames)
        framesWritten += frames
    }

    /// Fails, discarding the file, when `frames` more frames would not fit a RIFF header.
    private func checkRoom(for frames: Int) throws(WAVError) {
        if !isRF64, Self.riffSize(frames: framesWritten + frames, channelCount: channelCount, format: format, rf64: false) > riffLimit {
            file.discard()
            finished = true
            throw .writeFailed(path: path, reason: "more frames arrived than a RIFF header can describe; declare them up front to get RF64")
        }
    }

    private func flushBuffer() throws(WAVError) {
        defer { pending = 0 }
        do {
            try file.write(UnsafeRawBufferPointer(start: buffer, count: pending))
        } catch {
            throw WAVError(error, path: path)
        }
    }

    /// Flushes, corrects the header of a regular file whose frame count differs from the
    /// declared one, and puts the file in place (see ``AtomicFile/commit()``).
    package func finish() throws(WAVError) {
        guard !finished else { return }
        finished = true
        try flushBuffer()
        do {
            if framesWritten != declaredFrames, file.isReplacingFile {
                let header = Self.header(
                    sampleRate: sampleRate, channelCount: channelCount, format: format,
                    frames: framesWritten, riffLimit: isRF64 ? 0 : riffLimit)
                try file.rewriteStart(with: header.bytes)
            }
            try file.commit()
        } catch {
            throw WAVError(error, path: path)
        }
    }

    /// The RIFF size field for `frames` frames: every byte after the first 8.
    static func riffSize(frames: Int, channelCount: Int, format: SampleFormat, rf64: Bool) -> Int {
        headerLayout(channelCount: channelCount, format: format, rf64: rf64).headerBytes - 8
            + frames * channelCount * format.bytesPerSample
    }

    private static func headerLayout(channelCount: Int, format: SampleFormat, rf64: Bool) -> (fmtSize: Int, factSize: Int, headerBytes: Int) {
        let fmtSize = channelCount > 2 ? 40 : (format == .f32 ? 18 : 16)
        let factSize = format == .f32 ? 12 : 0
        // RIFF id, size, WAVE; [ds64]; fmt; [fact]; data id and size.
        let headerBytes = 12 + (rf64 ? 36 : 0) + 8 + fmtSize + factSize + 8
        return (fmtSize, factSize, headerBytes)
    }

    /// The header for `frames` frames: RIFF when its size field fits `riffLimit`, RF64 otherwise.
    static func header(sampleRate: Int, channelCount: Int, format: SampleFormat, frames: Int, riffLimit: Int) -> (bytes: [UInt8], isRF64: Bool) {
        let rf64 = riffSize(frames: frames, channelCount: channelCount, format: format, rf64: false) > riffLimit
        let layout = headerLayout(channelCount: channelCount, format: format, rf64: rf64)
        let extensible = channelCount > 2
        let bytesPerFrame = channelCount * format.bytesPerSample
        let dataBytes = frames * bytesPerFrame
        let riffBytes = riffSize(frames: frames, channelCount: channelCount, format: format, rf64: rf64)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(layout.headerBytes)
        func u64(_ v: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8((v >> UInt64(shift)) & 0xFF)) } }
        func u32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
        func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        bytes += Array((rf64 ? "RF64" : "RIFF").utf8)
        u32(rf64 ? UInt32.max : UInt32(clamping: riffBytes))
        bytes += Array("WAVE".utf8)
        if rf64 {
            bytes += Array("ds64".utf8)
            u32(28)
            u64(UInt64(riffBytes))
            u64(UInt64(dataBytes))
            u64(UInt64(frames))
            u32(0)  // no table of other chunk sizes
        }
        bytes += Array("fmt ".utf8)
        u32(UInt32(layout.fmtSize))
        let tag: UInt16 = extensible ? 0xFFFE : (format == .f32 ? 3 : 1)
        u16(tag)
        u16(UInt16(channelCount))
        u32(UInt32(sampleRate))
        u32(UInt32(sampleRate * bytesPerFrame))
        u16(UInt16(bytesPerFrame))
        u16(UInt16(format.bytesPerSample * 8))
        if extensible {
            u16(22)  // extension size
            u16(UInt16(format.bytesPerSample * 8))  // valid bits
            u32(0)  // channel mask: unspecified
            // Sub-format GUID: 0000000X-0000-0010-8000-00aa00389b71
            u16(format == .f32 ? 3 : 1)
            u16(0)
            bytes += [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if format == .f32 {
            u16(0)
        }
        if format == .f32 {
            bytes += Array("fact".utf8)
            u32(4)
            u32(rf64 ? UInt32.max : UInt32(clamping: frames))
        }
        bytes += Array("data".utf8)
        u32(rf64 ? UInt32.max : UInt32(clamping: dataBytes))
        return (bytes, rf64)
    }
}
