import Foundation
import Testing

/// Sounds like those people analyse (noise hits, rumbling bursts, kicks, tremolo, speech), each
/// synthesised from a seed with the times of its true onsets, for `OnsetAccuracyTests`.
struct RealWorldSound: Sendable, CustomTestStringConvertible {
    /// The sound class, as the README's table names it.
    var name: String
    var samples: [Float]
    var sampleRate: Double
    /// Where each hit's attack starts, seconds: the taps the analysis should write.
    var onsets: [Double]
    /// Amplitude-modulation peaks the continuous layer should follow (tremolo), else 0.
    var envelopePeaks = 0

    var testDescription: String { name }

    static let rate = 48_000.0

    /// Every class, at its default seed.
    static let all: [RealWorldSound] = [
        pinkHits(), brownBursts(), kicks(), tremolo(), clicks(), speech(), silence(),
    ]

    /// Pink noise (Kellet's filter over white noise).
    static func pinkNoise(count: Int, random: inout SyntheticSounds.Random) -> [Float] {
        var b = [Double](repeating: 0, count: 7)
        return (0..<count).map { _ in
            let w = random.gaussian()
            b[0] = 0.99886 * b[0] + w * 0.0555179
            b[1] = 0.99332 * b[1] + w * 0.0750759
            b[2] = 0.96900 * b[2] + w * 0.1538520
            b[3] = 0.86650 * b[3] + w * 0.3104856
            b[4] = 0.55000 * b[4] + w * 0.5329522
            b[5] = -0.7616 * b[5] - w * 0.0168980
            let pink = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + w * 0.5362
            b[6] = w * 0.115926
            return Float(pink * 0.11)
        }
    }

    /// Brown noise: white noise through a leaky integrator (corner about 15 Hz), RMS 1.
    static func brownNoise(count: Int, random: inout SyntheticSounds.Random) -> [Float] {
        var y = 0.0
        var out = (0..<count).map { _ in
            y = 0.998 * y + random.gaussian()
            return y
        }
        let rms = (out.reduce(0) { $0 + $1 * $1 } / Double(max(1, count))).squareRoot()
        if rms > 0 { out = out.map { $0 / rms } }
        return out.map(Float.init)
    }

    /// Five pink-noise hits (instant attack, 80 ms decay), the first at 0.
    static func pinkHits(seed: UInt64 = 0x9121) -> RealWorldSound {
        var random = SyntheticSounds.Random(state: seed)
        let hits: [(Double, Double)] = [(0, 1), (0.55, 0.6), (1.2, 0.85), (1.8, 0.4), (2.45, 0.9)]
        let n = Int(3.0 * rate)
        let noise = pinkNoise(count: n, random: &random)
        var samples = [Float](repeating: 0, count: n)
        for (time, level) in hits {
            let start = Int(time * rate)
            for i in start..<min(n, start + Int(0.45 * rate)) {
                samples[i] += noise[i] * Float(2.5 * level * exp(-Double(i - start) / rate / 0.08))
            }
        }
        return RealWorldSound(name: "pink-noise hits", samples: samples, sampleRate: rate, onsets: hits.map(\.0))
    }

    /// Three brown-noise bursts (2 ms attack, 0.6 s, 50 ms release) at different levels.
    static func brownBursts(seed: UInt64 = 0xb70e) -> RealWorldSound {
        var random = SyntheticSounds.Random(state: seed)
        let bursts: [(Double, Double)] = [(0.15, 0.5), (1.1, 0.3), (2.05, 0.45)]
        let n = Int(3.0 * rate)
        let noise = brownNoise(count: n, random: &random)
        var samples = [Float](repeating: 0, count: n)
        for (time, level) in bursts {
            let start = Int(time * rate)
            let attack = 0.002
            let hold = 0.6
            let release = 0.05
            for i in start..<min(n, start + Int((attack + hold + release) * rate)) {
                let t = Double(i - start) / rate
                let envelope = t < attack ? t / attack : t < attack + hold ? 1 : 1 - (t - attack - hold) / release
                samples[i] += noise[i] * Float(level * envelope)
            }
        }
        return RealWorldSound(name: "brown-noise bursts", samples: samples, sampleRate: rate, onsets: bursts.map(\.0))
    }

