// Float → 16-bit conversion with eight samples a step, for processors that have AVX2 (nearly
// every x86-64 since 2013). Swift cannot compile one function for a newer instruction set than
// the rest of the binary; C can, and the binary stays runnable on any x86-64: without AVX2 the
// function converts nothing and the caller's portable path does it all.
#include "CSystem.h"

#include <stdint.h>
#include <string.h>

// The operations are those of int16Sample in Swift, one by one, in float: a fused
// multiply-add would round differently from its two steps.
#pragma clang fp contract(off)

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

static int avx2;

// Decided once at load, so that a call from the audio thread never takes a lock to find out.
__attribute__((constructor)) static void haptics_detect_avx2(void) { avx2 = haptics_has_avx2(); }

int haptics_has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    // The processor has AVX and the system saves its registers on a task switch (OSXSAVE,
    // then XCR0's SSE and AVX state bits).
    if (!(c & bit_OSXSAVE) || !(c & bit_AVX)) return 0;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & bit_AVX2) != 0;
}

// Eight floats as int16Sample converts them, stored little-endian at `out` (unaligned).
__attribute__((target("avx2"))) static inline void convert8(__m256 x, uint8_t *out) {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 minusOne = _mm256_set1_ps(-1.0f);
    const __m256 scale = _mm256_set1_ps(32767.0f);
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 minusHalf = _mm256_set1_ps(-0.5f);
    const __m256 zero = _mm256_setzero_ps();
    // NaN → 0, then clip to ±1 (both operands ordered now, so min and max are exact).
    x = _mm256_and_ps(x, _mm256_cmp_ps(x, x, _CMP_ORD_Q));
    x = _mm256_min_ps(_mm256_max_ps(x, minusOne), one);
    __m256 scaled = _mm256_mul_ps(x, scale);
    // +½ where scaled ≥ 0 (−0 included), −½ elsewhere; then truncation toward zero.
    __m256 offset = _mm256_blendv_ps(minusHalf, half, _mm256_cmp_ps(scaled, zero, _CMP_GE_OQ));
    __m256i n = _mm256_cvttps_epi32(_mm256_add_ps(scaled, offset));
    __m128i packed = _mm_packs_epi32(_mm256_castsi256_si128(n), _mm256_extracti128_si256(n, 1));
    _mm_storeu_si128((__m128i *)out, packed);
}

__attribute__((target("avx2"))) static size_t convert_avx2(const float *source, size_t count, void *destination) {
    uint8_t *out = destination;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) convert8(_mm256_loadu_ps(source + i), out + 2 * i);
    return i;
}

// OutputStage's unclipped mono write (gain, per-lane peak and sum of squares) and the
// conversion above in one pass: the floats never go back to memory.
__attribute__((target("avx2"))) static size_t gain_convert_avx2(
    const float *mono, size_t count, float gain, void *destination, float *peakOut, float *squares) {
    const __m256 g = _mm256_set1_ps(gain);
    const __m256 magnitudeMask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    const __m256 signMask = _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000u));
    const __m256 scale = _mm256_set1_ps(32767.0f);
    const __m256 half = _mm256_set1_ps(0.5f);
    __m256 peak = _mm256_setzero_ps();
    __m256 sum = _mm256_setzero_ps();
    uint8_t *out = destination;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256 x = _mm256_mul_ps(_mm256_loadu_ps(mono + i), g);
        __m256 magnitude = _mm256_and_ps(x, magnitudeMask);
        // Swift's `peak8.replace(with: magnitude, where: magnitude .> peak8)`: an ordered
        // comparison, so a NaN lane keeps its peak.
        peak = _mm256_blendv_ps(peak, magnitude, _mm256_cmp_ps(magnitude, peak, _CMP_GT_OQ));
        sum = _mm256_add_ps(sum, _mm256_mul_ps(x, x));
        // convert8 without its NaN and clipping steps: a block with a sample beyond ±1 or not a
        // number shows in its peak or its sum, and the caller converts it again, clipped. The
        // offset is ±½ with the sign of `scaled` (for −0 it is −½ where convert8 adds +½:
        // both truncate to 0).
        __m256 scaled = _mm256_mul_ps(x, scale);
        __m256 offset = _mm256_or_ps(_mm256_and_ps(scaled, signMask), half);
        __m256i n = _mm256_cvttps_epi32(_mm256_add_ps(scaled, offset));
        __m128i packed = _mm_packs_epi32(_mm256_castsi256_si128(n), _mm256_extracti128_si256(n, 1));
        _mm_storeu_si128((__m128i *)(out + 2 * i), packed);
    }
    // The lanes' largest: they hold no NaN and no −0, so any order of max gives the same.
    __m128 half4 = _mm_max_ps(_mm256_castps256_ps128(peak), _mm256_extractf128_ps(peak, 1));
    half4 = _mm_max_ps(half4, _mm_movehl_ps(half4, half4));
    half4 = _mm_max_ss(half4, _mm_shuffle_ps(half4, half4, 1));
    *peakOut = _mm_cvtss_f32(half4);
    _mm256_storeu_ps(squares, sum);
    return i;
}

size_t haptics_gain_convert_int16_avx2(const float *mono, size_t count, float gain, void *destination, float *peak, float *squares) {
    return avx2 ? gain_convert_avx2(mono, count, gain, destination, peak, squares) : 0;
}

size_t haptics_convert_int16_avx2(const float *source, size_t count, void *destination) {
    return avx2 ? convert_avx2(source, count, destination) : 0;
}
#else
int haptics_has_avx2(void) { return 0; }

size_t haptics_convert_int16_avx2(const float *source, size_t count, void *destination) {
    (void)source;
    (void)count;
    (void)destination;
    return 0;
}

size_t haptics_gain_convert_int16_avx2(const float *mono, size_t count, float gain, void *destination, float *peak, float *squares) {
    (void)mono;
    (void)count;
    (void)gain;
    (void)destination;
    (void)peak;
    (void)squares;
    return 0;
}
#endif
