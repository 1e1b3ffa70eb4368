// peak-rss COMMAND [ARGUMENT...]: runs the command (its output to /dev/null) and prints its
// peak resident memory in KiB, or exits 1 if it failed.
//
// Why a separate, small C program: the kernel keeps ru_maxrss across execve, and posix_spawn
// shares the parent's memory until the exec (vfork), so a child spawned by a Swift benchmark
// starts with the benchmark's own resident size as its "peak". Forked from this program, the
// floor is about 1 MiB, well under anything measured.
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: peak-rss COMMAND [ARGUMENT...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execv(argv[1], argv + 1);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid) return 1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
    printf("%ld\n", usage.ru_maxrss);
    return 0;
}
