import Foundation
import HapticsCore
import HapticsFormats
import HapticsTestSupport
import Testing

/// AHAP → other format → AHAP on every public AHAP file, compared by rendering both.
///
/// The measure is the correlation of the drive signals' **amplitude envelopes** (peak |x| in
/// 10 ms windows, longer than half a period at the lowest frequency, 60 Hz), not of raw samples: both formats rebuild the continuous part as one continuous
/// event from the start of the layer (Meta's rule) whose sine starts at a different phase than
/// the original events', and Android primitives quantise a tap's sharpness, i.e. its carrier
/// frequency. Raw samples then disagree in phase while the vibration felt (its strength over
/// time) is the same; the envelope is what these formats promise to keep. Raw correlation is
/// printed too.
///
/// Files that cannot reach 0.95, by the formats' limits (each still has a floor, so a
/// regression shows):
/// - both Oscillate files: two continuous events sound together at different sharpness and
///   beat against each other (that is the effect). `.haptic` and Android envelopes have one
///   continuous layer with one frequency at a time, so the beating cannot be written.
/// - Texture, Android only: 101 taps at sharpness 0 and 0.2. Android's Composition primitives
///   have no sharpness parameter; four primitives stand for four sharpness ranges, and 0.2
///   reads back as THUD (0), whose carrier is lower and whose tap longer.
@Suite("Round trips through other formats", .enabled(if: Corpus.isAvailable, Corpus.absentMessage))
struct RoundTripTests {
    /// Known format limits: file → the floor it must still reach.
    static let hapticLimits: [String: Double] = [
        "nthState__Haptrix__Samples__Oscillate.ahap": 0.25,
        "apple__unityplugins__Effects__Oscillate.ahap": 0.8,
    ]
    static let androidLimits = hapticLimits.merging(["apple__unityplugins__HapticPatterns__Texture.ahap": 0.85]) { a, _ in a }

    static func patterns() -> [(String, HapticPattern)] {
        Corpus.files.compactMap { url in
            guard let document = try? AHAPDecoder().decode(contentsOf: url) else { return nil }
            guard document.pattern.events.contains(where: { $0.kind.isHaptic }) else { return nil }
            return (url.lastPathComponent, document.pattern)
        }
    }

    @Test("AHAP → .haptic → AHAP keeps the drive envelope (≥ 0.95)")
    func haptic() throws {
        let files = Self.patterns()
        #expect(files.count > 30)
        for (name, pattern) in files {
            var notes = ConversionNotes()
            let data = LofeltHaptic.encode(pattern, notes: &notes)
            let back = try LofeltHaptic.pattern(from: data, notes: &notes)
            let (envelope, raw) = Measure.similarity(pattern, back)
            print(String(format: "haptic  %.3f env  %.3f raw  %@", envelope, raw, name))
            #expect(envelope >= Self.hapticLimits[name] ?? 0.95, "\(name): envelope correlation \(envelope)")
        }
    }

    @Test("AHAP → Android envelope and primitives → AHAP keeps the drive envelope (≥ 0.95)")
    func android() throws {
        for (name, pattern) in Self.patterns() {
            var notes = ConversionNotes()
            let data = AndroidVibration(pattern, notes: &notes).json()
            let back = try AndroidVibration.layers(fromJSON: data, notes: &notes).pattern()
            let (envelope, raw) = Measure.similarity(pattern, back)
            print(String(format: "android %.3f env  %.3f raw  %@", envelope, raw, name))
            #expect(envelope >= Self.androidLimits[name] ?? 0.95, "\(name): envelope correlation \(envelope)")
        }
    }
}
