#ifndef HAPTICS_CALSA_H
#define HAPTICS_CALSA_H

#include <alsa/asoundlib.h>

/// Routes alsa-lib's diagnostics (SNDERR and friends) away from stderr into a per-thread
/// buffer. alsa-lib's handler is variadic, which Swift cannot implement, hence this shim.
/// Idempotent and safe to call from any thread.
void haptics_alsa_capture_errors(void);

/// The first diagnostic alsa-lib reported on the calling thread since the last clear,
/// without a trailing newline; "" when there was none. Valid until the thread's next ALSA call.
const char *haptics_alsa_last_error(void);

/// Whether libasound could be opened (it is loaded on the first ALSA call, not linked): 1 or 0.
/// Without it every ALSA function fails with -ENOENT and `snd_strerror` says what to install.
int haptics_alsa_available(void);

/// Forgets the calling thread's last diagnostic, so the next failure's message is its own.
void haptics_alsa_clear_last_error(void);

#endif
