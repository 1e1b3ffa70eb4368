import Foundation
import PropertyBased
import Testing
import HapticsCore

@Suite("Encoding then decoding gives back the pattern")
struct AHAPRoundTripTests {
    @Test("decode(encode(p)) == p, in strict mode, without a diagnostic, for random valid patterns")
    func roundTrip() async {
        await propertyCheck(count: 300, input: PatternGenerators.pattern) { pattern in
            let data = AHAPEncoder().encode(pattern)
            do {
                let document = try AHAPDecoder(mode: .strict).decode(data)
                #expect(document.pattern == pattern)
                #expect(document.diagnostics.isEmpty)
            } catch {
                Issue.record("canonical output did not decode: \(error)\n\(String(decoding: data, as: UTF8.self))")
            }
        }
    }

    @Test("encoding is stable: encoding the decoded pattern gives the same bytes")
    func stableEncoding() async throws {
        await propertyCheck(count: 100, input: PatternGenerators.pattern) { pattern in
            let first = AHAPEncoder().encode(pattern)
            let second = AHAPEncoder().encode(try HapticPattern(ahap: first, mode: .strict))
            #expect(first == second)
        }
    }
}
