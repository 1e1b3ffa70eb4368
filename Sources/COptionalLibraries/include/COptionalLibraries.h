#ifndef HAPTICS_COPTIONALLIBRARIES_H
#define HAPTICS_COPTIONALLIBRARIES_H

// libsndfile (decoding sound files), libsoxr (resampling), kissfft (analysis) and librsvg
// with cairo (`plot`'s PNG), opened the first time one is asked for rather than linked, as
// CALSA, CPulse and CSDBus open theirs: nothing loads them at launch, and a machine without
// them runs everything that does not need them. The headers only declare the types; the
// functions come from these tables.

#include <kissfft/kiss_fftr.h>
#include <sndfile.h>
#include <soxr.h>
#include <stddef.h>
#include <stdint.h>

/// The functions of libsndfile the toolkit calls.
struct haptics_sndfile {
    SNDFILE *_Nullable (*_Nonnull sf_open)(const char *_Nullable path, int mode, SF_INFO *_Nullable info);
    sf_count_t (*_Nonnull sf_readf_float)(SNDFILE *_Nullable file, float *_Nullable frames, sf_count_t count);
    int (*_Nonnull sf_close)(SNDFILE *_Nullable file);
    int (*_Nonnull sf_error)(SNDFILE *_Nullable file);
    const char *_Nullable (*_Nonnull sf_strerror)(SNDFILE *_Nullable file);
};

/// libsndfile's functions, looked up on the first call (thread-safe); NULL when the library
/// is missing or lacks one of them.
const struct haptics_sndfile *_Nullable haptics_sndfile(void);

/// libsoxr's one-call resampler.
struct haptics_soxr {
    soxr_error_t _Nullable (*_Nonnull soxr_oneshot)(double input_rate, double output_rate, unsigned channels,
                                          soxr_in_t _Nullable input, size_t input_frames, size_t *_Nullable input_done,
                                          soxr_out_t _Nullable output, size_t output_frames,
                                          size_t *_Nullable output_done, soxr_io_spec_t const *_Nullable io,
                                          soxr_quality_spec_t const *_Nullable quality,
                                          soxr_runtime_spec_t const *_Nullable runtime);
};

/// libsoxr's functions, as ``haptics_sndfile``.
const struct haptics_soxr *_Nullable haptics_soxr(void);

/// kissfft's real FFT (single precision).
struct haptics_kissfft {
    kiss_fftr_cfg _Nullable (*_Nonnull kiss_fftr_alloc)(int nfft, int inverse, void *_Nullable memory,
                                                        size_t *_Nullable memory_size);
    void (*_Nonnull kiss_fftr)(kiss_fftr_cfg _Nullable configuration, const kiss_fft_scalar *_Nullable time,
                               kiss_fft_cpx *_Nullable frequencies);
};

/// kissfft's functions, as ``haptics_sndfile``.
const struct haptics_kissfft *_Nullable haptics_kissfft(void);

/// librsvg's document handle, cairo's surface and drawing context: opaque here (only the
/// runtime libraries are installed, not their headers).
struct haptics_rsvg_handle;
struct haptics_cairo_surface;
struct haptics_cairo;

/// Drawing an SVG into a PNG: librsvg, and the cairo, GObject and GLib functions it needs
/// (found through librsvg, which loads them).
struct haptics_rsvg {
    struct haptics_rsvg_handle *_Nullable (*_Nonnull rsvg_handle_new_from_data)(const uint8_t *_Nullable data, size_t length,
                                                                                 void *_Nullable *_Nullable error);
    // Since librsvg 2.46 (Debian 11 has 2.50).
    int (*_Nonnull rsvg_handle_render_document)(struct haptics_rsvg_handle *_Nullable handle,
                                                struct haptics_cairo *_Nullable cairo, const void *_Nullable viewport,
                                                void *_Nullable *_Nullable error);
    void (*_Nonnull g_object_unref)(struct haptics_rsvg_handle *_Nullable object);
    void (*_Nonnull g_error_free)(void *_Nullable error);
    struct haptics_cairo_surface *_Nullable (*_Nonnull cairo_image_surface_create)(int format, int width, int height);
    int (*_Nonnull cairo_surface_status)(struct haptics_cairo_surface *_Nullable surface);
    void (*_Nonnull cairo_surface_destroy)(struct haptics_cairo_surface *_Nullable surface);
    struct haptics_cairo *_Nullable (*_Nonnull cairo_create)(struct haptics_cairo_surface *_Nullable surface);
    void (*_Nonnull cairo_destroy)(struct haptics_cairo *_Nullable cairo);
    void (*_Nonnull cairo_set_source_rgb)(struct haptics_cairo *_Nullable cairo, double red, double green, double blue);
    void (*_Nonnull cairo_paint)(struct haptics_cairo *_Nullable cairo);
    int (*_Nonnull cairo_surface_write_to_png_stream)(
        struct haptics_cairo_surface *_Nullable surface,
        int (*_Nullable write)(void *_Nullable closure, const uint8_t *_Nullable data, unsigned int length),
        void *_Nullable closure);
};

/// librsvg's and cairo's functions, as ``haptics_sndfile``.
const struct haptics_rsvg *_Nullable haptics_rsvg(void);

#endif