    /// Kick drums at 120 bpm: a 1.5 ms noise click over a sine gliding from 80 to 50 Hz,
    /// decaying over 150 ms.
    static func kicks(seed: UInt64 = 0x41c4) -> RealWorldSound {
        var random = SyntheticSounds.Random(state: seed)
        let hits: [(Double, Double)] = [(0.25, 0.9), (0.75, 0.7), (1.25, 1), (1.75, 0.6), (2.25, 0.8)]
        let n = Int(2.75 * rate)
        var samples = [Float](repeating: 0, count: n)
        for (time, level) in hits {
            let start = Int(time * rate)
            var phase = 0.0
            for i in start..<min(n, start + Int(0.4 * rate)) {
                let t = Double(i - start) / rate
                phase += 2 * .pi * (50 + 30 * exp(-t / 0.03)) / rate
                let fade = min(1, (0.4 - t) / 0.01)
                var x = level * 0.9 * exp(-t / 0.15) * sin(phase) * fade
                if t < 0.0015 { x += level * 0.3 * random.gaussian() * (1 - t / 0.0015) }
                samples[i] += Float(x)
            }
        }
        return RealWorldSound(name: "kicks (bass hits)", samples: samples, sampleRate: rate, onsets: hits.map(\.0))
    }

    /// Pink noise (or white) under a 3 Hz tremolo of full depth, starting from silence: no attack
    /// anywhere, 30 swells to follow.
    static func tremolo(seconds: Double = 10, depth: Double = 1, pink: Bool = true, seed: UInt64 = 0x7e30) -> RealWorldSound {
        var random = SyntheticSounds.Random(state: seed)
        let n = Int(seconds * rate)
        let noise = pink ? pinkNoise(count: n, random: &random).map { 3 * $0 } : (0..<n).map { _ in Float(random.gaussian()) }
        let samples = (0..<n).map { i in
            let t = Double(i) / rate
            return Float(0.3 * Double(noise[i]) * (1 - depth * (0.5 + 0.5 * cos(2 * .pi * 3 * t))))
        }
        return RealWorldSound(name: "3 Hz tremolo noise", samples: samples, sampleRate: rate, onsets: [], envelopePeaks: Int(seconds * 3))
    }

    /// Clicks 10 dB over white noise (``SyntheticSounds/clicks(count:snr:sampleRate:seed:)``).
    static func clicks(seed: UInt64 = 0xc11c) -> RealWorldSound {
        let (samples, onsets) = SyntheticSounds.clicks(count: 12, snr: 10, seed: seed)
        return RealWorldSound(name: "clicks over white noise", samples: samples, sampleRate: rate, onsets: onsets)
    }

    /// Syllables of a voice: a 90–150 Hz buzz with some breath, 15 ms raised-cosine attacks,
    /// 80–200 ms long with a 40 ms release, 60–250 ms apart.
    static func speech(seed: UInt64 = 0x5bee) -> RealWorldSound {
        var random = SyntheticSounds.Random(state: seed)
        var syllables: [(start: Double, length: Double, level: Double, pitch: Double)] = []
        var t = 0.1
        for _ in 0..<12 {
            let length = 0.08 + 0.12 * random.next()
            syllables.append((t, length, 0.3 + 0.5 * random.next(), 90 + 60 * random.next()))
            t += length + 0.04 + 0.06 + 0.19 * random.next()
        }
        let n = Int((t + 0.1) * rate)
        var samples = [Float](repeating: 0, count: n)
        var lowpassed = 0.0
        for s in syllables {
            let start = Int(s.start * rate)
            var phase = 0.0
            for i in start..<min(n, start + Int((s.length + 0.04) * rate)) {
                let u = Double(i - start) / rate
                let envelope =
                    u < 0.015 ? 0.5 - 0.5 * cos(.pi * u / 0.015) : u < s.length ? 1 - 0.3 * (u - 0.015) / s.length : 0.7 * (1 - (u - s.length) / 0.04)
                phase += s.pitch * (1 + 0.05 * sin(2 * .pi * 5 * u)) / rate
                let buzz = 2 * (phase - phase.rounded(.down)) - 1
                lowpassed += 0.2 * (buzz + 0.3 * random.gaussian() - lowpassed)
                samples[i] = Float(s.level * envelope * lowpassed)
            }
        }
        return RealWorldSound(name: "speech-like syllables", samples: samples, sampleRate: rate, onsets: syllables.map(\.start))
    }

    /// A second of digital silence.
    static func silence() -> RealWorldSound {
        RealWorldSound(name: "silence", samples: [Float](repeating: 0, count: Int(rate)), sampleRate: rate, onsets: [])
    }

    /// Full-scale brown noise with kicks on top, as loud as a sound gets: the pattern's
    /// continuous part at full intensity where the taps land.
    static func loudBedWithKicks(seed: UInt64 = 0x10d) -> RealWorldSound {
        var random = SyntheticSounds.Random(state: seed)
        var sound = kicks()
        let bed = brownNoise(count: sound.samples.count, random: &random)
        for i in sound.samples.indices { sound.samples[i] = 0.5 * sound.samples[i] + 0.45 * bed[i] * min(1, Float(i) / 4800) }
        sound.name = "kicks over loud brown noise"
        return sound
    }
}
