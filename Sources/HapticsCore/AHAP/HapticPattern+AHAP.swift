import FoundationEssentials

extension HapticPattern {
    /// Decodes a pattern from AHAP JSON, discarding warnings; see ``AHAPDecoder`` to see them.
    ///
    /// - Throws: ``AHAPError`` when the JSON is not a valid pattern in `mode`.
    public init(ahap data: Data, mode: ValidationMode = .lenient) throws(AHAPError) {
        self = try AHAPDecoder(mode: mode).decode(data).pattern
    }

    /// Decodes a pattern from an AHAP file, discarding warnings; see ``AHAPDecoder`` to see them.
    ///
    /// - Throws: ``AHAPError`` when the file cannot be read or is not a valid pattern in `mode`.
    public init(contentsOf url: URL, mode: ValidationMode = .lenient) throws(AHAPError) {
        self = try AHAPDecoder(mode: mode).decode(contentsOf: url).pattern
    }

    /// The pattern as canonical AHAP JSON; see ``AHAPEncoder``.
    public var ahapData: Data { AHAPEncoder().encode(self) }
}
