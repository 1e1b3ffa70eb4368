import HapticsCore
import Testing
@testable import HapticsRender

/// The transport on its own, without threads or an engine: where loops wrap, how rate, seek
/// and pause move them, the gain ramp, and that none of it depends on how time is split into
/// blocks.
@Suite("Transport")
struct TransportTests {
    static let sampleRate = 48_000.0

    /// A pattern that sounds all along its 50 ms, so every frame of a render is telling.
    static let pattern = HapticPattern(events: [
        .transient(at: 0, intensity: 1, sharpness: 0.8),
        .continuous(at: 0, duration: 0.05, intensity: 0.7, sharpness: 0.3),
        .transient(at: 0.004, intensity: 0.6, sharpness: 0.2),
    ])

    static func synth(_ pattern: HapticPattern = pattern) -> PatternSynth {
        PatternSynth(pattern: CompiledPattern(pattern), profile: .wideband, sampleRate: sampleRate)
    }

    /// A playing transport over a new synth, looping at `end` seconds `count` times (0: forever).
    static func playing(loopEnd end: Double, count: Int, rate: Double = 1) -> (Transport, PatternSynth) {
        let synth = synth()
        var transport = Transport(gainStep: 0.01)
        transport.setLoop(enabled: true, end: end, count: count)
        if rate != 1 { transport.setRate(synth, rate) }
        transport.start(synth, at: 0)
        return (transport, synth)
    }

    /// Renders `frames` of `synth` into a scratch buffer (moving it on without a transport).
    static func advance(_ synth: PatternSynth, frames: Int) {
        var scratch = [Float](repeating: 0, count: frames)
        scratch.withUnsafeMutableBufferPointer { synth.render(adding: $0.baseAddress!, frames: frames) }
    }

    /// Plays the next span of at most `frames` (rendering it, then wrapping if due) and
    /// returns its length.
    static func play(_ transport: inout Transport, _ synth: PatternSynth, _ frames: Int) -> Int {
        let span = transport.nextSpan(of: synth, atMost: frames)
        advance(synth, frames: span)
        transport.endSpan(of: synth)
        return span
    }

    /// The lengths of the next spans, each followed by its wrap if due, without rendering them.
    static func spans(_ transport: inout Transport, _ synth: PatternSynth, _ count: Int) -> [Int] {
        (0..<count).map { _ in
            let span = transport.nextSpan(of: synth, atMost: 4_096)
            transport.endSpan(of: synth)
            return span
        }
    }

    /// Renders `frames` through the transport in blocks of `block` frames, recording the
    /// frame (counted from 0) at which each wrap happened.
    static func run(
        _ transport: inout Transport, _ synth: PatternSynth, frames: Int, block: Int
    ) -> (samples: [Float], wraps: [Int]) {
        var samples = [Float](repeating: 0, count: frames)
        var wraps: [Int] = []
        var position = 0
        samples.withUnsafeMutableBufferPointer { out in
            while position < frames {
                let blockEnd = min(frames, position + block)
                while position < blockEnd {
                    let wrapsBefore = transport.wrapsLeft
                    let count = transport.nextSpan(of: synth, atMost: blockEnd - position)
                    if count > 0 { synth.render(adding: out.baseAddress! + position, frames: count) }
                    position += count
                    let timeBefore = synth.patternTime
                    transport.endSpan(of: synth)
                    if transport.wrapsLeft != wrapsBefore || (synth.patternTime == 0 && timeBefore != 0) { wraps.append(position) }
                }
            }
        }
        return (samples, wraps)
    }

    @Test("a counted loop wraps on its exact frame, then plays the last repetition to the end")
    func countedLoopWrapsOnExactFrames() {
        var (transport, synth) = Self.playing(loopEnd: 0.01, count: 3)
        #expect(transport.isLooping)
        let (_, wraps) = Self.run(&transport, synth, frames: 4_800, block: 512)
        // 10 ms is 480 frames at 48 kHz: two wraps, then no more.
        #expect(wraps == [480, 960])
        #expect(!transport.isLooping)
        #expect(transport.wrapsLeft == 0)
    }

