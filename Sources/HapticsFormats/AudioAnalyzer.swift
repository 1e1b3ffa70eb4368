import COptionalLibraries
import FoundationEssentials
import HapticsCore

/// Audio to haptics: turns a sound into a pattern that feels like it.
///
/// The steps, each set by ``AnalysisOptions``:
///
/// 1. **Frames.** The sound (mono) is cut into frames every `hop` (5 ms); each frame's FFT
///    window (`window`, 20 ms, Hann) is centred on it.
/// 2. **Intensity.** The RMS of each hop is followed with separate attack (5 ms) and release
///    (80 ms) time constants, normalised to the loudest frame, gated at `gateDecibels`
///    (−50 dB), and taken as amplitude: intensity = √(level), since a haptic amplitude is
///    intensity² (REFERENCE §4), so the felt amplitude follows the sound's.
/// 3. **Sharpness.** The spectral centroid (kissfft's real FFT, magnitudes above DC) maps
///    logarithmically from `centroidLow…centroidHigh` (150…6000 Hz) to sharpness 0…1, is held
///    through silence and smoothed (20 ms).
/// 4. **Onsets.** The novelty is whitened spectral flux: the increase of each bin's power
///    (squared magnitude) over the loudest bin within 150 Hz in the previous frame
///    (SuperFlux's maximum filter, so a gliding pitch is not an onset), divided by that bin's
///    running mean power over 300 ms (adaptive whitening, so loud low bins' wandering — brown
///    noise, a bass — does not outweigh a hit's rise in quiet bins), averaged over the bins.
///    Before the sound is silence, so a sound starting loud has an onset at 0. Peaks (±2
///    frames) above median + k·MAD (k = 6) of the novelty over 300 ms around them, on a
///    sound reaching `onsetFloor` (3%) of the loudest level, at least 40 ms apart, are
///    candidates. Each is placed where its attack starts, on 1 ms blocks: the first block
///    rising 30% of the way from the background (the loudest block of the 10 ms before the
///    search) to the hit's loudest, moved back over the blocks still 2% of the way up. It is
///    kept if it starts a hit, not a swell or a wobble: within 25 ms a 2 ms stretch is twice
///    as loud as the loudest 2 ms of the 10 ms before, and louder than it by half the loudest
///    5 ms of the next 150 ms (a tremolo's swell is not: the continuous layer follows it).
/// 5. **Transients.** Each onset becomes a tap whose intensity is √(peak RMS in the 20 ms after
///    it ÷ the loudest RMS) and whose sharpness is the centroid mapping at the onset.
/// 6. **Ducking.** Under each tap the continuous intensity is lowered by `duckDepth` (0.5) for
///    `duckDuration` (50 ms), with 5 ms ramps, so the taps stand out.
/// 7. **Simplification.** Both curves are reduced with Ramer–Douglas–Peucker to at most
///    `pointsPerSecond` (20) points per second (sharpness half), then written as continuous
///    events of at most 30 s driven by curves of at most 16 points (``HapticLayers``).
/// 8. **Headroom.** A tap (amplitude intensity²) and the continuous part under it over the
///    tap's 40 ms add up: each tap is lowered to what the simplified continuous part leaves
///    below full scale (0.98), so the pattern never clips on a profile of gain 1.
public struct AudioAnalyzer: Sendable {
    public var options: AnalysisOptions

    public init(options: AnalysisOptions = AnalysisOptions()) {
        self.options = options
    }

    /// The latest time a pattern from a sound uses: 0.1 s inside the 3,600 s pattern limit,
    /// room for what the writers add after the last point (a 5 ms release, a 20 ms pulse, a
    /// 50 ms close after a `.haptic` emphasis), so that what a full-length sound gives is
    /// written and read back in every format.
    static let latestTime = Double(SoundReader.maxSeconds) - 0.1

