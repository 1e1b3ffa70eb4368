/// Limits that protect the machine from hostile or broken input. Exceeding any of them is an
/// error in every validation mode, and the error names the limit.
///
/// The defaults are far above anything a real pattern needs (the largest public AHAP files
/// are a few hundred kilobytes with a few thousand elements) and low enough that decoding
/// the worst accepted input takes well under a second.
public struct AHAPLimits: Sendable, Hashable {
    /// The largest input, in bytes, read from a file or standard input or decoded from memory.
    public var maxInputBytes: Int
    /// How deeply arrays and objects may nest. AHAP itself needs 5 levels.
    public var maxDepth: Int
    /// The most items in one JSON array or keys in one object; in practice, the most
    /// elements in `Pattern`.
    public var maxElements: Int
    /// The most JSON values (of any kind) in one input.
    public var maxValues: Int
    /// The most control points in one parameter curve. Core Haptics itself allows only
    /// ``CoreHapticsLimits/maxControlPoints`` (a warning in lenient mode).
    public var maxControlPoints: Int
    /// The longest pattern, in seconds; any single time or duration beyond it is also an error.
    public var maxDuration: Double

    /// Creates limits; every argument defaults to the value of ``default``.
    public init(
        maxInputBytes: Int = 16 << 20,
        maxDepth: Int = 64,
        maxElements: Int = 100_000,
        maxValues: Int = 1_000_000,
        maxControlPoints: Int = 1024,
        maxDuration: Double = 3600
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxValues = maxValues
        self.maxControlPoints = maxControlPoints
        self.maxDuration = maxDuration
    }

    /// 16 MiB of input, 64 levels of nesting, 100,000 elements, 1,000,000 JSON values,
    /// 1024 points per curve, one hour of pattern.
    public static let `default` = AHAPLimits()
}

/// What Core Haptics accepts, where it is stricter than this toolkit. Going beyond one of
/// these is a warning in lenient mode and an error in strict mode.
package enum CoreHapticsLimits {
    /// The most control points in one parameter curve (what Apple's samples and Lofelt/Meta's
    /// converter obey).
    package static let maxControlPoints = 16
    /// The longest continuous event, in seconds.
    package static let maxContinuousDuration: Double = 30
    /// The AHAP versions Core Haptics loads.
    package static let versions: ClosedRange<Double> = 1.0...1.1
}
