@testable import HapticsPlayback
import Testing

/// The two ways the `pulse` device reaches the sound server: libpulse (``PulseOutput``, what
/// the engine opens for the name) and ALSA's plugin (``ALSAOutput``, what it opens where
/// libpulse is missing). Tests that hold for both take this as their argument.
enum PulseRoute: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case libpulse, alsaPlugin

    var testDescription: String { rawValue }

    func open(sampleRate: Int, channelCount: Int, latency: Duration) throws(AudioOutputError) -> any AudioOutput {
        switch self {
        case .libpulse: try PulseOutput(sampleRate: sampleRate, channelCount: channelCount, latency: latency)
        case .alsaPlugin: try ALSAOutput(device: "pulse", sampleRate: sampleRate, channelCount: channelCount, latency: latency)
        }
    }

    /// Times the output's buffer ran dry since it opened: underflows the server reported
    /// (libpulse), or underruns the output recovered from (ALSA).
    static func underruns(of output: any AudioOutput) -> Int {
        (output as? PulseOutput)?.underflowCount ?? (output as? ALSAOutput)?.recoveryCount ?? 0
    }
}

extension AudioOutput {
    /// Writes `samples` in period-sized pieces, as an engine's audio thread would.
    func writeInPeriods(_ samples: [Float]) throws {
        let step = periodFrames * channelCount
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + step)
            try samples[offset..<end].withUnsafeBufferPointer { (chunk) throws(AudioOutputError) in try write(chunk) }
            offset = end
        }
    }
}