    /// Power below this (−100 dB, far below a 16-bit sound's quietest) counts as silence.
    static let powerFloor = 1e-10
    /// The time constant of each bin's running mean power, which the flux is divided by.
    static let whiteningTime = 0.3
    /// The least novelty (the mean over bins of the whitened rise) that can be an onset.
    static let minimumRise = 0.05
    /// A candidate onset is a hit, not a swell (a tremolo) or a wobble (a voice's pitch
    /// pulses, noise): within `attackTime` of its start, a 2 ms stretch has `attackRise`
    /// times the power of the loudest 2 ms of the 10 ms before, and exceeds it by
    /// `attackFraction` of the loudest power (5 ms RMS²) over the next `comingSpan`.
    static let attackRise = 2.0
    static let attackFraction = 0.5
    static let attackTime = 0.025
    static let comingSpan = 0.15
    /// The longest a tap sounds (the renderer's transient burst, 8–40 ms).
    static let tapLength = 0.04
    /// The amplitude a tap and the continuous part under it may reach together, just below
    /// full scale.
    static let fullScale = 0.98

    /// What the analysis found, with the frame-level curves for inspection and tests.
    public struct Result: Sendable {
        public var layers: HapticLayers
        /// Frame times (hop centres), seconds.
        public var frameTimes: [Double]
        /// The followed, normalised RMS level per frame (0…1, linear amplitude), before ducking.
        public var level: [Double]
        /// Sharpness per frame, before simplification.
        public var sharpness: [Double]
        /// Onset times, seconds.
        public var onsets: [Double]
        /// The sound's length, seconds.
        public var duration: Double

        /// The pattern to write.
        public func pattern(metadata: HapticPattern.Metadata = .init()) -> HapticPattern {
            layers.pattern(metadata: metadata)
        }
    }

    /// Analyses a sound in memory. `progress` gets 0…1.
    public func analyze(_ audio: AudioFile, progress: ((Double) -> Void)? = nil) throws(FormatError) -> Result {
        try analyze(
            sampleRate: audio.sampleRate, expectedFrames: audio.samples.count,
            open: { () throws(FormatError) -> any SampleStream in
                MemoryStream(audio.samples)
            }, progress: progress)
    }

    /// Analyses a sound file without holding it: read in blocks of 8,192 frames, twice (the
    /// second time only around the onsets found), so memory is the analysis's per-frame curves
    /// (about 60 bytes per 5 ms) and a window, whatever the file's length. Sounds are read
    /// under ``AudioFile``'s limits (1,000 to 384,000 Hz, 1 to 64 channels, 3,600 s, finite
    /// samples); every problem is one line naming the file. `progress` gets 0…1.
    public func analyze(contentsOf path: String, progress: ((Double) -> Void)? = nil) throws(FormatError) -> Result {
        let first = try SoundReader(path: path)
        var opened = false
        return try analyze(
            sampleRate: first.sampleRate, expectedFrames: first.declaredFrames,
            open: { () throws(FormatError) -> any SampleStream in
                defer { opened = true }
                return opened ? try SoundReader(path: path) : first
            }, progress: progress)
    }

