internal import CALSA

/// The sample format an ``ALSAOutput`` drives its device with.
package enum ALSASampleFormat: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// 32-bit little-endian float (`FLOAT_LE`): the engine's samples go to the device untouched.
    case float32
    /// 16-bit little-endian signed integer (`S16_LE`), converted as ``ALSASampleConversion/s16(_:)``
    /// documents.
    case s16

    /// The ALSA name of the format, as `aplay` and the documentation spell it.
    package var description: String {
        switch self {
        case .float32: "FLOAT_LE"
        case .s16: "S16_LE"
        }
    }

    var bytesPerSample: Int {
        switch self {
        case .float32: MemoryLayout<Float>.size
        case .s16: MemoryLayout<Int16>.size
        }
    }

    var pcmFormat: snd_pcm_format_t {
        switch self {
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        case .s16: SND_PCM_FORMAT_S16_LE
        }
    }
}
