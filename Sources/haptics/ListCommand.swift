import FoundationEssentials
import Haptics

/// `haptics list`: the preset library, one preset a line, or as JSON for scripts.
struct ListCommand: Command {
    static let name = "list"
    static let spec = CommandSpec(
        name: name,
        abstract: "List the presets, what each means, and the other names each answers to.",
        discussion: """
            Every preset takes --intensity 0…1; impact also takes --weight light|medium|heavy or \
            --flexibility rigid|solid|soft. Names ignore case, - and _ (level-change).

            Examples:
              haptics list
              haptics list --json | jq -r '.presets[].name'
            """,
        arguments: [
            .flag("json", help: "Print one JSON object: {hapticsVersion, presets: [{name, category, meaning, aliases, description}]}.")
        ]
    )

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.flag("json")
    }

    func run() throws {
        if json {
            struct Listing: Encodable { var presets: [PresetInfo] }
            try JSONDocument.print(Listing(presets: PresetLibrary.all))
            return
        }
        writeStandardOutput(table(PresetLibrary.all))
    }

    /// Aligned columns; the meaning comes last because it is the long one.
    private func table(_ presets: [PresetInfo]) -> String {
        let rows =
            [["NAME", "CATEGORY", "ALIASES", "MEANING"]]
            + presets.map {
                [$0.name, $0.category.rawValue, $0.aliases.joined(separator: ", "), $0.meaning]
            }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            var line = ""
            for column in 0..<3 {
                line += row[column].padded(to: widths[column] + 2)
            }
            text += line + row[3] + "\n"
        }
        return text + """

            Every preset takes --intensity 0…1; impact also takes --weight light|medium|heavy
            or --flexibility rigid|solid|soft. Descriptions: haptics list --json.

            """
    }
}
