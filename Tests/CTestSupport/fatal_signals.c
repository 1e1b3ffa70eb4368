// The test process says which signal ends it, and who sent it.
//
// `swift test` prints nothing when its test process dies of a signal such as SIGHUP, SIGTERM
// or SIGPIPE (or calls exit): the run just ends without its summary, exit status 1. A crash
// at least prints a backtrace. So, before any test runs, each signal whose default action is
// to end the process gets a handler that writes one line (the signal, the sender's pid and
// name) and then dies of the same signal. A test or library that installs its own handler
// (SignalWatcher, the SIGPIPE a ChildProcess ignores) replaces this one, as it should.
#include "CTestSupport.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

int haptics_test_reports_fatal_signals = 0;

// Only async-signal-safe calls below: write, open, read, close, raise.
static size_t append(char *line, size_t used, size_t size, const char *text) {
    while (*text && used + 1 < size) line[used++] = *text++;
    return used;
}

static size_t append_number(char *line, size_t used, size_t size, long value) {
    char digits[24];
    size_t count = 0;
    unsigned long magnitude = value < 0 ? (unsigned long)(-value) : (unsigned long)value;
    do {
        digits[count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude && count < sizeof digits);
    if (value < 0 && used + 1 < size) line[used++] = '-';
    while (count && used + 1 < size) line[used++] = digits[--count];
    return used;
}

static void report(int number, siginfo_t *info, void *context) {
    (void)context;
    char line[256];
    size_t used = append(line, 0, sizeof line, "\ntest process: ended by signal ");
    used = append_number(line, used, sizeof line, number);
    used = append(line, used, sizeof line, " (code ");
    used = append_number(line, used, sizeof line, info->si_code);
    used = append(line, used, sizeof line, ") from pid ");
    used = append_number(line, used, sizeof line, info->si_pid);
    char path[40];
    size_t path_used = append(path, 0, sizeof path, "/proc/");
    path_used = append_number(path, path_used, sizeof path, info->si_pid);
    path_used = append(path, path_used, sizeof path, "/comm");
    path[path_used] = 0;
    int comm = info->si_pid > 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (comm >= 0) {
        char name[32];
        ssize_t length = read(comm, name, sizeof name - 1);
        close(comm);
        if (length > 0) {
            if (name[length - 1] == '\n') length--;
            name[length] = 0;
            used = append(line, used, sizeof line, " (");
            used = append(line, used, sizeof line, name);
            used = append(line, used, sizeof line, ")");
        }
    }
    if (info->si_pid == getpid()) used = append(line, used, sizeof line, ", itself");
    used = append(line, used, sizeof line, "\n");
    (void)!write(STDERR_FILENO, line, used);
    // SA_RESETHAND restored the default action; the signal, blocked while this runs, is
    // delivered again on return and ends the process as it would have.
    raise(number);
}

__attribute__((constructor)) static void report_fatal_signals(void) {
    const int signals[] = {SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGIO};
    for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        struct sigaction current;
        if (sigaction(signals[index], NULL, &current) != 0 || current.sa_handler != SIG_DFL) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = report;
        action.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_RESTART;
        sigemptyset(&action.sa_mask);
        sigaction(signals[index], &action, NULL);
    }
    haptics_test_reports_fatal_signals = 1;
}
