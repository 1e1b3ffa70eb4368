internal import CALSA

/// The hardware and software parameters an ALSA device agreed to at open.
struct ALSAConfiguration {
    var format: ALSASampleFormat
    var periodFrames: Int
    var bufferFrames: Int

    /// Periods per buffer we ask for: two leave no slack for a late wake-up, and the pulse
    /// plugin refuses fewer than three.
    static let preferredPeriods: UInt32 = 3

    /// The longest period a short (low-latency) buffer is split into: the writer then wakes
    /// with at least three quarters of a 10 ms buffer still queued, rather than two thirds.
    static let shortBufferPeriod = 0.0025

    /// Periods per buffer for a buffer of `seconds`: three, or as many as keep periods to
    /// ``shortBufferPeriod`` for buffers of 10 ms and less. Longer buffers keep three: more
    /// periods would only cost wake-ups.
    static func periods(forBuffer seconds: Double) -> UInt32 {
        guard seconds <= 0.010 + 1e-9 else { return preferredPeriods }
        return max(preferredPeriods, UInt32((seconds / shortBufferPeriod - 1e-9).rounded(.up)))
    }

    /// Negotiates access, format, channels, rate, period and buffer, then a start threshold of
    /// one period, and leaves the device prepared.
    static func apply(
        to pcm: OpaquePointer, device: String, sampleRate: Int, channelCount: Int,
        latency: Duration, formats: [ALSASampleFormat]
    ) throws(AudioOutputError) -> ALSAConfiguration {
        func refuse(_ reason: String) -> AudioOutputError {
            .unsupportedConfiguration(device: device, reason: reason)
        }
        func check(_ code: Int32, _ what: @autoclosure () -> String) throws(AudioOutputError) {
            if code < 0 { throw refuse("\(what()): \(ALSADiagnostics.describeWithMessage(code))") }
        }

        let params = try HardwareParameters(device: device)
        let capabilities = try HardwareParameters(device: device)
        try check(snd_pcm_hw_params_any(pcm, params.pointer), "cannot read its capabilities")
        snd_pcm_hw_params_copy(capabilities.pointer, params.pointer)

        try check(
            snd_pcm_hw_params_set_access(pcm, params.pointer, SND_PCM_ACCESS_RW_INTERLEAVED),
            "does not take interleaved samples")

        guard let format = formats.first(where: { snd_pcm_hw_params_test_format(pcm, params.pointer, $0.pcmFormat) == 0 }) else {
            let wanted = formats.map(\.description).joined(separator: ", ")
            let offered = supportedFormatNames(pcm, capabilities.pointer).joined(separator: ", ")
            throw refuse("takes none of the sample formats \(wanted) (it takes \(offered.isEmpty ? "none" : offered))")
        }
        try check(snd_pcm_hw_params_set_format(pcm, params.pointer, format.pcmFormat), "refused \(format)")

        if snd_pcm_hw_params_set_channels(pcm, params.pointer, UInt32(channelCount)) < 0 {
            var low: UInt32 = 0
            var high: UInt32 = 0
            snd_pcm_hw_params_get_channels_min(capabilities.pointer, &low)
            snd_pcm_hw_params_get_channels_max(capabilities.pointer, &high)
            throw refuse("cannot play \(channelCount) channels (it takes \(range(low, high)))")
        }

        // Exact: a plugin device resamples on its own; a bare hw: device that cannot do the
        // rate must say so rather than play at the wrong speed.
        if snd_pcm_hw_params_set_rate(pcm, params.pointer, UInt32(sampleRate), 0) < 0 {
            var low: UInt32 = 0
            var high: UInt32 = 0
            var direction: Int32 = 0
            snd_pcm_hw_params_get_rate_min(capabilities.pointer, &low, &direction)
            snd_pcm_hw_params_get_rate_max(capabilities.pointer, &high, &direction)
            var reason = "cannot play at \(sampleRate) Hz (it takes \(range(low, high)) Hz)"
            if device.hasPrefix("hw:") { reason += "; 'plug\(device)' resamples" }
            throw refuse(reason)
        }

        let latencySeconds = Double(latency.components.seconds) + Double(latency.components.attoseconds) * 1e-18
        var periods = periods(forBuffer: latencySeconds)
        var direction: Int32 = 0
        // Best effort: some devices fix the period count; the buffer size below still holds.
        _ = snd_pcm_hw_params_set_periods_near(pcm, params.pointer, &periods, &direction)
        var bufferSize = snd_pcm_uframes_t(max(Double(preferredPeriods), (latencySeconds * Double(sampleRate)).rounded()))
        try check(
            snd_pcm_hw_params_set_buffer_size_near(pcm, params.pointer, &bufferSize),
            "refused a buffer of \(Int(latencySeconds * 1000)) ms")
        try check(snd_pcm_hw_params(pcm, params.pointer), "refused the configuration")

        var periodSize: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_period_size(params.pointer, &periodSize, &direction)
        snd_pcm_hw_params_get_buffer_size(params.pointer, &bufferSize)

        try startEarly(pcm, periodSize: periodSize, check: check)
        try check(snd_pcm_prepare(pcm), "cannot be prepared")
        return ALSAConfiguration(format: format, periodFrames: Int(periodSize), bufferFrames: Int(bufferSize))
    }

    /// Starts playback once one period is queued (instead of alsa-lib's default of a full
    /// buffer), and wakes the writer whenever a period of room is free.
    private static func startEarly(
        _ pcm: OpaquePointer, periodSize: snd_pcm_uframes_t,
        check: (Int32, @autoclosure () -> String) throws(AudioOutputError) -> Void
    ) throws(AudioOutputError) {
        var software: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&software), "cannot allocate software parameters")
        guard let software else { return }
        defer { snd_pcm_sw_params_free(software) }
        try check(snd_pcm_sw_params_current(pcm, software), "cannot read its software parameters")
        try check(snd_pcm_sw_params_set_start_threshold(pcm, software, periodSize), "refused the start threshold")
        try check(snd_pcm_sw_params_set_avail_min(pcm, software, periodSize), "refused the wake-up threshold")
        try check(snd_pcm_sw_params(pcm, software), "refused the software parameters")
    }

    /// The ALSA names of every format the capabilities allow.
    private static func supportedFormatNames(_ pcm: OpaquePointer, _ capabilities: OpaquePointer) -> [String] {
        (0...SND_PCM_FORMAT_LAST.rawValue).compactMap { raw in
            let format = snd_pcm_format_t(rawValue: raw)
            guard snd_pcm_hw_params_test_format(pcm, capabilities, format) == 0,
                let name = snd_pcm_format_name(format)
            else { return nil }
            return String(cString: name)
        }
    }

    private static func range(_ low: UInt32, _ high: UInt32) -> String {
        low == high ? "\(low)" : "\(low)–\(high)"
    }
}

/// An `snd_pcm_hw_params_t` that frees itself (alsa-lib's stack `alloca` macro is not
/// available to Swift).
private final class HardwareParameters {
    let pointer: OpaquePointer

    init(device: String) throws(AudioOutputError) {
        var allocated: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&allocated) >= 0, let allocated else {
            throw .unsupportedConfiguration(device: device, reason: "cannot allocate hardware parameters")
        }
        pointer = allocated
    }

    deinit { snd_pcm_hw_params_free(pointer) }
}
