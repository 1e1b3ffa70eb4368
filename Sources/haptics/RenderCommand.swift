import ArgumentParser
import Foundation
import Haptics

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a pattern offline to a WAV file (or the rumble motor timeline).",
        discussion: """
        The WAV holds the drive signal for the chosen actuator profile: what `haptics play` \
        would send to the device, sample for sample. Audio events are kept in patterns but are \
        not part of the haptic signal.

        Examples:
          haptics render success -o success.wav
          haptics render explosion.ahap -o - --format f32 | sox -t wav - -n stat
          haptics render heartbeat.ahap -o hb.wav --profile lra --sample-rate 96000 --stats
        """
    )

    @OptionGroup var input: PatternInput
    @OptionGroup(title: "Output") var profileOptions: ProfileOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file, or - for standard output.", valueName: "file"))
    var output: String

    @Option(name: .customLong("sample-rate"), help: ArgumentHelp("Sample rate in Hz (default: the profile's, 48000).", valueName: "hz"))
    var sampleRate: Int?

    @Option(help: "Sample format: s16 (16-bit PCM) or f32 (32-bit float).")
    var format: SampleFormat = .s16

    @Flag(help: "Print duration, peak, RMS and the clipped-sample count.")
    var stats = false

    func run() throws {
        let loaded = try input.load()
        let profile = try profileOptions.resolve()
        let rate = sampleRate ?? profile.sampleRate
        if let problem = profile.problem(withSampleRate: rate) {
            throw CLIError(message: "--sample-rate: \(problem)", code: .validationFailure)
        }
        reportWarnings(loaded)
        let renderer = HapticRenderer(pattern: loaded.pattern, profile: profile, sampleRate: rate, gain: profileOptions.gain)
        do {
            let writer = try WAVWriter(path: output, sampleRate: rate, channelCount: renderer.channelCount,
                                       format: format, frameCount: renderer.totalFrames)
            var block = [Float](repeating: 0, count: 4096 * renderer.channelCount)
            try block.withUnsafeMutableBufferPointer { buffer throws(WAVError) in
                while case let frames = renderer.render(into: buffer), frames > 0 {
                    try writer.write(UnsafeBufferPointer(rebasing: buffer[..<(frames * renderer.channelCount)]))
                }
            }
            try writer.finish()
        } catch {
            throw CLIError.invalidInput(error.description)
        }
        if stats {
            let s = renderer.statistics
            let text = String(format: "duration %.3f s, %d frames at %d Hz, peak %.4f (%.1f dBFS), RMS %.4f, clipped samples %d",
                              s.duration, s.frames, s.sampleRate, s.peak, 20 * log10(max(s.peak, 1e-10)), s.rms, s.clippedSamples)
            if output == "-" { writeStandardError(text) } else { writeStandardOutput(text + "\n") }
        }
        if renderer.droppedEvents > 0 {
            writeStandardError("warning: \(renderer.droppedEvents) events overlapped more than the synthesizer's voices and were left out")
        }
    }
}
