internal import CALSA

/// Keeps alsa-lib quiet and turns its error codes and messages into text for our errors.
///
/// alsa-lib prints to stderr by default ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown
/// PCM …"); the C shim captures that text per thread instead, and errors we throw quote it.
enum ALSADiagnostics {
    /// Installs the capturing handler (once per process) and forgets this thread's message.
    static func begin() {
        haptics_alsa_capture_errors()
        haptics_alsa_clear_last_error()
    }

    /// Forgets this thread's message, so that the next one is about the next failure. Cheap
    /// enough for the audio thread: one store to a thread-local buffer.
    @inline(__always)
    static func forgetMessage() {
        haptics_alsa_clear_last_error()
    }

    /// The first thing alsa-lib said on this thread since ``begin()``, if anything: usually the
    /// cause, where later messages are its consequences.
    static var message: String? {
        let message = String(cString: haptics_alsa_last_error())
        return message.isEmpty ? nil : message
    }

    /// Whether alsa-lib is installed: it is opened on the first ALSA call (see CALSA's
    /// library.c), and without it every call fails with `-ENOENT`.
    static var isLibraryAvailable: Bool { haptics_alsa_available() != 0 }

    /// `snd_strerror` for a negative ALSA result.
    static func describe(_ code: Int32) -> String {
        guard let text = snd_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// `snd_strerror`, then alsa-lib's own message when it adds something:
    /// "Invalid argument: Cannot get card index for 99".
    static func describeWithMessage(_ code: Int32) -> String {
        let text = describe(code)
        guard let message, message != text else { return text }
        return "\(text): \(message)"
    }
}
