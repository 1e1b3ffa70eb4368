import FoundationEssentials

// The other spelling of a file for the loaders that take one: a profile read from a path
// `String`, a WAV clip loaded from a `URL`.

extension ActuatorProfile {
    /// Reads a profile file at a path (see ``init(contentsOf:)``).
    public init(contentsOfFile path: String) throws(ProfileError) {
        try self.init(contentsOf: URL(fileURLWithPath: path))
    }
}

extension AudioClip {
    /// Reads a WAV file at a URL (see ``load(path:byteLimit:)``).
    public static func load(url: URL, byteLimit: Int = defaultByteLimit) throws(SoundFileError) -> AudioClip {
        try load(path: url.path, byteLimit: byteLimit)
    }
}
