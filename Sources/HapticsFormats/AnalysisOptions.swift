/// The settings of ``AudioAnalyzer``, each with its default; `haptics analyze` has an option
/// for every one.
public struct AnalysisOptions: Sendable, Hashable {
    /// Seconds between analysis frames (`--hop-ms`, default 5 ms): the time resolution of the
    /// curves and of onsets.
    public var hop = 0.005
    /// FFT window length in seconds, rounded up to a power of two samples (`--window-ms`,
    /// default 20 ms: 1024 samples at 48 kHz). Longer windows resolve the spectrum better and
    /// smear onsets more.
    public var window = 0.02

    /// The amplitude follower's attack time constant (`--attack-ms`, default 5 ms).
    public var attack = 0.005
    /// The amplitude follower's release time constant (`--release-ms`, default 80 ms).
    public var release = 0.08
    /// Levels this far below the loudest frame are silent (`--gate-db`, default −50 dB).
    public var gateDecibels = -50.0

    /// The spectral centroid that maps to sharpness 0 (`--centroid-low`, default 150 Hz) …
    public var centroidLow = 150.0
    /// … and the one that maps to sharpness 1 (`--centroid-high`, default 6000 Hz); between
    /// them sharpness follows the centroid's logarithm, so each octave counts the same. The
    /// actuator profile then maps sharpness into its own band (`f = fMin + s·(fMax − fMin)`).
    public var centroidHigh = 6000.0
    /// Time constant smoothing the sharpness curve (`--sharpness-smoothing-ms`, default 20 ms).
    public var sharpnessSmoothing = 0.02

    /// Whether onsets become transients (`--no-transients` turns it off).
    public var transients = true
    /// Onsets are peaks of the novelty (spectral flux, each bin's rise divided by its running
    /// mean power) above median + k·MAD of the novelty around them; this is k (`--onset-k`,
    /// default 6; lower finds softer hits and more false ones).
    public var onsetK = 6.0
    /// The span of that median and MAD, centred on the frame (`--onset-window-ms`, default 300 ms).
    public var onsetWindow = 0.3
    /// An onset's sound must also reach this fraction of the loudest level (RMS over 5 ms;
    /// `--onset-floor`, default 0.03, −30 dB), so faint rustles under a loud sound are not taps.
    public var onsetFloor = 0.03
    /// Two onsets are at least this far apart (`--min-onset-gap-ms`, default 40 ms).
    public var minimumOnsetGap = 0.04

    /// How much the continuous layer is lowered under a transient (`--duck`, default 0.5:
    /// half the intensity), so taps stand out as they do in Meta's converter …
    public var duckDepth = 0.5
    /// … and for how long after the onset (`--duck-ms`, default 50 ms), with 5 ms ramps.
    public var duckDuration = 0.05

    /// Curve points per second of sound kept by the simplification (`--points-per-second`,
    /// default 20); the sharpness curve gets half.
    public var pointsPerSecond = 20.0
    /// Whether the continuous layer is written at all (`--no-continuous` leaves only taps).
    public var continuous = true

    public init() {}

    /// The first setting out of range, described, or nil.
    public var problem: String? {
        if !(hop >= 0.001 && hop <= 0.1) { return "the hop must be 1…100 ms" }
        if !(window >= 0.002 && window <= 0.5) { return "the window must be 2…500 ms" }
        if !(attack > 0 && release > 0) { return "attack and release must be above 0" }
        if !(centroidLow > 0 && centroidHigh > centroidLow) { return "the centroid range must be 0 < low < high" }
        if !(onsetK >= 0 && onsetWindow > 0 && onsetFloor >= 0 && onsetFloor <= 1 && minimumOnsetGap >= 0) { return "onset settings out of range" }
        if !(duckDepth >= 0 && duckDepth <= 1 && duckDuration >= 0) { return "--duck must be 0…1 and --duck-ms ≥ 0" }
        if !(pointsPerSecond >= 1 && pointsPerSecond <= 1000) { return "--points-per-second must be 1…1000" }
        return nil
    }
}