    @Test("an endless loop wraps every repetition, at the pattern's end when no loop end is set")
    func endlessLoopAtNaturalEnd() {
        var (transport, synth) = Self.playing(loopEnd: 0, count: 0)
        let (_, wraps) = Self.run(&transport, synth, frames: 10_000, block: 256)
        // The pattern's end is its last sound's: the transient at 4 ms rings past the 50 ms.
        let repetition = Int((synth.naturalLoopEnd * Self.sampleRate).rounded())
        #expect(repetition > 2_400)
        #expect(wraps == Array(stride(from: repetition, through: 10_000, by: repetition)))
        #expect(transport.isLooping)
    }

    @Test("no loop: spans are whole blocks and the pattern finishes once, at its end")
    func noLoopFinishes() {
        let synth = Self.synth()
        var transport = Transport(gainStep: 0.01)
        transport.start(synth, at: 0)
        let first = transport.nextSpan(of: synth, atMost: 512)
        #expect(first == 512)
        Self.advance(synth, frames: 512)
        transport.endSpan(of: synth)
        var finishedAt: [Int] = []
        var position = 512
        while position < 9_600 {
            let count = transport.nextSpan(of: synth, atMost: 480)
            #expect(count == 480)
            Self.advance(synth, frames: count)
            position += count
            transport.endSpan(of: synth)
            if transport.finishIfDone(synth) { finishedAt.append(position) }
        }
        #expect(transport.state == .idle)
        // Once, in the span in which its last sound ends (the last voice leaves the pool at
        // the end of the block in which it ends).
        let end = Int((synth.naturalLoopEnd * Self.sampleRate).rounded())
        #expect(finishedAt.count == 1)
        #expect(finishedAt.allSatisfy { $0 >= end && $0 - 480 < end }, "finished at \(finishedAt), sound ends at \(end)")
    }

    @Test("a rate change mid-loop moves the next wrap to the frame the new rate reaches it")
    func rateChangeMidLoop() {
        var (transport, synth) = Self.playing(loopEnd: 0.01, count: 0)
        let before = Self.play(&transport, synth, 100)
        #expect(before == 100)
        transport.setRate(synth, 2)
        // 380 frames of pattern left at 48 kHz, run twice as fast: 190 frames; then whole
        // repetitions at rate 2, 240 frames each.
        let spans = Self.spans(&transport, synth, 3)
        #expect(spans == [190, 240, 240])
    }

    @Test("a seek moves the next wrap; a seek past the loop end wraps at once")
    func seekMovesTheWrap() {
        var (transport, synth) = Self.playing(loopEnd: 0.01, count: 0)
        transport.seek(synth, to: 0.005)
        let fromMiddle = Self.spans(&transport, synth, 2)
        #expect(fromMiddle == [240, 480])
        // Far past the end the frame count would overflow Int: it wraps with an empty span.
        transport.seek(synth, to: 1e300)
        let farPast = Self.spans(&transport, synth, 2)
        #expect(farPast == [0, 480])
    }

    @Test("paused, a loop neither wraps nor moves; resumed, it wraps where it would have")
    func pauseAndResume() {
        var (transport, synth) = Self.playing(loopEnd: 0.01, count: 0)
        let played = Self.play(&transport, synth, 200)
        #expect(played == 200)
        transport.pause(synth)
        #expect(transport.state == .paused)
        // Longer than the loop: paused, no wrap, no movement.
        let paused = Self.play(&transport, synth, 4_096)
        #expect(paused == 4_096)
        #expect(abs(synth.patternTime - 200 / Self.sampleRate) < 1e-12)
        // Resuming twice is resuming once.
        transport.resume(synth)
        transport.resume(synth)
        #expect(transport.state == .playing)
        let resumed = transport.nextSpan(of: synth, atMost: 4_096)
        #expect(resumed == 280)
    }

