import Haptics

/// A value encoded with the toolkit's version beside its own keys, so every object a
/// `--json` output prints says which `haptics` wrote it, arrays included (each element carries
/// it: the array stays an array, as scripts that iterate it expect).
struct Versioned<Value: Encodable>: Encodable {
    var value: Value

    init(_ value: Value) { self.value = value }

    private enum CodingKeys: String, CodingKey { case hapticsVersion }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(HapticsVersion.current, forKey: .hapticsVersion)
    }
}
