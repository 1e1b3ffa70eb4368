/// The toolkit's version: the one place it is written. `haptics --version` prints it, and the
/// CLI's JSON object outputs carry it as `hapticsVersion`.
public enum HapticsVersion {
    /// Semantic version of this release.
    public static let current = "0.4.0"
}
