#include "CALSA.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// Per thread, so a message belongs to the call that failed on that thread and the
// handler needs no lock (it may run on the audio thread during recovery).
static _Thread_local char last_error[512];

static void capture_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file;
    (void)line;
    (void)function;
    (void)err;
    // Keep the first message: alsa-lib reports the cause first and then each caller that
    // gave up because of it ("cannot find card '0'" … "Unknown PCM default").
    if (last_error[0] != '\0') {
        return;
    }
    va_list args;
    va_start(args, fmt);
    int length = vsnprintf(last_error, sizeof last_error, fmt, args);
    va_end(args);
    if (length < 0) {
        last_error[0] = '\0';
        return;
    }
    size_t end = strlen(last_error);
    while (end > 0 && (last_error[end - 1] == '\n' || last_error[end - 1] == ' ')) {
        last_error[--end] = '\0';
    }
}

static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void install_handler(void) {
    snd_lib_error_set_handler(capture_error);
}

void haptics_alsa_capture_errors(void) {
    pthread_once(&install_once, install_handler);
}

const char *haptics_alsa_last_error(void) {
    return last_error;
}

void haptics_alsa_clear_last_error(void) {
    last_error[0] = '\0';
}
