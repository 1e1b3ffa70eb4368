import Foundation
import HapticsTestSupport
import Testing

/// `haptics list`: the preset library as the README documents it, and the aliases it resolves.
@Suite("haptics list")
struct ListCommandTests {
    /// A row of the README's preset table: a name, its category and its aliases.
    struct DocumentedPreset: CustomStringConvertible {
        var name: String
        var category: String
        var aliases: [String]
        var description: String { "\(name) (\(category))" }
    }

    /// The README's preset table, read from the package's README.md.
    static let documented: [DocumentedPreset] = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        guard let readme = try? String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8) else { return [] }
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(of: "| category | presets (aliases) |") else { return [] }
        var presets: [DocumentedPreset] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2 else { break }
            // "`error` (`failure`), `retry`": names in backticks; those in parentheses are
            // aliases of the name before them.
            var insideParentheses = false
            var pending = ""
            var inName = false
            for character in cells[1] {
                switch character {
                case "`" where inName:
                    if insideParentheses, !presets.isEmpty {
                        presets[presets.count - 1].aliases.append(pending)
                    } else {
                        presets.append(DocumentedPreset(name: pending, category: cells[0], aliases: []))
                    }
                    inName = false
                case "`":
                    pending = ""
                    inName = true
                case "(" where !inName: insideParentheses = true
                case ")" where !inName: insideParentheses = false
                default:
                    if inName { pending.append(character) }
                }
            }
        }
        return presets
    }()

    /// `list --json`, by name.
    func listed() async throws -> [String: [String: Any]] {
        let result = try await HapticsProcess.run(["list", "--json"], timeout: .seconds(30))
        #expect(result.status == 0)
        let array = try #require((try jsonObject(result.stdout) as? [String: Any])?["presets"] as? [[String: Any]])
        return Dictionary(array.compactMap { entry in (entry["name"] as? String).map { ($0, entry) } }, uniquingKeysWith: { first, _ in first })
    }

    @Test("the README's preset table was read: five categories, the presets and aliases it shows")
    func readmeTable() {
        #expect(Set(Self.documented.map(\.category)) == ["notification", "impact", "selection", "change", "activity"])
        #expect(Self.documented.count == 24)
        let error = Self.documented.first { $0.name == "error" }
        #expect(error?.aliases == ["failure"])
        #expect(Self.documented.first { $0.name == "impact" }?.aliases == ["medium", "solid"])
    }

    @Test("list --json has every preset of the README's table, with its category and aliases")
    func jsonMatchesReadme() async throws {
        let listed = try await listed()
        for preset in Self.documented {
            let entry = try #require(listed[preset.name], "\(preset) is missing from list --json")
            #expect(entry["category"] as? String == preset.category, "\(preset)")
            #expect(entry["aliases"] as? [String] == preset.aliases, "\(preset)")
            #expect((entry["meaning"] as? String)?.isEmpty == false, "\(preset)")
            #expect((entry["description"] as? String)?.isEmpty == false, "\(preset)")
        }
    }

    @Test("list prints a row for every preset of the README's table: name, category, aliases")
    func tableMatchesReadme() async throws {
        let result = try await HapticsProcess.run(["list"], timeout: .seconds(30))
        #expect(result.status == 0)
        #expect(result.outputLines.first?.hasPrefix("NAME") == true)
        for preset in Self.documented {
            let row = result.outputLines.first { $0.split(separator: " ").first.map(String.init) == preset.name }
            let cells = row?.split(separator: " ", omittingEmptySubsequences: true).map(String.init) ?? []
            #expect(cells.dropFirst().first == preset.category, "\(preset): \(row ?? "no row")")
            if !preset.aliases.isEmpty {
                #expect(row?.contains(preset.aliases.joined(separator: ", ")) == true, "\(preset): \(row ?? "no row")")
            }
        }
    }

    static let aliases: [(alias: String, name: String)] =
        documented.flatMap { preset in preset.aliases.map { ($0, preset.name) } }
        + [("level-change", "levelChange"), ("TOGGLE_ON", "toggleOn")]

    @Test("an alias exports exactly the preset it names, metadata included", arguments: aliases)
    func aliasResolves(alias: String, name: String) async throws {
        let byAlias = try await HapticsProcess.run(["export", alias], timeout: .seconds(30))
        let byName = try await HapticsProcess.run(["export", name], timeout: .seconds(30))
        #expect(byAlias.status == 0 && byName.status == 0, "\(byAlias.errorOutput)")
        #expect(byName.output.contains("\"Pattern\""))
        #expect(byAlias.stdout == byName.stdout)
    }

    @Test("an unknown preset name exits 1 with one line")
    func unknownName() async throws {
        let result = try await HapticsProcess.run(["export", "no-such-preset"], timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.errorLines == ["haptics: no-such-preset: no such file or preset (see `haptics list`)"])
    }
}
