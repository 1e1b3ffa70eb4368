import COptionalLibraries
import FoundationEssentials
import Glibc

// Sound files other than WAV, and sounds at another rate than the output's: libsndfile
// decodes every format it reads (AIFF, CAF, FLAC, Ogg Vorbis and Opus, MP3, …), libsoxr
// resamples. Both are opened the first time they are needed (`COptionalLibraries`), as the
// toolkit opens its other optional libraries, so nothing loads them at launch and a machine
// without them still plays WAV files at the output's rate.

extension AudioClip {
    /// Whether libsoxr could be opened: sounds at another rate than the output's are then
    /// resampled by it; otherwise the voice's own linear interpolation does it.
    package static var hasResampler: Bool { haptics_soxr() != nil }

    /// Decodes a file libsndfile reads (any format but the WAV ``load(path:byteLimit:)`` reads
    /// itself), keeping mono or stereo (more channels are mixed into stereo's two by pairs).
    static func decodeWithSndFile(path: String, byteLimit: Int) throws(SoundFileError) -> AudioClip {
        func fail(_ detail: String) -> SoundFileError { SoundFileError(path: path, reason: .malformed, detail: detail) }
        guard let sndFile = haptics_sndfile()?.pointee else {
            throw fail("not a WAV file, and libsndfile, which reads other sound formats, is not installed (Debian/Ubuntu: apt-get install libsndfile1)")
        }
        var info = SF_INFO()
        guard let file = sndFile.sf_open(path, Int32(SFM_READ), &info) else {
            let reason = sndFile.sf_strerror(nil).map { String(cString: $0) } ?? "unknown error"
            throw fail("not a sound file libsndfile reads (\(reason))")
        }
        defer { _ = sndFile.sf_close(file) }
        let channels = Int(info.channels)
        guard channels > 0, (1_000...384_000).contains(Int(info.samplerate)) else {
            throw fail("\(channels) channels at \(info.samplerate) Hz; sounds need a channel and a rate of 1000…384000 Hz")
        }
        let outputChannels = min(channels, 2)
        // Decoded floats may be larger than the file (compressed formats): the limit holds them.
        let frameLimit = byteLimit / (4 * outputChannels)
        var decoded: [Float] = []
        let block = 4096
        var buffer = [Float](repeating: 0, count: block * channels)
        var frames = 0
        while true {
            let read = Int(buffer.withUnsafeMutableBufferPointer { sndFile.sf_readf_float(file, $0.baseAddress, sf_count_t(block)) })
            if read <= 0 { break }
            frames += read
            guard frames <= frameLimit else {
                throw SoundFileError(
                    path: path, reason: .tooLarge, detail: "the decoded sound is more than the \(byteLimit >> 20) MiB limit")
            }
            for f in 0..<read {
                if channels <= 2 {
                    decoded.append(contentsOf: buffer[(f * channels)..<((f + 1) * channels)])
                } else {
                    // Odd channels to the left, even ones to the right, averaged.
                    var left: Float = 0
                    var right: Float = 0
                    for c in 0..<channels { if c % 2 == 0 { left += buffer[f * channels + c] } else { right += buffer[f * channels + c] } }
                    decoded.append(left / Float((channels + 1) / 2))
                    decoded.append(right / Float(channels / 2))
                }
            }
        }
        guard frames > 0 else { throw fail("the sound has no samples") }
        let samples = UnsafeMutableBufferPointer<Float>.allocate(capacity: decoded.count)
        for i in 0..<decoded.count {
            // Out-of-range floats are clipped; NaN and infinities are silence, as in WAV files.
            let x = decoded[i]
            samples[i] = x.isFinite ? min(max(x, -1), 1) : 0
        }
        return AudioClip(channelCount: outputChannels, sampleRate: Double(info.samplerate), frameCount: frames, samples: samples)
    }

    /// The clip at `rate` frames per second, resampled by libsoxr (high quality: no aliasing
    /// above the lower rate's Nyquist frequency) and kept for later calls; itself when it is
    /// at that rate already or libsoxr is missing (the voice then interpolates linearly).
    /// Called where a synth is made, never on an audio thread.
    package func resampled(to rate: Double) -> AudioClip {
        guard rate != sampleRate, rate > 0, frameCount > 0, let soxr = haptics_soxr()?.pointee else { return self }
        return resamplings.withLock { cache in
            if let known = cache[rate] { return known }
            let outputFrames = Int((Double(frameCount) * rate / sampleRate).rounded(.up)) + 1
            let output = UnsafeMutableBufferPointer<Float>.allocate(capacity: outputFrames * channelCount)
            output.initialize(repeating: 0)
            var used = 0
            var produced = 0
            let error = soxr.soxr_oneshot(
                sampleRate, rate, UInt32(channelCount), UnsafeRawPointer(samples.baseAddress), frameCount, &used,
                UnsafeMutableRawPointer(output.baseAddress), outputFrames, &produced, nil, nil, nil)
            guard error == nil, produced > 0 else {
                output.deallocate()
                return self
            }
            for i in 0..<(produced * channelCount) { output[i] = min(max(output[i], -1), 1) }
            let clip = AudioClip(channelCount: channelCount, sampleRate: rate, frameCount: produced, samples: output)
            cache[rate] = clip
            return clip
        }
    }
}
