/// How preset names are compared: case-insensitively, with `-` and `_` ignored, so
/// `levelChange`, `level-change`, `level_change` and `LEVELCHANGE` are one name.
enum PresetName {
    static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "-" && $0 != "_" })
    }
}
