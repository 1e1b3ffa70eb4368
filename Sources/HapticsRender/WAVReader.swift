import FoundationEssentials
import Glibc
import Synchronization
import HapticsSystem

/// A failure loading the sound file of an `AudioCustom` event, naming the file.
public struct SoundFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// No file at the path.
        case missing
        /// The file exists but cannot be read (permissions, a folder, an I/O error).
        case unreadable
        /// Larger than the size limit for sound files.
        case tooLarge
        /// Not a WAV file this reader decodes.
        case malformed
    }

    /// The file, as resolved (the AHAP file's folder joined with `EventWaveformPath`).
    public var path: String
    public var reason: Reason
    /// What is wrong, without the path.
    public var detail: String

    /// One line: the file and the problem.
    public var description: String { "\(path): \(detail)" }
}

/// A decoded sound: 32-bit float samples, mono or stereo (interleaved), at the file's rate.
///
/// Decoded once, when a pattern is compiled for a renderer or a player, and then only read:
/// the audio thread reads the samples through ``samples`` and never allocates or does I/O.
package final class AudioClip: @unchecked Sendable {
    /// Channels: 1 or 2.
    package let channelCount: Int
    /// Frames per second of the file.
    package let sampleRate: Double
    /// Frames in the file.
    package let frameCount: Int
    /// `frameCount × channelCount` interleaved samples, in −1…1.
    let samples: UnsafeMutableBufferPointer<Float>

    /// Largest sound file read, in bytes: 64 MiB is about 6 minutes of 48 kHz 32-bit stereo.
    package static let defaultByteLimit = 64 << 20

    /// Copies at other rates made by ``resampled(to:)``, by rate.
    let resamplings = Mutex<[Double: AudioClip]>([:])

    init(channelCount: Int, sampleRate: Double, frameCount: Int, samples: UnsafeMutableBufferPointer<Float>) {
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.frameCount = frameCount
        self.samples = samples
    }

    deinit { samples.deallocate() }

    /// Length in seconds at the file's rate.
    package var duration: Double { Double(frameCount) / sampleRate }

    /// One channel's samples (channel 1 of a mono clip is channel 0).
    package func channel(_ index: Int) -> [Float] {
        let c = min(index, channelCount - 1)
        return (0..<frameCount).map { samples[$0 * channelCount + c] }
    }

    /// Reads a sound file: a WAV file (PCM 16, 24 or 32-bit integer or 32-bit float, plain or
    /// `WAVE_FORMAT_EXTENSIBLE`, mono or stereo) itself, any other file libsndfile reads
    /// (AIFF, CAF, FLAC, Ogg, MP3, other WAV encodings, …) through libsndfile; any rate from
    /// 1 kHz to 384 kHz.
    ///
    /// - Throws: ``SoundFileError`` naming the file: missing, unreadable, larger than
    ///   `byteLimit`, or not a sound file either reads.
    package static func load(path: String, byteLimit: Int = defaultByteLimit) throws(SoundFileError) -> AudioClip {
        func fail(_ reason: SoundFileError.Reason, _ detail: String) -> SoundFileError {
            SoundFileError(path: path, reason: reason, detail: detail)
        }
        let data: [UInt8]
        do {
            data = try BoundedFile.read(path: path, limit: byteLimit, streams: false)
        } catch {
            switch error {
            case .noSuchFile: throw fail(.missing, "sound file not found")
            case .notAFile(let kind): throw fail(.unreadable, "is \(kind == "a directory" ? "a folder" : kind ?? "a special file"), not a sound file")
            case .tooLarge(let size?): throw fail(.tooLarge, "the sound file is \(size) bytes, more than the \(byteLimit >> 20) MiB limit")
            case .tooLarge(nil): throw fail(.tooLarge, "the sound file is larger than the \(byteLimit >> 20) MiB limit")
            case .cannotOpen(let reason), .cannotRead(let reason): throw fail(.unreadable, "cannot read the sound file (\(reason))")
            }
        }
        let result = data.withUnsafeBytes { raw in
            Result { () throws(SoundFileError) in try decode(raw, name: path) }
        }
        switch result {
        case .success(let clip): return clip
        case .failure(let wavError) where wavError.reason == .malformed:
            // Not a WAV file this reader decodes: libsndfile may. If it does not either, a
            // WAV file's problem is the WAV reader's finding, any other file's libsndfile's.
            do {
                return try decodeWithSndFile(path: path, byteLimit: byteLimit)
            } catch {
                let isWAV = data.prefix(4).elementsEqual("RIFF".utf8)
                throw isWAV && error.reason == .malformed ? wavError : error
            }
        case .failure(let error): throw error
        }
    }

    /// Decodes WAV bytes; errors name the data `name`.
    package static func decode(_ bytes: UnsafeRawBufferPointer, name: String) throws(SoundFileError) -> AudioClip {
        func fail(_ detail: String) -> SoundFileError { SoundFileError(path: name, reason: .malformed, detail: detail) }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        func tag(_ o: Int) -> String { String(decoding: bytes[o..<o + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw fail("not a WAV file (no RIFF/WAVE header)") }
        var format: (tag: Int, channels: Int, rate: Int, bits: Int, blockAlign: Int)?
        var data: Range<Int>?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(offset)
            let start = offset + 8
            // A writer that never finished leaves sizes of 0 or 0xFFFFFFFF: take what is there.
            let size = min(u32(offset + 4), bytes.count - start)
            if id == "fmt " {
                guard size >= 16 else { throw fail("the fmt chunk is \(size) bytes, expected at least 16") }
                var formatTag = u16(start)
                if formatTag == 0xFFFE {
                    guard size >= 26 else { throw fail("the extensible fmt chunk is \(size) bytes, expected 40") }
                    formatTag = u16(start + 24)
                }
                format = (formatTag, u16(start + 2), u32(start + 4), u16(start + 14), u16(start + 12))
            } else if id == "data" {
                data = start..<(start + size)
                if format != nil { break }
            }
            offset = start + size + (size & 1)
        }
        guard let format else { throw fail("no fmt chunk") }
        guard let data else { throw fail("no data chunk") }
        guard format.channels == 1 || format.channels == 2 else {
            throw fail("\(format.channels) channels; sound files must be mono or stereo")
        }
        guard (1_000...384_000).contains(format.rate) else { throw fail("sample rate \(format.rate) Hz is outside 1000…384000 Hz") }
        let bytesPerSample: Int
        switch (format.tag, format.bits) {
        case (1, 16): bytesPerSample = 2
        case (1, 24): bytesPerSample = 3
        case (1, 32), (3, 32): bytesPerSample = 4
        default:
            let kind = format.tag == 1 ? "integer PCM" : format.tag == 3 ? "float" : "format tag \(format.tag)"
            throw fail("\(format.bits)-bit \(kind) is not supported (16, 24 or 32-bit integer PCM, or 32-bit float)")
        }
        let frameBytes = bytesPerSample * format.channels
        let frames = data.count / frameBytes
        let count = frames * format.channels
        let samples = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(1, count))
        samples.initialize(repeating: 0)
        var o = data.lowerBound
        switch (format.tag, bytesPerSample) {
        case (1, 2):
            for i in 0..<count {
                samples[i] = Float(Int16(truncatingIfNeeded: u16(o))) / 32768
                o += 2
            }
        case (1, 3):
            for i in 0..<count {
                let v = Int32(bitPattern: UInt32(bytes[o]) << 8 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 24) >> 8
                samples[i] = Float(v) / 8_388_608
                o += 3
            }
        case (1, 4):
            for i in 0..<count {
                samples[i] = Float(Int32(truncatingIfNeeded: u32(o))) / 2_147_483_648
                o += 4
            }
        default:
            for i in 0..<count {
                let x = Float(bitPattern: UInt32(truncatingIfNeeded: u32(o)))
                // Out-of-range floats are clipped; NaN and infinities are silence.
                samples[i] = x.isFinite ? min(max(x, -1), 1) : 0
                o += 4
            }
        }
        return AudioClip(channelCount: format.channels, sampleRate: Double(format.rate), frameCount: frames, samples: samples)
    }
}
