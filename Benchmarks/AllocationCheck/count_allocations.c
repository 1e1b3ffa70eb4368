// LD_PRELOAD library: counts malloc/calloc/realloc/free calls made on threads whose kernel
// name is $COUNT_THREAD (default "haptics-audio") and prints the totals at exit. Used by
// scripts/check-audio-allocations.sh to show that the audio thread does not allocate.
// COUNT_BACKTRACE=1 also prints the stack of each allocation counted.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static atomic_long allocations, frees, everything;
static __thread int busy;

// dlsym itself may call calloc before the real one is known: serve it from here.
static char arena[65536];
static size_t arena_used;
static void *from_arena(size_t size) {
    void *p = arena + arena_used;
    arena_used += (size + 15) & ~(size_t)15;
    return p;
}
static int in_arena(void *p) { return (char *)p >= arena && (char *)p < arena + sizeof arena; }

static int resolving;
static void resolve(void) {
    if (resolving) return;
    resolving = 1;
    real_malloc = dlsym(RTLD_NEXT, "malloc");
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_free = dlsym(RTLD_NEXT, "free");
    resolving = 0;
}

static void count(atomic_long *counter) {
    if (busy) return;
    busy = 1;
    char name[17] = {0};
    const char *wanted = getenv("COUNT_THREAD");
    prctl(PR_GET_NAME, name);
    if (strcmp(name, wanted ? wanted : "haptics-audio") == 0) {
        atomic_fetch_add(counter, 1);
        // COUNT_BACKTRACE=1: where each counted allocation came from, to find it.
        if (counter == &allocations && getenv("COUNT_BACKTRACE")) {
            void *frames[24];
            backtrace_symbols_fd(frames, backtrace(frames, 24), 2);
            fputs("--\n", stderr);
        }
    }
    atomic_fetch_add(&everything, 1);
    busy = 0;
}

void *malloc(size_t size) {
    if (!real_malloc) resolve();
    if (!real_malloc) return from_arena(size);
    count(&allocations);
    return real_malloc(size);
}
void *calloc(size_t n, size_t size) {
    if (!real_calloc) resolve();
    if (!real_calloc) return memset(from_arena(n * size), 0, n * size);
    count(&allocations);
    return real_calloc(n, size);
}
void *realloc(void *p, size_t size) {
    if (!real_realloc) resolve();
    if (!real_realloc) return NULL;
    count(&allocations);
    return real_realloc(p, size);
}
void free(void *p) {
    if (in_arena(p)) return;
    if (!real_free) resolve();
    if (!real_free) return;
    count(&frees);
    real_free(p);
}

__attribute__((constructor)) static void start(void) { resolve(); }
__attribute__((destructor)) static void report(void) {
    const char *wanted = getenv("COUNT_THREAD");
    fprintf(stderr, "thread '%s': %ld allocations, %ld frees (whole process: %ld calls)\n",
            wanted ? wanted : "haptics-audio", atomic_load(&allocations), atomic_load(&frees), atomic_load(&everything));
}
