internal import CALSA
import Glibc
import Synchronization

/// An ALSA playback device driven with explicit hardware and software parameters.
///
/// Any ALSA PCM name works: `default`, `hw:CARD=…,DEV=…`, `plughw:…`, `pulse`, `null`, or the
/// file plugin `file:'/tmp/out.wav',wav` (which writes what is played to a file). `null` and
/// `file:` are not paced in real time: writes return as fast as they are made.
///
/// Opening negotiates, in this order: interleaved read/write access; the first format of
/// `formats` the device accepts (Float32 is sent untouched, 16-bit is converted into a
/// preallocated buffer, see ``ALSASampleConversion/s16(_:)``); the channel count and rate,
/// exactly (plugin devices such as `plughw:`, `default` and `pulse` convert and resample;
/// a bare `hw:` device that cannot do them is an error); about three periods making up a
/// buffer of about `latency`. Playback starts as soon as one period is queued, so the first
/// write is heard within milliseconds instead of after a full buffer.
///
/// See ``AudioOutput`` for which thread may call what.
package final class ALSAOutput: AudioOutput, @unchecked Sendable {
    /// The ALSA PCM name this output was opened with.
    package let device: String
    /// Frames per second the device runs at.
    package let sampleRate: Int
    /// Samples per frame.
    package let channelCount: Int
    /// Frames per period, as negotiated.
    package let periodFrames: Int
    /// Frames the device buffers, as negotiated.
    package let bufferFrames: Int
    /// The sample format the device accepted, for information.
    package let negotiatedFormat: ALSASampleFormat
    /// False for alsa-lib's `null` and `file` plugins, which take samples as fast as they come.
    package let isPaced: Bool

    /// Underruns, suspends and lost states recovered from since opening (for diagnostics).
    package var recoveryCount: Int { recoveries.load(ordering: .relaxed) }

    // @unchecked Sendable: the handle and the audio-thread state below are touched by the one
    // audio thread (write, pendingFrames, drain); stop() from other threads goes through
    // alsa-lib's own per-PCM locking and the atomics; close() must not overlap a write.
    private let handle: OpaquePointer
    private let closed = Atomic<Bool>(false)
    private let recoveries = Atomic<Int>(0)
    /// Bumped by every stop(), so a write in progress can tell that it was cut short.
    private let stops = Atomic<Int>(0)

    // Audio-thread state, preallocated at open.
    private let frameBytes: Int
    private let scratchFrames: Int
    private let floatScratch: UnsafeMutablePointer<Float>
    private let s16Scratch: UnsafeMutablePointer<Int16>?
    private var fade: ALSAFadeIn
    private var stopsSeen = 0

    /// Opens `device` for playback.
    ///
    /// - Parameters:
    ///   - device: an ALSA PCM name (see the type's documentation).
    ///   - sampleRate: frames per second; must be exact unless the device resamples.
    ///   - channelCount: interleaved channels per frame.
    ///   - latency: the buffer length to aim for; periods are about a third of it.
    ///   - formats: the sample formats to try, in order of preference.
    /// - Throws: ``AudioOutputError/deviceUnavailable(device:reason:)`` when the device is
    ///   missing, busy or refuses to open (a busy device fails at once rather than blocking);
    ///   ``AudioOutputError/unsupportedConfiguration(device:reason:)`` when it cannot play the
    ///   requested rate, channels or formats.
    package init(
        device: String = "default",
        sampleRate: Int,
        channelCount: Int,
        latency: Duration = .milliseconds(20),
        formats: [ALSASampleFormat] = [.float32, .s16]
    ) throws(AudioOutputError) {
        func unsupported(_ reason: String) -> AudioOutputError {
            .unsupportedConfiguration(device: device, reason: reason)
        }
        guard (1...1_000_000).contains(sampleRate) else { throw unsupported("sample rate \(sampleRate) Hz is out of range") }
        guard (1...1024).contains(channelCount) else { throw unsupported("channel count \(channelCount) is out of range") }
        guard latency > .zero else { throw unsupported("latency must be positive") }
        guard !formats.isEmpty else { throw unsupported("no sample format to try") }

        ALSADiagnostics.begin()
        let threadsBefore = ALSAPluginThreads.current()
        var opened: OpaquePointer?
        // Non-blocking first: a device held by another program then fails with EBUSY at once
        // instead of waiting for it to be released.
        let openResult = snd_pcm_open(&opened, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard openResult >= 0, let pcm = opened else {
            throw .deviceUnavailable(device: device, reason: ALSAOpenFailure.describe(device: device, code: openResult))
        }
        let configuration: ALSAConfiguration
        do throws(AudioOutputError) {
            guard snd_pcm_nonblock(pcm, 0) >= 0 else {
                throw .deviceUnavailable(device: device, reason: "cannot switch to blocking mode: \(ALSADiagnostics.describeWithMessage(-EINVAL))")
            }
            configuration = try ALSAConfiguration.apply(
                to: pcm, device: device, sampleRate: sampleRate, channelCount: channelCount,
                latency: latency, formats: formats
            )
        } catch {
            snd_pcm_close(pcm)
            throw error
        }

        self.device = device
        self.handle = pcm
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.periodFrames = configuration.periodFrames
        self.bufferFrames = configuration.bufferFrames
        self.negotiatedFormat = configuration.format
        let type = snd_pcm_type(pcm)
        self.isPaced = type != SND_PCM_TYPE_NULL && type != SND_PCM_TYPE_FILE
        if isPaced { ALSAPluginThreads.raise(startedSince: threadsBefore) }
        self.frameBytes = configuration.format.bytesPerSample * channelCount
        self.scratchFrames = max(1, configuration.periodFrames)
        self.floatScratch = .allocate(capacity: scratchFrames * channelCount)
        self.s16Scratch = configuration.format == .s16 ? .allocate(capacity: scratchFrames * channelCount) : nil
        self.fade = ALSAFadeIn(length: (sampleRate + 999) / 1000)
    }

    /// Frames over which the signal fades in after a recovery: 1 ms, rounded up.
    var fadeInFrames: Int { fade.length }

    deinit {
        close()
        floatScratch.deallocate()
        s16Scratch?.deallocate()
    }

    // MARK: Audio thread

    package func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioOutputError) {
        guard !closed.load(ordering: .acquiring) else {
            throw .deviceLost(device: device, reason: "the device was closed")
        }
        guard let base = samples.baseAddress else { return }
        ALSADiagnostics.forgetMessage()
        let stopsAtStart = stops.load(ordering: .acquiring)
        if stopsAtStart != stopsSeen {
            // stop() only dropped the queue; preparing belongs to this thread, because some
            // plugins (pulse) rebuild their stream in prepare and must not do that under a
            // writer. Whatever the signal is now, it fades in rather than jumping.
            stopsSeen = stopsAtStart
            snd_pcm_prepare(handle)
            fade.arm()
        }
        let totalFrames = samples.count / channelCount
        var done = 0
        while done < totalFrames {
            let frames = min(totalFrames - done, scratchFrames)
            switch try writeChunk(base + done * channelCount, frames: frames, stopsAtStart: stopsAtStart) {
            case .complete:
                done += frames
            case .recovered(let written):
                // The rest of this chunk is converted again, faded in from silence.
                done += written
                fade.arm()
            case .stopped:
                return
            }
        }
    }

    package func pendingFrames() -> Int {
        guard !closed.load(ordering: .acquiring) else { return 0 }
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(handle, &delay) >= 0 else { return 0 }
        return max(0, Int(delay))
    }

    package func queuedFrames() -> Int {
        guard !closed.load(ordering: .acquiring) else { return 0 }
        let available = snd_pcm_avail(handle)
        // An underrun (negative) leaves nothing queued; the next write recovers.
        guard available >= 0 else { return 0 }
        return max(0, bufferFrames - Int(available))
    }

    package func drain() {
        guard !closed.load(ordering: .acquiring) else { return }
        // Waits for what the device holds to be heard, then drops the (silent) rest, rather
        // than `snd_pcm_drain`: through a sound server that also waits out the server's own
        // stream buffer, tens of milliseconds more, and blocks for good on a frozen server.
        // The wait is bounded by the buffer, so a device that reports nonsense cannot hold it.
        var delay: snd_pcm_sframes_t = 0
        if isPaced, snd_pcm_delay(handle, &delay) >= 0, delay > 0 {
            sleepWhilePlaying(frames: min(Int(delay), bufferFrames), sampleRate: sampleRate)
            snd_pcm_drop(handle)
        } else {
            snd_pcm_drain(handle)
        }
        snd_pcm_prepare(handle)
    }

    // MARK: Any thread

    package func stop() {
        guard !closed.load(ordering: .acquiring) else { return }
        stops.add(1, ordering: .releasing)
        // Wakes a blocked write (its stream leaves the running state); the next write prepares.
        snd_pcm_drop(handle)
    }

    package func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        snd_pcm_close(handle)
        if !isPaced { ALSAFileHeader.correctAfterClose(device: device, format: negotiatedFormat) }
    }

    // MARK: Writing

    private enum ChunkOutcome {
        case complete
        /// The device lost its queue (underrun, suspend) after this many frames were written.
        case recovered(written: Int)
        /// stop() was called meanwhile: the rest of the write is discarded.
        case stopped
    }

    /// Writes one chunk of at most `scratchFrames` frames, looping over partial writes.
    private func writeChunk(_ source: UnsafePointer<Float>, frames: Int, stopsAtStart: Int) throws(AudioOutputError) -> ChunkOutcome {
        let bytes: UnsafeRawPointer
        if let s16Scratch {
            ALSASampleConversion.convertToS16(source, frames: frames, channels: channelCount, into: s16Scratch, fade: &fade)
            bytes = UnsafeRawPointer(s16Scratch)
        } else if fade.isActive {
            ALSASampleConversion.copy(source, frames: frames, channels: channelCount, into: floatScratch, fade: &fade)
            bytes = UnsafeRawPointer(floatScratch)
        } else {
            bytes = UnsafeRawPointer(source)
        }

        var written = 0
        while written < frames {
            let result = snd_pcm_writei(handle, bytes + written * frameBytes, snd_pcm_uframes_t(frames - written))
            if result > 0 {
                written += Int(result)
                if written < frames, stops.load(ordering: .acquiring) != stopsAtStart { return .stopped }
                continue
            }
            if stops.load(ordering: .acquiring) != stopsAtStart { return .stopped }
            let code = Int32(truncatingIfNeeded: result)
            switch code {
            case 0, -EAGAIN:
                // Blocking mode should not get here; wait for room rather than spin.
                snd_pcm_wait(handle, 100)
            case -EINTR:
                continue
            default:
                if snd_pcm_recover(handle, code, 1) >= 0 {
                    recoveries.add(1, ordering: .relaxed)
                    return .recovered(written: written)
                }
                // A stream left in the setup state (e.g. by a drop racing us) can be prepared
                // again; a disconnected device cannot, and that failure is what we report.
                if code == -EBADFD, snd_pcm_state(handle) != SND_PCM_STATE_DISCONNECTED, snd_pcm_prepare(handle) >= 0 {
                    recoveries.add(1, ordering: .relaxed)
                    return .recovered(written: written)
                }
                throw .deviceLost(device: device, reason: Self.describeLoss(code))
            }
        }
        return .complete
    }

    // MARK: Messages

    /// Runs on the audio thread, but only once, as it gives up: allocating is fine there.
    private static func describeLoss(_ code: Int32) -> String {
        let text = ALSADiagnostics.describeWithMessage(code)
        switch -code {
        case ENODEV, EBADFD:
            return "\(text) (was it unplugged?)"
        default:
            return text
        }
    }
}
