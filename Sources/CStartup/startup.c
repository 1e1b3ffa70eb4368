// The command line for a statically linked Swift runtime, without reading /proc/self/maps.
//
// The static Swift runtime finds `CommandLine.arguments` in a constructor of its own
// (CommandLine.cpp's `ArgvGrabber`) that opens /proc/self/maps and scans it line by line with
// sscanf for the stack, to walk back from `environ` to argv: 60 µs of every run of `haptics`
// before `main` (a tenth of what a static Swift "hello" costs over a C one; paired runs,
// issue #28). glibc hands every constructor of the executable argc and argv, so this one keeps
// them. The runtime's two functions for the command line live alone in that archive member;
// defining both here means the linker never takes it from libswiftCore.a, and its constructor
// is not linked. They keep the runtime's contract: an override (set by the JIT, never by us)
// wins, and the array is the process's own, not a copy.
//
// Both are Swift-calling-convention functions of the runtime (SWIFT_CC(swift)); a toolchain
// that renamed or changed them would link its own member again beside these (a duplicate
// symbol fails the link, or the runtime's copy is used: arguments stay right either way).
// DistributionTests checks that the runtime's grabber is not in the release binary.

static char **process_argv;
static int process_argc;
static char **override_argv;
static int override_argc;

static void keep_command_line(int argc, char **argv, char **envp) {
    (void)envp;
    process_argc = argc;
    process_argv = argv;
}

__attribute__((section(".init_array"), used)) static void (*const keep_command_line_entry)(int, char **, char **) =
    keep_command_line;

__attribute__((swiftcall, visibility("hidden"))) char **_swift_stdlib_getUnsafeArgvArgc(int *count) {
    if (override_argv) {
        *count = override_argc;
        return override_argv;
    }
    *count = process_argc;
    return process_argv;
}

__attribute__((swiftcall, visibility("hidden"))) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    override_argv = argv;
    override_argc = argc;
}
