import FoundationEssentials

extension AHAPDecoder {
    /// Decodes the AHAP file at a path (see ``decode(contentsOf:)``): paths are accepted as
    /// `URL` and as `String` wherever the toolkit reads or writes a file.
    public func decode(contentsOfFile path: String) throws(AHAPError) -> AHAPDocument {
        try decode(contentsOf: URL(fileURLWithPath: path))
    }
}
