import Foundation
import PropertyBased
import Testing
import HapticsCore

@Suite("Damaged input never crashes the decoder")
struct MalformedInputTests {
    /// A canonical pattern with some bytes deleted, inserted or replaced.
    static let damagedText = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in
        var random = rng
        defer { rng = random }
        let pattern = PatternGenerators.pattern.run(using: &random)
        var bytes = Array(AHAPEncoder().encode(pattern))
        let alphabet = Array("{}[]\",:0123456789.-eE \\tnfu".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        for _ in 0..<Int.random(in: 1...8, using: &random) where !bytes.isEmpty {
            let position = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0...3, using: &random) {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: position)
            case 2: bytes[position] = alphabet.randomElement(using: &random) ?? 0
            default: bytes.removeSubrange(position...)
            }
        }
        return bytes
    }

    @Test("every damaged file either decodes or fails with located, one-line errors", .timeLimit(.minutes(2)))
    func damagedFiles() async {
        await propertyCheck(count: 2000, input: Self.damagedText) { bytes in
            for mode in ValidationMode.allCases {
                do throws(AHAPError) {
                    let document = try AHAPDecoder(mode: mode).decode(Data(bytes), source: "fuzz.ahap")
                    #expect(!document.pattern.isEmpty)
                    #expect(document.diagnostics.allSatisfy { $0.severity == .warning && !$0.description.contains(where: \.isNewline) })
                } catch {
                    #expect(!error.diagnostics.isEmpty)
                    #expect(error.diagnostics.first?.severity == .error)
                    #expect(error.diagnostics.allSatisfy { !$0.message.isEmpty && !$0.description.contains(where: \.isNewline) })
                    #expect(error.description.hasPrefix("fuzz.ahap:"))
                }
            }
        }
    }

    @Test("random bytes are rejected with one error")
    func randomBytes() async {
        await propertyCheck(count: 500, input: Gen<UInt8>.value(in: 0...255).array(of: 0...64)) { bytes in
            do throws(AHAPError) {
                _ = try AHAPDecoder().decode(Data(bytes))
                Issue.record("random bytes decoded as a pattern: \(bytes)")
            } catch {
                #expect(error.errors.count == 1)
            }
        }
    }
}
