// `haptics play --device pulse` connects to the sound server from the executable's
// constructor, before the Swift runtime has started.
//
// Connecting (loading libpulse, the handshake) takes longer than everything `play` does before
// its stream opens, and `play` used to start it from `run()`: after the runtime's start (0.4 ms
// for a static Swift binary, against a C program's), the command line's parsing and the start
// boost, so that a spawned play reached the server later than paplay did. From here the
// connection overlaps all of that; the open takes it as it took the one `AudioDevice.prepare`
// made (which now leaves `pulse` alone: see `haptics_pulse_connects_in_background`).
//
// The command line is read as `play` will read it, for the one case only: `play` as the first
// word, then `--device pulse`, `--device=pulse`, `-d pulse` or `-D pulse` before a `--`, and
// no `--rumble`, help or version. A guess that is wrong in some corner (an option's value that
// reads `-d`) costs one connection that is never taken, and nothing else: the open connects
// anew when it finds none, and says why when it cannot.
#include <CPulse.h>
#include <stdlib.h>
#include <string.h>

static int names_device(const char *word) {
    return strcmp(word, "--device") == 0 || strcmp(word, "-d") == 0 || strcmp(word, "-D") == 0;
}

static int plays_on_pulse(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "play") != 0) return 0;
    int pulse = 0;
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *word = argv[i];
        if (strncmp(word, "--rumble", 8) == 0 || strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 ||
            strcmp(word, "--version") == 0 || strcmp(word, "-V") == 0) {
            return 0;
        }
        if (strcmp(word, "--device=pulse") == 0) {
            pulse = 1;
        } else if (names_device(word) && i + 1 < argc) {
            pulse = strcmp(argv[++i], "pulse") == 0;
        }
    }
    return pulse;
}

// The Swift runtime's (Paths.cpp): the path of a helper program beside the runtime. Its
// backtracer's initialiser asks for `swift-backtrace` right after this constructor, and the
// first ask finds the runtime's own path with `dladdr`, which waits for the loader's lock: the
// whole loading of libpulse (2–3 ms). Asked here first, before the loading begins, that path
// is found once and kept, and the runtime starts beside the loading instead of behind it.
char *swift_copyAuxiliaryExecutablePath(const char *name);

static void connect_early(int argc, char **argv, char **envp) {
    (void)envp;
    if (!plays_on_pulse(argc, argv)) return;
    free(swift_copyAuxiliaryExecutablePath("swift-backtrace"));
    haptics_pulse_preconnect_in_background();
}

__attribute__((section(".init_array"), used)) static void (*const connect_early_entry)(int, char **, char **) = connect_early;
