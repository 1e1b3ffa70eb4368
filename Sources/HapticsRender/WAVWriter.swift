import Foundation

/// Sample formats for files and devices.
public enum SampleFormat: String, Sendable, CaseIterable {
    /// 16-bit signed integer PCM (converted with ``int16Sample(_:)``).
    case s16
    /// 32-bit IEEE float.
    case f32

    /// Bytes per sample.
    public var bytesPerSample: Int { self == .s16 ? 2 : 4 }
}

/// A failure writing a WAV file, naming the file (`standard output` for `-`).
public enum WAVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A format a WAV header cannot hold or no reader plays: a sample rate outside
    /// ``WAVWriter/sampleRateRange`` or a channel count outside ``WAVWriter/channelRange``.
    /// Nothing was written.
    case unsupportedFormat(path: String, sampleRate: Int, channelCount: Int)
    /// The file could not be created, for `reason` (the system's).
    case cannotCreate(path: String, reason: String)
    /// Writing failed part-way, for `reason`.
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
        case .writeFailed(_, let reason):
            return "\(name): write failed (\(reason))"
        case .closeFailed(_, let reason):
            return "\(name): \(reason)"
        }
    }
}

/// Streams interleaved samples into a WAV file or standard output.
///
/// The header is written first with the frame count given up front, so the output can be a
/// pipe; on a regular file, ``finish()`` corrects the header if fewer frames arrived. Channels
/// above two use `WAVE_FORMAT_EXTENSIBLE`, as multi-channel readers expect.
public final class WAVWriter {
    /// The file written, or `-` for standard output.
    public let path: String
    /// Frames per second in the header.
    public let sampleRate: Int
    /// Interleaved channels per frame.
    public let channelCount: Int
    /// How samples are stored.
    public let format: SampleFormat
    public private(set) var framesWritten = 0
    private let declaredFrames: Int
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// Bytes waiting to be written; flushed when 48 KiB or more are pending.
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: WAVWriter.bufferBytes, alignment: 4)
    private var pending = 0
    private static let bufferBytes = 64 * 1024
    /// Header bytes, built once (and again if `finish` corrects them).
    private var bytes: [UInt8] = []
    private var finished = false

    /// Sample rates the writer accepts, in hertz: every rate a WAV reader plays.
    public static let sampleRateRange = 1...1_000_000
    /// Channel counts the writer accepts (WAVE_FORMAT_EXTENSIBLE names up to 18 positions;
    /// more are unspecified but valid).
    public static let channelRange = 1...256

    /// Opens `path` (`-` for standard output) and writes the header for `frameCount` frames.
    ///
    /// - Throws: ``WAVError/unsupportedFormat(path:sampleRate:channelCount:)`` before touching
    ///   the file when the rate or channel count is outside what a header holds.
    public init(path: String, sampleRate: Int, channelCount: Int, format: SampleFormat, frameCount: Int) throws(WAVError) {
        guard Self.sampleRateRange.contains(sampleRate), Self.channelRange.contains(channelCount) else {
            throw .unsupportedFormat(path: path, sampleRate: sampleRate, channelCount: channelCount)
        }
        self.path = path
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
        declaredFrames = frameCount
        if path == "-" {
            fd = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
            ownsDescriptor = true
        }
        bytes.reserveCapacity(64 * 1024)
        appendHeader(frames: frameCount)
        try flush()
    }

    deinit {
        if ownsDescriptor && !finished { close(fd) }
        buffer.deallocate()
    }

    /// Appends interleaved frames.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(WAVError) {
        var index = 0
        let bytesPerSample = format.bytesPerSample
        while index < samples.count {
            if pending + bytesPerSample > Self.bufferBytes { try flushBuffer() }
            let count = min(samples.count - index, (Self.bufferBytes - pending) / bytesPerSample)
            let out = buffer + pending
            switch format {
            case .s16:
                let target = out.assumingMemoryBound(to: Int16.self)
                for i in 0..<count { target[i] = int16Sample(samples[index + i]).littleEndian }
            case .f32:
                let target = out.assumingMemoryBound(to: UInt32.self)
                for i in 0..<count { target[i] = samples[index + i].bitPattern.littleEndian }
            }
            pending += count * bytesPerSample
            index += count
        }
        framesWritten += samples.count / channelCount
        if pending >= 48 * 1024 { try flushBuffer() }
    }

    private func flushBuffer() throws(WAVError) {
        try writeAll(UnsafeRawBufferPointer(start: buffer, count: pending))
        pending = 0
    }

    /// Flushes and closes; on a regular file whose frame count differs from the header's,
    /// rewrites the header.
    public func finish() throws(WAVError) {
        guard !finished else { return }
        try flush()
        finished = true
        if ownsDescriptor {
            if framesWritten != declaredFrames, lseek(fd, 0, SEEK_SET) == 0 {
                appendHeader(frames: framesWritten)
                try flush()
            }
            guard close(fd) == 0 else { throw .closeFailed(path: path, reason: String(cString: strerror(errno))) }
        }
    }

    /// Writes the header bytes, then any pending samples.
    private func flush() throws(WAVError) {
        let header = bytes
        bytes.removeAll(keepingCapacity: true)
        if !header.isEmpty {
            let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: header.count, alignment: 1)
            defer { raw.deallocate() }
            raw.copyBytes(from: header)
            try writeAll(UnsafeRawBufferPointer(raw))
        }
        try flushBuffer()
    }

    private func writeAll(_ raw: UnsafeRawBufferPointer) throws(WAVError) {
        var offset = 0
        while offset < raw.count {
            let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
            offset += n
        }
    }

    private func appendHeader(frames: Int) {
        let extensible = channelCount > 2
        let bytesPerFrame = channelCount * format.bytesPerSample
        let dataBytes = UInt32(clamping: frames * bytesPerFrame)
        let fmtSize: UInt32 = extensible ? 40 : (format == .f32 ? 18 : 16)
        let factSize: UInt32 = format == .f32 ? 12 : 0
        func u32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
        func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        bytes += Array("RIFF".utf8)
        u32(UInt32(clamping: 4 + (8 + Int(fmtSize)) + Int(factSize) + 8 + Int(dataBytes)))
        bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8)
        u32(fmtSize)
        let tag: UInt16 = extensible ? 0xFFFE : (format == .f32 ? 3 : 1)
        u16(tag)
        u16(UInt16(channelCount))
        u32(UInt32(sampleRate))
        u32(UInt32(sampleRate * bytesPerFrame))
        u16(UInt16(bytesPerFrame))
        u16(UInt16(format.bytesPerSample * 8))
        if extensible {
            u16(22)                               // extension size
            u16(UInt16(format.bytesPerSample * 8)) // valid bits
            u32(0)                                // channel mask: unspecified
            // Sub-format GUID: 0000000X-0000-0010-8000-00aa00389b71
            u16(format == .f32 ? 3 : 1); u16(0)
            bytes += [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else if format == .f32 {
            u16(0)
        }
        if format == .f32 {
            bytes += Array("fact".utf8)
            u32(4)
            u32(UInt32(clamping: frames))
        }
        bytes += Array("data".utf8)
        u32(dataBytes)
    }
}