    /// The analysis, over a sound that `open` streams from its start (called once for the
    /// frame curves, and again to place the onsets when there are any).
    private func analyze(
        sampleRate: Int, expectedFrames: Int?, open: () throws(FormatError) -> any SampleStream, progress: ((Double) -> Void)?
    ) throws(FormatError) -> Result {
        let fft = try SoundLibraries.kissFFT.get()
        let o = options
        let rate = Double(sampleRate)
        let hop = max(1, Int((o.hop * rate).rounded()))
        var n = 2
        while Double(n) < o.window * rate { n *= 2 }
        let hopSeconds = Double(hop) / rate

        // 1–4. One pass over the sound: RMS per hop, spectra (centroid and onset novelty) per frame.
        var rms: [Double] = []
        var centroid: [Double] = []
        var novelty: [Double] = []
        var window = [Float](repeating: 0, count: n)
        for i in 0..<n { window[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n))) }
        let bins = n / 2 + 1
        guard let config = fft.allocate(Int32(n), 0, nil, nil) else { throw FormatError("kissfft could not allocate a transform of \(n) points") }
        defer { free(UnsafeMutableRawPointer(config)) }  // kiss_fftr_free is a macro for free()
        var input = [Float](repeating: 0, count: n)
        var output = [kiss_fft_cpx](repeating: kiss_fft_cpx(), count: bins)
        let binHz = rate / Double(n)
        let normal = 2 / Float(n)
        // Each bin's running mean power (over about 300 ms): the flux is counted relative
        // to it (adaptive whitening), so loud low bins' wandering (brown noise, a bass) does
        // not outweigh a hit's rise in quiet bins.
        var average = [Double](repeating: 0, count: bins)
        let averageCoefficient = 1 - exp(-hopSeconds / Self.whiteningTime)
        var previous = [Float](repeating: 0, count: bins)
        var current = [Float](repeating: 0, count: bins)
        // Neighbouring bins within about 150 Hz.
        let spread = max(1, Int(150 / binHz))
        var stream = SampleWindow(try open())
        var f = 0
        while true {
            let start = f * hop
            let centre = start + hop / 2
            try stream.fill(upTo: max(centre + n / 2, start + hop))
            if f > 0, stream.ended, start >= stream.total { break }
            let end = min(stream.total, start + hop)
            let first = centre - n / 2
            stream.withSamples { samples, offset in
                var sum: Float = 0
                var i = start - offset
                while i < end - offset {
                    sum += samples[i] * samples[i]
                    i += 1
                }
                rms.append(end > start ? Double(sum / Float(end - start)).squareRoot() : 0)
                let available = offset..<(offset + samples.count)
                input.withUnsafeMutableBufferPointer { input in
                    window.withUnsafeBufferPointer { window in
                        for i in 0..<n {
                            let j = first + i
                            input[i] = available.contains(j) ? samples[j - offset] * window[i] : 0
                        }
                    }
                }
            }
            input.withUnsafeBufferPointer { inp in
                output.withUnsafeMutableBufferPointer { out in
                    fft.transform(config, inp.baseAddress, out.baseAddress)
                }
            }
            var weighted = 0.0
            var total = 0.0
            for k in 0..<bins {
                let re = output[k].r
                let im = output[k].i
                let magnitude = (re * re + im * im).squareRoot() * normal
                if k > 0 {
                    weighted += Double(magnitude) * Double(k) * binHz
                    total += Double(magnitude)
                }
                current[k] = magnitude * magnitude
            }
            // SuperFlux (Böck & Widmer, 2013): the increases of power from the previous frame,
            // each bin compared with the loudest of its neighbours within 150 Hz there (a
            // gliding pitch is not new), each divided by the bin's running mean power. Before
            // the sound is silence, so a sound starting loud has an onset at 0.
            var rise = 0.0
            for k in 0..<bins {
                var reference = previous[k]
                for j in max(0, k - spread)...min(bins - 1, k + spread) where previous[j] > reference { reference = previous[j] }
                let d = Double(current[k] - reference)
                if d > 0 { rise += d / (average[k] + Self.powerFloor) }
                average[k] += averageCoefficient * (Double(current[k]) - average[k])
            }
            rise /= Double(bins)
            swap(&previous, &current)
            centroid.append(total > 0 ? weighted / total : 0)
            novelty.append(rise)
            f += 1
            stream.discard(before: min(f * hop + hop / 2 - n / 2, f * hop))
            if let progress, f % 2048 == 0, let expectedFrames, expectedFrames > 0 {
                progress(0.7 * min(1, Double(f * hop) / Double(expectedFrames)))
            }
        }
        let frames = rms.count
        let sampleCount = stream.total
        let duration = Double(sampleCount) / rate

        let attackCoefficient = 1 - exp(-hopSeconds / o.attack)
        let releaseCoefficient = 1 - exp(-hopSeconds / o.release)
        var followed = [Double](repeating: 0, count: frames)
        var y = 0.0
        for f in 0..<frames {
            let r = rms[f]
            y += (r > y ? attackCoefficient : releaseCoefficient) * (r - y)
            followed[f] = y
        }
        let peak = followed.max() ?? 0
        let peakRMS = rms.max() ?? 0
        let gate = pow(10, o.gateDecibels / 20)
        var level = followed.map { peak > 0 ? $0 / peak : 0 }
        for f in 0..<frames where level[f] < gate { level[f] = 0 }

        // Sharpness from the centroid, held through silence, smoothed.
        let logLow = log(o.centroidLow)
        let logSpan = log(o.centroidHigh) - log(o.centroidLow)
        func sharpness(ofCentroid c: Double) -> Double {
            c > 0 ? (0...1).clamp((log(c) - logLow) / logSpan) : 0
        }
        var sharp = [Double](repeating: 0.5, count: frames)
        var held: Double? = nil
        let smoothing = 1 - exp(-hopSeconds / o.sharpnessSmoothing)
        var smoothed = 0.5
        for f in 0..<frames {
            if level[f] > 0 && centroid[f] > 0 {
                let s = sharpness(ofCentroid: centroid[f])
                if held == nil { smoothed = s }
                held = s
            }
            if let held { smoothed += smoothing * (held - smoothed) }
            sharp[f] = smoothed
        }
        // Before the first sound, the first sound's sharpness.
        if let firstSound = level.firstIndex(where: { $0 > 0 }) {
            for f in 0..<firstSound { sharp[f] = sharp[firstSound] }
        }
        progress?(0.75)

        // 4. Onsets: peaks of either novelty above its adaptive threshold, on a sound above
        // the floor; which of them start a hit is decided below, on the samples.
        var onsetFrames: [Int] = []
        if o.transients, frames > 0 {
            let half = max(1, Int(o.onsetWindow / 2 / hopSeconds))
            let gap = max(1, Int((o.minimumOnsetGap / hopSeconds).rounded()))
            let soon = (n / 2 + Int(Self.attackTime * rate)) / hop + 1
            let floor = o.onsetFloor * peakRMS
            var scratch: [Double] = []
            scratch.reserveCapacity(2 * half + 1)
            func peaks(of curve: [Double], least: Double) -> [Int] {
                var found: [Int] = []
                for f in 0..<frames {
                    let value = curve[f]
                    guard value >= least, value > 0 else { continue }
                    var isPeak = true
                    for g in max(0, f - 2)...min(frames - 1, f + 2) where g != f && (curve[g] > value || (curve[g] == value && g < f)) {
                        isPeak = false
                        break
                    }
                    guard isPeak else { continue }
                    let early = rms[f...min(frames - 1, f + soon)].max() ?? 0
                    guard early >= floor, early > 0 else { continue }
                    scratch.removeAll(keepingCapacity: true)
                    for g in max(0, f - half)...min(frames - 1, f + half) { scratch.append(curve[g]) }
                    scratch.sort()
                    let median = scratch[scratch.count / 2]
                    for i in scratch.indices { scratch[i] = abs(scratch[i] - median) }
                    scratch.sort()
                    let mad = scratch[scratch.count / 2]
                    guard value > median + o.onsetK * mad else { continue }
                    if let last = found.last, f - last < gap {
                        if curve[last] < value { found[found.count - 1] = f }
                        continue
                    }
                    found.append(f)
                }
                return found
            }
            onsetFrames = peaks(of: novelty, least: Self.minimumRise)
        }

        // Place each onset where its attack starts, on a 1 ms grid: a second pass over the
        // sound, reading only as far as the last onset's window. The background is the
        // loudest 1 ms block in the 10 ms before the search; the attack is the first block
        // that rises 30% of the way from it to the hit's loudest block, moved back over the
        // blocks still 2% of the way up (the foot of a soft attack).
        let block = max(1, Int(rate / 1000))
        let attackBlocks = max(1, Int((Self.attackTime * 1000).rounded()))
        let stretchBlocks = 2
        let comingFrames = max(1, Int(Self.comingSpan / hopSeconds))
        var onsets: [Double] = []
        var transients: [HapticLayers.Transient] = []
        if !onsetFrames.isEmpty {
            var samples = SampleWindow(try open())
            var energies: [Double] = []
            for (index, f) in onsetFrames.enumerated() {
                let centre = f * hop + hop / 2
                let from = centre - n / 2 - 2 * hop
                let to = centre + n / 2 + 2 * hop + attackBlocks * block
                let backgroundBlocks = 10
                try samples.fill(upTo: to + block)
                energies.removeAll(keepingCapacity: true)
                samples.withSamples { samples, offset in
                    var start = from - backgroundBlocks * block
                    while start < to {
                        var sum: Float = 0
                        let s = max(0, start, offset)
                        let e = min(sampleCount, offset + samples.count, start + block)
                        if e > s { for i in s..<e { sum += samples[i - offset] * samples[i - offset] } }
                        energies.append(Double(sum))
                        start += block
                    }
                }
                samples.discard(before: from - backgroundBlocks * block - block)
                let background = energies[0..<backgroundBlocks].max() ?? 0
                let loudest = energies[backgroundBlocks...].max() ?? 0
                guard loudest > background else { continue }
                let rise = loudest - background
                var j = backgroundBlocks
                while j < energies.count - attackBlocks - 1, energies[j] < background + 0.3 * rise { j += 1 }
                // (Over a one-block dip too: a voice's pitch pulses leave quiet milliseconds.)
                let foot = background + 0.02 * rise
                while j > backgroundBlocks, energies[j - 1] > foot || (j - 2 >= backgroundBlocks && energies[j - 2] > foot) { j -= 1 }
                let best = from + (j - backgroundBlocks) * block
                // A hit, not a swell or a wobble: within 25 ms of its start, a 2 ms stretch is
                // twice as loud as the loudest of the 10 ms before, and louder than it by half
                // the loudest 5 ms of the next 150 ms.
                func loudestStretch(_ range: Range<Int>) -> Double {
                    var loudest = 0.0
                    for k in range.lowerBound..<max(range.lowerBound + 1, range.upperBound - stretchBlocks + 1) {
                        loudest = max(loudest, energies[k..<min(energies.count, k + stretchBlocks)].reduce(0, +) / Double(stretchBlocks * block))
                    }
                    return loudest
                }
                let before = loudestStretch((j - backgroundBlocks)..<j)
                let early = loudestStretch(j..<min(energies.count, j + attackBlocks))
                let firstHop = min(frames - 1, max(0, best / hop))
                // (Up to the next candidate: a louder hit after it does not make it a swell.)
                let next = index + 1 < onsetFrames.count ? onsetFrames[index + 1] : frames
                let coming = rms[firstHop...max(firstHop, min(frames - 1, firstHop + comingFrames, next))].max() ?? 0
                guard early > Self.attackRise * before, early - before >= Self.attackFraction * coming * coming else { continue }
                let time = Double(max(0, best)) / rate
                if let last = onsets.last, time - last < o.minimumOnsetGap { continue }
                onsets.append(time)
                // Intensity from the peak hop RMS in the next 20 ms; sharpness from the brightness there.
                let firstFrame = min(frames - 1, max(0, best / hop))
                let lastFrame = min(frames - 1, (max(0, best) + Int(0.02 * rate)) / hop)
                var peakHere = 0.0
                var brightest = firstFrame
                for g in firstFrame...max(firstFrame, lastFrame) where rms[g] > peakHere {
                    peakHere = rms[g]
                    brightest = g
                }
                let intensity = peakRMS > 0 ? min(1, peakHere / peakRMS).squareRoot() : 0
                transients.append(.init(time: time, intensity: intensity, sharpness: sharpness(ofCentroid: centroid[brightest])))
            }
        }
        progress?(0.85)

        // 6. Ducking, on the continuous intensity.
        var intensity = level.map { $0.squareRoot() }
        if o.duckDepth > 0 {
            let ramp = 0.005
            for onset in onsets {
                let from = max(0, Int((onset - ramp) / hopSeconds))
                let to = min(frames - 1, Int((onset + o.duckDuration + ramp) / hopSeconds) + 1)
                guard from <= to else { continue }
                for f in from...to {
                    let t = (Double(f) + 0.5) * hopSeconds
                    let w: Double
                    if t < onset {
                        w = max(0, 1 - (onset - t) / ramp)
                    } else if t <= onset + o.duckDuration {
                        w = 1
                    } else {
                        w = max(0, 1 - (t - onset - o.duckDuration) / ramp)
                    }
                    intensity[f] *= 1 - o.duckDepth * w
                }
            }
        }

        // 7. Simplification to the point budget.
        let times = (0..<frames).map { (Double($0) + 0.5) * hopSeconds }
        var layerIntensity: [HapticLayers.Point] = []
        var layerSharpness: [HapticLayers.Point] = []
        if o.continuous, intensity.contains(where: { $0 > 0 }) {
            var curveTimes = [0.0] + times
            var curveIntensity = [0.0] + intensity
            var curveSharpness = [sharp[0]] + sharp
            // End silent just after the sound, and within the pattern limit: points past it
            // (a sound of the full 3,600 s) are left out.
            while curveTimes.count > 1, curveTimes.last! >= Self.latestTime {
                curveTimes.removeLast()
                curveIntensity.removeLast()
                curveSharpness.removeLast()
            }
            curveTimes.append(min(max(duration, curveTimes.last! + hopSeconds), Self.latestTime))
            curveIntensity.append(0)
            curveSharpness.append(curveSharpness.last ?? 0.5)
            let budget = max(2, Int((o.pointsPerSecond * max(duration, 0.1)).rounded(.up)))
            let keepI = CurveSimplifier.keep(times: curveTimes, values: [curveIntensity], budget: budget)
            let keepS = CurveSimplifier.keep(times: curveTimes, values: [curveSharpness], budget: max(2, budget / 2))
            layerIntensity = keepI.map { .init(curveTimes[$0], curveIntensity[$0]) }
            layerSharpness = keepS.map { .init(curveTimes[$0], curveSharpness[$0]) }
        }
        // 8. Never past full scale: a tap's amplitude (intensity²) and the continuous part's
        // under it (as simplified) add up, so each tap is lowered to the headroom the
        // continuous part leaves over the tap's length.
        if !layerIntensity.isEmpty {
            for i in transients.indices {
                let t = transients[i].time
                var under = max(HapticLayers.value(of: layerIntensity, at: t), HapticLayers.value(of: layerIntensity, at: t + Self.tapLength))
                for point in layerIntensity where point.time > t && point.time < t + Self.tapLength { under = max(under, point.value) }
                let headroom = max(0, Self.fullScale - under * under)
                if transients[i].intensity * transients[i].intensity > headroom { transients[i].intensity = headroom.squareRoot() }
            }
        }
        progress?(1)
        return Result(
            layers: HapticLayers(
                intensity: layerIntensity, sharpness: layerSharpness, transients: transients.filter { $0.time < Self.latestTime }),
            frameTimes: times, level: level, sharpness: sharp, onsets: onsets, duration: duration)
    }
}

