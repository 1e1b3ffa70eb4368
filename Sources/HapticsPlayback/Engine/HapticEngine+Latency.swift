extension HapticEngine.Configuration {
    /// The default output buffer: 20 ms in periods of about 6.7 ms, which plays without
    /// dropouts on a loaded machine even when the audio thread cannot get real-time priority.
    public static let standardLatency: Duration = .milliseconds(20)

    /// A low-latency output buffer: 10 ms in periods of at most 2.5 ms (on devices that allow
    /// them; others give the nearest they do), for haptics that must follow input closely.
    ///
    /// A sound plays about 10 ms sooner than with ``standardLatency``, at the price of four
    /// times as many wake-ups of the audio thread. It holds without underruns on a busy
    /// machine when the audio thread gets real-time priority (root, `CAP_SYS_NICE`, or an
    /// `rtprio` limit, as audio groups grant); the sizes the device agreed to are those of the
    /// output (``AudioOutput/periodFrames``, ``AudioOutput/bufferFrames``).
    ///
    /// ```swift
    /// let engine = HapticEngine(configuration: .init(device: "default", latency: HapticEngine.Configuration.lowLatency))
    /// ```
    public static let lowLatency: Duration = .milliseconds(10)
}
