import Foundation

// embed-patterns OUTPUT.swift PATTERNS-FOLDER
//
// Writes a Swift file holding every PATTERNS-FOLDER/*.ahap file's name, library metadata and exact text, for
// the HapticsPresets target. Run by the EmbedPatterns build-tool plugin.
//
// The AHAP content itself is checked by the library's tests with the real decoder; this tool
// checks only what the library needs to list a preset (a usable name, a Description whose first
// sentence is the one-line meaning, a Category, optional Aliases) so that a badly authored file
// fails the build with a message naming it, instead of failing later at run time.

/// A failure to report as `file: problem`, the way compilers do, so the build log points at it.
struct EmbedError: Error, CustomStringConvertible {
    var file: String
    var problem: String
    var description: String { "\(file): error: \(problem)" }
}

/// What the library needs to know about one pattern file.
struct Preset {
    var name: String
    var category: String
    var description: String
    var meaning: String
    var aliases: [String]
    var json: String
}

/// The longest one-line meaning `haptics list` shows without wrapping.
let longestMeaning = 80

func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
    return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
}

/// The form names are compared in: case-insensitive, with `-` and `_` ignored.
func lookupKey(_ name: String) -> String {
    String(name.lowercased().filter { $0 != "-" && $0 != "_" })
}

/// The first sentence of a description, without its final period.
func firstSentence(of text: String) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let sentence = trimmed.range(of: ". ").map { String(trimmed[..<$0.lowerBound]) } ?? trimmed
    return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
}

func readPreset(at path: String) throws(EmbedError) -> Preset {
    let url = URL(fileURLWithPath: path)
    let fail = { (problem: String) in EmbedError(file: path, problem: problem) }
    let name = url.deletingPathExtension().lastPathComponent
    guard isIdentifier(name) else {
        throw fail("the file name '\(name)' is not a preset name (letters and digits, starting with a letter)")
    }
    guard let bytes = FileManager.default.contents(atPath: path) else { throw fail("cannot read the file") }
    guard !bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { throw fail("starts with a byte-order mark; save it as plain UTF-8") }
    guard let json = String(data: bytes, encoding: .utf8) else { throw fail("is not UTF-8 text") }

    let root: Any
    do {
        root = try JSONSerialization.jsonObject(with: bytes)
    } catch {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
        throw fail("not valid JSON: \(withLineAndColumn(detail, in: bytes))")
    }
    guard let object = root as? [String: Any] else { throw fail("expected a JSON object at the top level") }
    guard let metadata = object["Metadata"] as? [String: Any] else {
        throw fail("Metadata: missing; a preset needs Project, Description and Category")
    }
    guard metadata["Project"] as? String == "haptics" else { throw fail("Metadata.Project: must be \"haptics\"") }
    guard let description = metadata["Description"] as? String, !description.isEmpty else {
        throw fail("Metadata.Description: missing; its first sentence is the preset's one-line meaning")
    }
    let meaning = firstSentence(of: description)
    guard meaning.count <= longestMeaning, !meaning.contains("\n") else {
        throw fail("Metadata.Description: the first sentence is the one-line meaning and must fit in \(longestMeaning) characters (it has \(meaning.count))")
    }
    guard let category = metadata["Category"] as? String, isIdentifier(category) else {
        throw fail("Metadata.Category: missing or not a category name (notification, impact, selection, change, activity)")
    }
    var aliases: [String] = []
    if let value = metadata["Aliases"] {
        guard let list = value as? String else { throw fail("Metadata.Aliases: expected a string of comma-separated names") }
        aliases = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let bad = aliases.first(where: { !isIdentifier($0) }) {
            throw fail("Metadata.Aliases: '\(bad)' is not a preset name (letters and digits, starting with a letter)")
        }
    }
    return Preset(name: name, category: category, description: description, meaning: meaning, aliases: aliases, json: json)
}

/// Foundation reports "… around character N."; editors want a line and column.
func withLineAndColumn(_ detail: String, in bytes: Data) -> String {
    guard let range = detail.range(of: #"around character \d+"#, options: .regularExpression),
        let offset = Int(detail[range].split(separator: " ").last ?? "")
    else { return detail }
    var line = 1
    var column = 1
    for byte in bytes.prefix(offset) {
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }
    return detail.replacingCharacters(in: range, with: "at line \(line), column \(column)")
}

/// Every name and alias must pick one preset, whatever its case or separators.
func checkNamesAreUnique(_ presets: [Preset], paths: [String]) throws(EmbedError) {
    var owner: [String: String] = [:]
    for (preset, path) in zip(presets, paths) {
        for name in [preset.name] + preset.aliases {
            let key = lookupKey(name)
            if let other = owner[key] {
                throw EmbedError(file: path, problem: "the name '\(name)' is already taken by '\(other)'")
            }
            owner[key] = preset.name
        }
    }
}

/// A Swift string literal with exactly the text's characters.
func swiftLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            literal += "\\u{\(String(scalar.value, radix: 16))}"
        default: literal.unicodeScalars.append(scalar)
        }
    }
    return literal + "\""
}

func generate(_ presets: [Preset]) -> String {
    var source = """
        // Generated by embed-patterns from Patterns/*.ahap. Edit those files, not this one.

        let embeddedPatterns: [EmbeddedPattern] = [

        """
    for preset in presets {
        source += """
                EmbeddedPattern(
                    name: \(swiftLiteral(preset.name)),
                    category: .\(preset.category),
                    meaning: \(swiftLiteral(preset.meaning)),
                    description: \(swiftLiteral(preset.description)),
                    aliases: [\(preset.aliases.map(swiftLiteral).joined(separator: ", "))],
                    json: \(swiftLiteral(preset.json))
                ),

            """
    }
    return source + "]\n"
}

/// The `.ahap` files of a folder, sorted by name so the output does not depend on the
/// file system's order.
func patternFiles(in folder: String) throws(EmbedError) -> [String] {
    do {
        return try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".ahap") }
            .sorted()
            .map { folder + "/" + $0 }
    } catch {
        throw EmbedError(file: folder, problem: "cannot list the folder: \(error.localizedDescription)")
    }
}

func run(_ arguments: [String]) throws(EmbedError) {
    guard arguments.count == 2 else {
        throw EmbedError(file: "embed-patterns", problem: "usage: embed-patterns OUTPUT.swift PATTERNS-FOLDER")
    }
    let output = arguments[0]
    let paths = try patternFiles(in: arguments[1])
    var presets: [Preset] = []
    for path in paths { presets.append(try readPreset(at: path)) }
    try checkNamesAreUnique(presets, paths: paths)
    do {
        try Data(generate(presets).utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
        throw EmbedError(file: output, problem: "cannot write: \(error.localizedDescription)")
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
