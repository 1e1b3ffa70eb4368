/// A location inside a JSON document, written as diagnostics show it:
/// `Pattern[3].Event.EventParameters[1].ParameterValue`.
enum JSONPath {
    /// One step into a container.
    enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    /// Paths deeper than this are shortened in the middle: only hostile input nests so deep
    /// (AHAP needs six steps), and a location should stay readable on one line.
    static let maxRenderedComponents = 12

    /// The text form of a path; empty for the top level.
    static func render(_ components: [Component]) -> String {
        guard components.count <= maxRenderedComponents else {
            let head = render(Array(components.prefix(6)))
            let tail = render(Array(components.suffix(4)))
            let omitted = components.count - 10
            return head + "…(\(omitted) more levels)…" + (tail.hasPrefix("[") ? tail : "." + tail)
        }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += JSONText.display(key)
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// `base.key`, or `key` at the top level.
    static func appending(_ key: String, to base: String) -> String {
        let shown = JSONText.display(key)
        return base.isEmpty ? shown : base + "." + shown
    }
}
