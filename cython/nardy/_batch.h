/* SIMD helpers of the batch entry points in _core.pyx (pips, blocks): one row per vector.
 *
 * Portable: x86 gets SSE2 (the x86-64 baseline) everywhere and an AVX2 pip counter chosen at
 * run time (__builtin_cpu_supports), never by build flags; other targets get nothing here
 * (nardy_pips_rows does no rows, nardy_six_runs always answers "maybe") and _core.pyx falls back
 * to the scalar helpers of _board.pxd, which stay the definition of every result.
 */
#ifndef NARDY_BATCH_H
#define NARDY_BATCH_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__)
#define NARDY_X86 1
#include <immintrin.h>
#endif

/* Zero only if neither side has six consecutive occupied points (the mover's counted from the
 * opponent's point 1, as _board.pxd's illegal_block_mover sees them): then neither holds any
 * six-block, legal or not. Nonzero means "look closer" (the scalar rules decide). */
static inline uint64_t nardy_six_runs(const int8_t *b) {
#ifdef NARDY_X86
    const __m128i zero = _mm_setzero_si128();
    __m128i lo = _mm_loadu_si128((const __m128i *)b);         /* entries 0..15 */
    __m128i hi = _mm_loadu_si128((const __m128i *)(b + 10));  /* entries 10..25 */
    uint64_t mine = (uint32_t)(_mm_movemask_epi8(_mm_cmpgt_epi8(lo, zero))
                               | _mm_movemask_epi8(_mm_cmpgt_epi8(hi, zero)) << 10);
    uint64_t theirs = (uint32_t)(_mm_movemask_epi8(lo) | _mm_movemask_epi8(hi) << 10);
    mine = (mine >> 1) & 0xFFFFFF;      /* bit p-1: point p */
    theirs = (theirs >> 1) & 0xFFFFFF;
    /* the mover's points in the opponent's numbers (rotate12), beside the opponent's in bits 32.. */
    uint64_t w = (((mine << 12) | (mine >> 12)) & 0xFFFFFF) | theirs << 32;
    w &= w >> 1;
    w &= w >> 2;
    return w & (w >> 2);  /* runs6 of both words at once: bits 24..31 are clear, nothing crosses */
#else
    (void)b;
    return 1;
#endif
}

#ifdef NARDY_X86
/* Pip counts of rows [0, count) of b (26 int8 each) into out (2 int32 each), two rows per step:
 * each row is one 32-byte vector whose entries are weighted by their point numbers. Returns the
 * rows done, always fewer than n (a vector reads 6 bytes past its row, so the last row is left). */
__attribute__((target("avx2")))
static ptrdiff_t nardy_pips_avx2(const int8_t *b, ptrdiff_t n, int variant, int32_t *out) {
    /* mover: max(x, 0) on the points, x itself on its bar (entry 25), weighted 1..25 */
    const __m256i mover_floor = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, -128, 0, 0, 0, 0, 0, 0);
    const __m256i mover_weight = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 0, 0, 0, 0, 0, 0);
    /* opponent: max(-x, 0) on the points, -x on its bar (entry 0), weighted in its own numbers */
    const __m256i theirs_floor = _mm256_setr_epi8(
        -128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i theirs_weight = variant == 0
        ? _mm256_setr_epi8(25, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 1, 2, 3,
                           4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0, 0, 0, 0)
        : _mm256_setr_epi8(25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
                           9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0);
    const __m256i ones = _mm256_set1_epi16(1);
    const __m256i zero = _mm256_setzero_si256();
    ptrdiff_t i = 0;
    for (; i + 3 <= n; i += 2) {  /* rows i and i+1; row i+2 exists, so no read past the array */
        __m256i x = _mm256_loadu_si256((const __m256i *)(b + 26 * i));
        __m256i y = _mm256_loadu_si256((const __m256i *)(b + 26 * i + 26));
        /* 16-bit sums of pairs of weighted entries (|sum| <= 2 * 25 * 15: no saturation) */
        __m256i mx = _mm256_maddubs_epi16(mover_weight, _mm256_max_epi8(x, mover_floor));
        __m256i ox = _mm256_maddubs_epi16(theirs_weight, _mm256_max_epi8(_mm256_sub_epi8(zero, x), theirs_floor));
        __m256i my = _mm256_maddubs_epi16(mover_weight, _mm256_max_epi8(y, mover_floor));
        __m256i oy = _mm256_maddubs_epi16(theirs_weight, _mm256_max_epi8(_mm256_sub_epi8(zero, y), theirs_floor));
        /* per 128-bit half: [mover x, mover x, theirs x, theirs x] then the same for y, as int32 */
        __m256i sx = _mm256_madd_epi16(_mm256_hadd_epi16(mx, ox), ones);
        __m256i sy = _mm256_madd_epi16(_mm256_hadd_epi16(my, oy), ones);
        __m256i s = _mm256_hadd_epi32(sx, sy);  /* per half: [mover x, theirs x, mover y, theirs y] */
        __m128i total = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        _mm_storeu_si128((__m128i *)(out + 2 * i), total);
    }
    return i;
}
#endif

/* The rows of b (from the first) whose pip counts a SIMD path wrote into out. */
static inline ptrdiff_t nardy_pips_rows(const int8_t *b, ptrdiff_t n, int variant, int32_t *out) {
#ifdef NARDY_X86
    if (__builtin_cpu_supports("avx2"))
        return nardy_pips_avx2(b, n, variant, out);
#endif
    (void)b; (void)n; (void)variant; (void)out;
    return 0;
}

#endif