    @Test("a loop shorter than a frame still plays one frame after every wrap, across blocks")
    func loopShorterThanAFrame() {
        // 1 ms at rate 1000 is 0.048 frames: each repetition rounds to 0.
        var (transport, synth) = Self.playing(loopEnd: 0.001, count: 0, rate: 1_000)
        var emptySpans = 0
        var wraps = 0
        for block in [1, 2, 3] {
            // Blocks of `block` frames, each asked for in one call: a wrap at the end of one
            // block is remembered at the start of the next.
            for _ in 0..<10 {
                var done = 0
                var spans = 0
                while done < block {
                    let count = transport.nextSpan(of: synth, atMost: block - done)
                    if count == 0 { emptySpans += 1 }
                    Self.advance(synth, frames: count)
                    done += count
                    let wrapsBefore = synth.patternTime
                    transport.endSpan(of: synth)
                    if synth.patternTime == 0 && wrapsBefore != 0 { wraps += 1 }
                    spans += 1
                    guard spans < 100 else {
                        Issue.record("the transport wrapped without advancing")
                        return
                    }
                }
            }
        }
        // Only the very first repetition is empty; every other plays its one frame and wraps
        // (60 frames, 60 wraps seen from a moving position).
        #expect(emptySpans == 1)
        #expect(wraps == 60)
    }

    @Test("stop fades out, then the transport is idle and reports it once")
    func stopThenIdle() {
        var (transport, synth) = Self.playing(loopEnd: 0, count: 0)
        Self.advance(synth, frames: 256)
        transport.stop(synth)
        #expect(transport.state == .stopping)
        let finishedAtOnce = transport.finishIfDone(synth)
        #expect(!finishedAtOnce, "idle before its voices faded out")
        var reports = 0
        for _ in 0..<10 {
            Self.advance(synth, frames: 256)
            if transport.finishIfDone(synth) { reports += 1 }
        }
        #expect(reports == 1)
        #expect(transport.state == .idle)
        // Stopping an idle transport changes nothing.
        transport.stop(synth)
        #expect(transport.state == .idle)
    }

    @Test("where a loop wraps does not depend on how time is split into blocks")
    func blockSplitsWrapTheSame() {
        var results: [(samples: [Float], wraps: [Int])] = []
        for block in [1, 7, 64, 333, 512, 4_096] {
            var (transport, synth) = Self.playing(loopEnd: 0.0123, count: 4, rate: 1.3)
            results.append(Self.run(&transport, synth, frames: 6_000, block: block))
        }
        // 12.3 ms at rate 1.3 is 454.15 frames: each repetition from 0 rounds to 454.
        #expect(results[0].wraps == [454, 908, 1_362])
        #expect(results[0].samples.contains { $0 != 0 })
        for result in results.dropFirst() {
            #expect(result.wraps == results[0].wraps)
            // The same sound: the synth's float sums differ in their last bit with the block
            // length (about 1e-7), never by a shifted frame, which would differ by the signal.
            let difference = zip(result.samples, results[0].samples).map { abs($0 - $1) }.max() ?? 0
            #expect(difference < 1e-6)
        }
    }

    @Test("the gain ramp moves one step per sample to its target; muting an idle player needs no ramp")
    func gainRamp() {
        var transport = Transport(gainStep: 0.25)
        transport.setMuted(true)
        #expect(transport.gain.gain == 0 && transport.gain.isSilent)
        transport.setMuted(false)
        #expect(transport.gain.isUnity)

        let synth = Self.synth()
        transport.start(synth, at: 0)
        transport.setMuted(true)
        let ones = [Float](repeating: 1, count: 6)
        var out = [Float](repeating: 0, count: 6)
        ones.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { transport.gain.add(source.baseAddress!, into: $0.baseAddress!, frames: 6) }
        }
        #expect(out == [0.75, 0.5, 0.25, 0, 0, 0])
        // The stereo pair gets the same gains from where the ramp stands, without moving it.
        transport.setMuted(false)
        var left = [Float](repeating: 0, count: 5)
        var right = [Float](repeating: 0, count: 5)
        ones.withUnsafeBufferPointer { source in
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    transport.gain.add(left: source.baseAddress!, right: source.baseAddress!, into: l.baseAddress!, r.baseAddress!, frames: 5)
                }
            }
        }
        #expect(left == [0.25, 0.5, 0.75, 1, 1])
        #expect(right == left)
        #expect(transport.gain.gain == 0)
        // Through silence the ramp moves in one step as far as it would have per sample.
        transport.gain.skip(frames: 2)
        #expect(transport.gain.gain == 0.5)
        var buffer = [Float](repeating: 2, count: 3)
        buffer.withUnsafeMutableBufferPointer { transport.gain.scale($0.baseAddress!, frames: 3) }
        #expect(buffer == [1.5, 2, 2])
        #expect(transport.gain.isUnity)
    }
}
