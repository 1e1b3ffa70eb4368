internal import CALSA
import HapticsRender
import HapticsSystem

/// Opens the output a device name names.
///
/// `pulse` is the user's PulseAudio server (or PipeWire's), played through libpulse when it is
/// installed (``PulseOutput``) and through ALSA's `pulse` plugin otherwise; every other name is
/// an ALSA PCM (``ALSAOutput``). ALSA's plugin stays reachable as `plug:pulse`.
package enum AudioDevice {
    /// Starts loading what opening `device` will need, on a thread of its own, so that it
    /// overlaps the caller's own start-up work (reading and compiling a pattern): libpulse and
    /// the connection to the server for `pulse`, alsa-lib and its configuration files
    /// otherwise. Loading and relocating those libraries, connecting and parsing the
    /// configuration take milliseconds, most of `play`'s start-up beyond the process's own.
    /// Opening later waits for whatever is still in progress (the loads are once-guarded, the
    /// open takes the connection once made, and alsa-lib locks its configuration).
    package static func prepare(_ device: String) {
        // Started before the runtime, from the command line: a thread made now would only wait
        // (a thread's start waits for the loader, which is loading libpulse).
        if device == PulseOutput.deviceName && PulseOutput.connectsEarly { return }
        SystemThread.detachNewThread {
            if device == PulseOutput.deviceName && PulseOutput.isAvailable {
                PulseOutput.connectAhead()
                return
            }
            ALSADiagnostics.begin()
            _ = snd_config_update()
        }
    }

    package static func open(_ device: String, sampleRate: Int, channelCount: Int, latency: Duration) throws(AudioOutputError) -> any AudioOutput {
        if device == PulseOutput.deviceName && PulseOutput.isAvailable {
            return try PulseOutput(sampleRate: sampleRate, channelCount: channelCount, latency: latency)
        }
        return try ALSAOutput(device: device, sampleRate: sampleRate, channelCount: channelCount, latency: latency)
    }
}
