// Each library: the names to try (the versioned one first, as packages install it), its
// functions, and a table filled once under pthread_once. After that first call, a lookup is a
// load of a pointer.

#include "COptionalLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

/// Opens the first of `names` that loads and fills `count` function pointers at `table` from
/// `symbols`; 1 when every one was found.
static int load(const char *const names[], const char *const symbols[], void **table, size_t count) {
    void *library = NULL;
    for (size_t i = 0; names[i] && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    for (size_t i = 0; i < count; i++) {
        table[i] = dlsym(library, symbols[i]);
        if (!table[i]) return 0;
    }
    return 1;
}

#define LIBRARY(type, accessor, ...)                                                                                         \
    static struct type accessor##_table;                                                                                     \
    static int accessor##_loaded;                                                                                            \
    static pthread_once_t accessor##_once = PTHREAD_ONCE_INIT;                                                               \
    static void accessor##_load(void) {                                                                                      \
        static const char *const symbols[] = {__VA_ARGS__};                                                                  \
        _Static_assert(sizeof(struct type) == sizeof symbols / sizeof *symbols * sizeof(void *), "one name per function");  \
        accessor##_loaded = load(accessor##_names, symbols, (void **)&accessor##_table, sizeof symbols / sizeof *symbols);  \
    }                                                                                                                        \
    const struct type *accessor(void) {                                                                                      \
        pthread_once(&accessor##_once, accessor##_load);                                                                     \
        return accessor##_loaded ? &accessor##_table : NULL;                                                                 \
    }

// The names in the order of the struct's fields.
static const char *const haptics_sndfile_names[] = {"libsndfile.so.1", "libsndfile.so", NULL};
LIBRARY(haptics_sndfile, haptics_sndfile, "sf_open", "sf_readf_float", "sf_close", "sf_error", "sf_strerror")

static const char *const haptics_soxr_names[] = {"libsoxr.so.0", "libsoxr.so", NULL};
LIBRARY(haptics_soxr, haptics_soxr, "soxr_oneshot")

static const char *const haptics_kissfft_names[] = {"libkissfft-float.so.131", "libkissfft-float.so", NULL};
LIBRARY(haptics_kissfft, haptics_kissfft, "kiss_fftr_alloc", "kiss_fftr")

static const char *const haptics_rsvg_names[] = {"librsvg-2.so.2", "librsvg-2.so", NULL};
LIBRARY(haptics_rsvg, haptics_rsvg, "rsvg_handle_new_from_data", "rsvg_handle_render_document", "g_object_unref",
        "g_error_free", "cairo_image_surface_create", "cairo_surface_status", "cairo_surface_destroy", "cairo_create",
        "cairo_destroy", "cairo_set_source_rgb", "cairo_paint", "cairo_surface_write_to_png_stream")
