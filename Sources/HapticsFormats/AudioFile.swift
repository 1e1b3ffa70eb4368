import CSndFile
import Foundation

/// A sound file read whole into memory as mono float samples, through libsndfile: WAV, AIFF,
/// FLAC, Ogg (Vorbis, Opus) and, with libsndfile 1.1 or later (Debian 12 has 1.2), MP3. Any
/// sample rate; channels are mixed to mono by averaging.
public struct AudioFile: Sendable {
    /// Mono samples, −1…1.
    public var samples: [Float]
    /// Frames per second.
    public var sampleRate: Int
    /// Channels in the file (before mixing).
    public var channelCount: Int

    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    public init(samples: [Float], sampleRate: Int, channelCount: Int = 1) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    /// Reads a file. `progress` gets 0…1 as blocks are read.
    public init(contentsOf path: String, progress: ((Double) -> Void)? = nil) throws(FormatError) {
        let sndFile = try SoundLibraries.sndFile.get()
        var info = SF_INFO()
        guard let file = sndFile.open(path, Int32(SFM_READ), &info) else {
            let reason = sndFile.describeError(nil).map { String(cString: $0) } ?? "unknown error"
            throw FormatError("\(path): cannot read the sound (\(reason))")
        }
        defer { _ = sndFile.close(file) }
        let channels = Int(info.channels)
        guard channels > 0, info.samplerate > 0 else { throw FormatError("\(path): the sound has no channels or no sample rate") }
        sampleRate = Int(info.samplerate)
        channelCount = channels
        let total = info.frames > 0 && info.frames < Int64(Int32.max) ? Int(info.frames) : 0
        var mono: [Float] = []
        mono.reserveCapacity(total)
        let block = 8192
        var buffer = [Float](repeating: 0, count: block * channels)
        let scale = 1 / Float(channels)
        while true {
            let read = buffer.withUnsafeMutableBufferPointer { sndFile.readFloatFrames(file, $0.baseAddress, sf_count_t(block)) }
            if read <= 0 { break }
            let frames = Int(read)
            if channels == 1 {
                mono.append(contentsOf: buffer[0..<frames])
            } else {
                for f in 0..<frames {
                    var sum: Float = 0
                    for c in 0..<channels { sum += buffer[f * channels + c] }
                    mono.append(sum * scale)
                }
            }
            if let progress, total > 0 { progress(min(1, Double(mono.count) / Double(total))) }
        }
        if sndFile.error(file) != 0 {
            throw FormatError("\(path): reading the sound failed (\(sndFile.describeError(file).map { String(cString: $0) } ?? "unknown error"))")
        }
        samples = mono
    }
}

extension AudioFile {
    /// Reads a sound file at a URL (see ``init(contentsOf:progress:)-(String,_)``).
    public init(contentsOf url: URL, progress: ((Double) -> Void)? = nil) throws(FormatError) {
        try self.init(contentsOf: url.path, progress: progress)
    }
}
