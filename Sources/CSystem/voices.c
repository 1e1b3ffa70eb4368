// The voices' inner loops (Sources/HapticsRender/Voice.swift) with AVX: a group of eight
// samples in one register where Swift, compiled for any x86-64, takes two. The operations are
// Swift's, one by one and in its order, so the samples are the same bit for bit; without AVX2
// the functions do nothing and Swift's loops do it all.
#include "CSystem.h"

#pragma clang fp contract(off)

#if defined(__x86_64__)
#include <immintrin.h>

static int avx2;

// Decided once at load: the audio thread runs these.
__attribute__((constructor)) static void haptics_voices_detect_avx2(void) { avx2 = haptics_has_avx2(); }

// Turns the lanes (s, c) by the rotation (rs, rc): Swift's `(s * rc + c * rs, c * rc - s * rs)`.
__attribute__((target("avx2"))) static inline void rotate(__m256 *s, __m256 *c, __m256 rs, __m256 rc) {
    __m256 nextS = _mm256_add_ps(_mm256_mul_ps(*s, rc), _mm256_mul_ps(*c, rs));
    *c = _mm256_sub_ps(_mm256_mul_ps(*c, rc), _mm256_mul_ps(*s, rs));
    *s = nextS;
}

__attribute__((target("avx2"))) static void continuous_avx2(
    float *out, size_t groups, float base, float step, long first, float *sines, float *cosines, float rotationSin, float rotationCos) {
    const __m256 lanes = _mm256_setr_ps(1, 2, 3, 4, 5, 6, 7, 8);
    const __m256 b = _mm256_set1_ps(base);
    const __m256 st = _mm256_set1_ps(step);
    const __m256 rs = _mm256_set1_ps(rotationSin);
    const __m256 rc = _mm256_set1_ps(rotationCos);
    __m256 s = _mm256_loadu_ps(sines);
    __m256 c = _mm256_loadu_ps(cosines);
    long k = first;
    for (size_t g = 0; g < groups; g++, k += 8, out += 8) {
        // (base + step · (k + lane)) · sin, added to the output.
        __m256 position = _mm256_add_ps(_mm256_set1_ps((float)k), lanes);
        __m256 v = _mm256_mul_ps(_mm256_add_ps(b, _mm256_mul_ps(st, position)), s);
        _mm256_storeu_ps(out, _mm256_add_ps(_mm256_loadu_ps(out), v));
        rotate(&s, &c, rs, rc);
    }
    _mm256_storeu_ps(sines, s);
    _mm256_storeu_ps(cosines, c);
}

__attribute__((target("avx2"))) static void transient_avx2(
    float *out, size_t groups, float peak, float sign, float *sines, float *cosines, float rotationSin, float rotationCos,
    float *envelopeSines, float *envelopeCosines, float envelopeRotationSin, float envelopeRotationCos) {
    const __m256 p = _mm256_set1_ps(peak);
    const __m256 sg = _mm256_set1_ps(sign);
    const __m256 one = _mm256_set1_ps(1);
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 rs = _mm256_set1_ps(rotationSin);
    const __m256 rc = _mm256_set1_ps(rotationCos);
    __m256 s = _mm256_loadu_ps(sines);
    __m256 c = _mm256_loadu_ps(cosines);
    __m256 es = _mm256_loadu_ps(envelopeSines);
    __m256 ec = _mm256_loadu_ps(envelopeCosines);
    for (size_t g = 0; g < groups; g++, out += 8) {
        // peak · (0.5 · (1 + sign · envelope cos)) · sin, added to the output.
        __m256 envelope = _mm256_mul_ps(half, _mm256_add_ps(one, _mm256_mul_ps(sg, ec)));
        __m256 v = _mm256_mul_ps(_mm256_mul_ps(p, envelope), s);
        _mm256_storeu_ps(out, _mm256_add_ps(_mm256_loadu_ps(out), v));
        rotate(&s, &c, rs, rc);
        rotate(&es, &ec, _mm256_set1_ps(envelopeRotationSin), _mm256_set1_ps(envelopeRotationCos));
    }
    _mm256_storeu_ps(sines, s);
    _mm256_storeu_ps(cosines, c);
    _mm256_storeu_ps(envelopeSines, es);
    _mm256_storeu_ps(envelopeCosines, ec);
}

int haptics_continuous_groups_avx2(
    float *out, size_t groups, float base, float step, long first, float *sines, float *cosines, float rotationSin, float rotationCos) {
    if (!avx2) return 0;
    continuous_avx2(out, groups, base, step, first, sines, cosines, rotationSin, rotationCos);
    return 1;
}

int haptics_transient_groups_avx2(
    float *out, size_t groups, float peak, float sign, float *sines, float *cosines, float rotationSin, float rotationCos,
    float *envelopeSines, float *envelopeCosines, float envelopeRotationSin, float envelopeRotationCos) {
    if (!avx2) return 0;
    transient_avx2(
        out, groups, peak, sign, sines, cosines, rotationSin, rotationCos, envelopeSines, envelopeCosines, envelopeRotationSin,
        envelopeRotationCos);
    return 1;
}
#else
int haptics_continuous_groups_avx2(
    float *out, size_t groups, float base, float step, long first, float *sines, float *cosines, float rotationSin, float rotationCos) {
    (void)out, (void)groups, (void)base, (void)step, (void)first, (void)sines, (void)cosines, (void)rotationSin, (void)rotationCos;
    return 0;
}

int haptics_transient_groups_avx2(
    float *out, size_t groups, float peak, float sign, float *sines, float *cosines, float rotationSin, float rotationCos,
    float *envelopeSines, float *envelopeCosines, float envelopeRotationSin, float envelopeRotationCos) {
    (void)out, (void)groups, (void)peak, (void)sign, (void)sines, (void)cosines, (void)rotationSin, (void)rotationCos;
    (void)envelopeSines, (void)envelopeCosines, (void)envelopeRotationSin, (void)envelopeRotationCos;
    return 0;
}
#endif
