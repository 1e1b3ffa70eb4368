/// Opens the output a device name names.
///
/// `pulse` is the user's PulseAudio server (or PipeWire's), played through libpulse when it is
/// installed (``PulseOutput``) and through ALSA's `pulse` plugin otherwise; every other name is
/// an ALSA PCM (``ALSAOutput``). ALSA's plugin stays reachable as `plug:pulse`.
package enum AudioDevice {
    package static func open(_ device: String, sampleRate: Int, channelCount: Int, latency: Duration) throws(AudioOutputError) -> any AudioOutput {
        if device == PulseOutput.deviceName && PulseOutput.isAvailable {
            return try PulseOutput(sampleRate: sampleRate, channelCount: channelCount, latency: latency)
        }
        return try ALSAOutput(device: device, sampleRate: sampleRate, channelCount: channelCount, latency: latency)
    }
}
