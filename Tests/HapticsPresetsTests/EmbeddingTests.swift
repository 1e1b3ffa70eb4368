import Foundation
import Testing
@testable import HapticsPresets

@Suite("Embedding Patterns/ into the library")
struct EmbeddingTests {
    @Test("every pattern file is embedded byte for byte", .enabled(if: SourceTree.isPresent, "needs the source tree's Patterns/ folder"))
    func embeddedBytesEqualTheFiles() throws {
        let files = SourceTree.patternFiles
        #expect(!files.isEmpty)
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            let embedded = try #require(PresetLibrary.source(named: name), "Patterns/\(name).ahap is not embedded; rebuild")
            #expect(Data(embedded.utf8) == (try Data(contentsOf: file)), "Patterns/\(name).ahap differs from its embedded copy; rebuild")
        }
    }

    @Test("nothing is embedded that is not in Patterns/", .enabled(if: SourceTree.isPresent, "needs the source tree's Patterns/ folder"))
    func noStaleEmbeddedPatterns() {
        let onDisk = Set(SourceTree.patternFiles.map { $0.deletingPathExtension().lastPathComponent })
        #expect(Set(embeddedPatterns.map(\.name)) == onDisk)
    }

    @Test("each preset's meaning is the first sentence of its description")
    func meaningIsTheFirstSentence() {
        for info in PresetLibrary.all {
            #expect(info.description.hasPrefix(info.meaning + ". ") || info.description == info.meaning + ".", "\(info.name)")
            #expect(!info.meaning.contains("\n") && info.meaning.count <= 80, "\(info.name)")
        }
    }
}
