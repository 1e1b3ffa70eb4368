import Foundation
import Testing

/// Every Swift example in the READMEs is a SwiftPM snippet (`Snippets/`), which `swift build`
/// compiles: an example that stops compiling fails the build, and one edited in the README
/// without its snippet fails here.
@Suite("README examples")
struct ReadmeExampleTests {
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// The ```swift blocks of a Markdown file.
    static func swiftBlocks(in file: URL) throws -> [String] {
        let text = try String(contentsOf: file, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func normalized(_ code: String) -> String {
        code.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("// snippet.") }
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("each Swift example in README.md and Patterns/README.md is a compiled snippet, word for word")
    func examplesAreSnippets() throws {
        let snippetsFolder = Self.root.appendingPathComponent("Snippets")
        let names = try FileManager.default.contentsOfDirectory(atPath: snippetsFolder.path).filter { $0.hasSuffix(".swift") }
        let snippets = try names.map { try Self.normalized(String(contentsOf: snippetsFolder.appendingPathComponent($0), encoding: .utf8)) }
        var count = 0
        for readme in ["README.md", "Patterns/README.md"] {
            for block in try Self.swiftBlocks(in: Self.root.appendingPathComponent(readme)) {
                // A fragment of the reader's own manifest cannot compile on its own.
                if block.hasPrefix("// Package.swift") { continue }
                count += 1
                let code = Self.normalized(block)
                #expect(snippets.contains(code), "\(readme): this example is not in Snippets/ as written:\n\(code.prefix(300))")
            }
        }
        #expect(count >= 1, "no Swift example found in the READMEs")
    }
}