/// Mono samples read in blocks from the start of a sound.
protocol SampleStream {
    /// Reads up to `frames` frames onto the end of `mono`; returns how many, 0 at the end.
    func read(appendingTo mono: inout [Float], frames: Int) throws(FormatError) -> Int
}

extension SoundReader: SampleStream {}

/// A sound already in memory, as a stream.
final class MemoryStream: SampleStream {
    private let samples: [Float]
    private var position = 0

    init(_ samples: [Float]) { self.samples = samples }

    func read(appendingTo mono: inout [Float], frames: Int) throws(FormatError) -> Int {
        let count = min(frames, samples.count - position)
        mono.append(contentsOf: samples[position..<(position + count)])
        position += count
        return count
    }
}

/// The part of a stream still needed, indexed by the sample's position in the whole sound:
/// filled as far as asked, and the part before a position given up (in large steps, so the
/// copying costs nothing measurable).
struct SampleWindow {
    private let stream: any SampleStream
    private var buffer: [Float] = []
    /// The position of `buffer[0]` in the sound.
    private(set) var start = 0
    /// Whether the stream has ended.
    private(set) var ended = false

    init(_ stream: any SampleStream) { self.stream = stream }

    /// Samples read so far: the sound's length once ``ended``.
    var total: Int { start + buffer.count }

    /// Calls `body` with the samples read and not yet discarded, and the position of the
    /// first of them in the sound.
    func withSamples<T>(_ body: (UnsafeBufferPointer<Float>, Int) -> T) -> T {
        buffer.withUnsafeBufferPointer { body($0, start) }
    }

    /// Reads until the position `end` (exclusive) is in, or the stream ends.
    mutating func fill(upTo end: Int) throws(FormatError) {
        while !ended, total < end {
            if try stream.read(appendingTo: &buffer, frames: SoundReader.blockFrames) == 0 { ended = true }
        }
    }

    /// Gives up the samples before `position` once they are many.
    mutating func discard(before position: Int) {
        let count = min(buffer.count, position - start)
        guard count >= 1 << 16 else { return }
        buffer.removeFirst(count)
        start += count
    }
}
