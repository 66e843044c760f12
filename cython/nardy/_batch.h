/* SIMD helpers of the batch entry points in _core.pyx (pips, blocks, the lean path's entry
 * check): one row per vector.
 *
 * Portable: x86 gets SSE2 (the x86-64 baseline) everywhere and AVX2 versions chosen at run
 * time (_cpu.h), never by build flags; other targets get nothing here
 * (nardy_pips_rows does no rows, nardy_clear_blockless clears none) and _core.pyx falls back
 * to the scalar helpers of _board.pxd, which stay the definition of every result; only
 * nardy_entries_outside carries its own scalar loop (the test checks every value at every entry).
 */
#ifndef NARDY_BATCH_H
#define NARDY_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "_cpu.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__)
#define NARDY_X86 1
#include <immintrin.h>

static int nardy_avx2_on = -1;  /* -1: not asked yet */

/* Are the AVX2 kernels used? */
static inline int nardy_avx2(void) {
    if (nardy_avx2_on < 0)
        nardy_avx2_on = nardy_cpu_has(NARDY_CPU_AVX2);
    return nardy_avx2_on;
}
#endif

/* Copy n bytes with a plain loop the compiler vectorises (AVX2 where the CPU has it), where
 * memcpy would do as well: under valgrind (benchmarks/counts.py) memcpy is swapped for valgrind's
 * own, about one instruction a byte, and the counts would charge batch.generate's copy-out many
 * times what it costs. */
#if defined(__GNUC__) && !defined(__clang__)
#define NARDY_NO_MEMCPY __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define NARDY_NO_MEMCPY
#endif

NARDY_NO_MEMCPY static void nardy_copy_plain(unsigned char* restrict d, const unsigned char* restrict s, size_t n) {
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
}

#ifdef NARDY_X86
NARDY_NO_MEMCPY __attribute__((target("avx2")))
static void nardy_copy_avx2(unsigned char* restrict d, const unsigned char* restrict s, size_t n) {
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        _mm256_storeu_si256((__m256i*)(d + i), _mm256_loadu_si256((const __m256i*)(s + i)));
    for (; i < n; i++)
        d[i] = s[i];
}
#endif

static inline void nardy_copy(void* dst, const void* src, size_t n) {
#ifdef NARDY_X86
    if (nardy_avx2()) {
        nardy_copy_avx2((unsigned char*)dst, (const unsigned char*)src, n);
        return;
    }
#endif
    nardy_copy_plain((unsigned char*)dst, (const unsigned char*)src, n);
}

/* Use the AVX2 kernels if `on` and the CPU has AVX2 (tests turn them off to reach the others). */
static inline int nardy_use_avx2(int on) {
#ifdef NARDY_X86
    nardy_avx2_on = on && nardy_cpu_has(NARDY_CPU_AVX2);
    return nardy_avx2_on;
#else
    (void)on;
    return 0;
#endif
}

#ifdef NARDY_X86
/* Nonzero if a side has six consecutive occupied points, the mover's counted round the board's
 * end (24, 1, ...). Bit i of `mine` / `theirs`: entry i (point i; 25 the mover's bar, 0 the
 * opponent's) holds the mover's / the opponent's checkers. Zero means neither side holds any
 * six-block, legal or not; nonzero means "look closer" (the bars or a run that is no block may
 * also set it). */
static inline uint64_t nardy_six_runs(uint64_t mine, uint64_t theirs) {
    /* theirs in bits 0..25; the mover's in bits 32..57 and again from bit 56, so that points
     * 20..24 run on into 1..5 (bits 26..31 stay clear: no run crosses from one side to the other) */
    uint64_t w = theirs | mine << 32 | mine << 56;
    w &= w >> 1;
    w &= w >> 2;
    return w & (w >> 2);  /* bit q: bits q..q+5 all set (runs6 of _board.pxd) */
}

/* nardy_clear_blockless one row at a time: two 16-byte reads, entries 0..15 and 10..25. */
static inline ptrdiff_t nardy_clear_sse2(const int8_t *b, ptrdiff_t i, ptrdiff_t n, uint8_t *out) {
    const __m128i zero = _mm_setzero_si128();
    for (; i < n; i++) {
        __m128i lo = _mm_loadu_si128((const __m128i *)(b + 26 * i));
        __m128i hi = _mm_loadu_si128((const __m128i *)(b + 26 * i + 10));
        uint32_t mine = _mm_movemask_epi8(_mm_cmpgt_epi8(lo, zero)) | _mm_movemask_epi8(_mm_cmpgt_epi8(hi, zero)) << 10;
        uint32_t theirs = _mm_movemask_epi8(lo) | _mm_movemask_epi8(hi) << 10;
        if (nardy_six_runs(mine, theirs))
            return i;
        out[i] = 0;
    }
    return i;
}

/* nardy_clear_blockless one 32-byte read a row; it reads 6 bytes into the next row, so it stops
 * before the last. */
__attribute__((target("avx2")))
static ptrdiff_t nardy_clear_avx2(const int8_t *b, ptrdiff_t i, ptrdiff_t n, uint8_t *out) {
    const __m256i zero = _mm256_setzero_si256();
    for (; i + 1 < n; i++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(b + 26 * i));
        uint32_t mine = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(x, zero)) & 0x3FFFFFF;
        uint32_t theirs = (uint32_t)_mm256_movemask_epi8(x) & 0x3FFFFFF;
        if (nardy_six_runs(mine, theirs))
            return i;
        out[i] = 0;
    }
    return i;
}
#endif

/* From row i of b (26 int8 each) on, out[row] = 0 for every row in which neither side holds a
 * six-block, up to the first row that needs a closer look (returned; n when there is none). */
static inline ptrdiff_t nardy_clear_blockless(const int8_t *b, ptrdiff_t i, ptrdiff_t n, uint8_t *out) {
#ifdef NARDY_X86
    if (nardy_avx2()) {
        i = nardy_clear_avx2(b, i, n, out);
        if (i < n - 1)
            return i;
    }
    return nardy_clear_sse2(b, i, n, out);
#else
    (void)b; (void)n; (void)out;
    return i;  /* every row is looked at closely */
#endif
}

#ifdef NARDY_X86
/* Pip counts of the rows of b (26 int8 each) into out (2 int32 each), two rows per step:
 * each row is one 32-byte vector whose entries are weighted by their point numbers. Returns the
 * rows done: never the last (a vector reads 6 bytes past its row). */
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

#ifdef NARDY_X86
/* nardy_pips_rows from row i on, one row at a time with SSE2: two 16-byte reads (entries 0..15
 * and 10..25), each split into the mover's checkers max(x, 0) and the opponent's max(-x, 0),
 * widened to 16 bits and dotted with the points' numbers; the bars are added on their own. */
static inline ptrdiff_t nardy_pips_sse2(const int8_t *b, ptrdiff_t i, ptrdiff_t n, int variant, int32_t *out) {
    const __m128i zero = _mm_setzero_si128();
    /* weights of entries 0..7, 8..15 (first read), 10..17, 18..25 (second read: 10..15 done) */
    const __m128i m0 = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), m1 = _mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i m2 = _mm_setr_epi16(0, 0, 0, 0, 0, 0, 16, 17), m3 = _mm_setr_epi16(18, 19, 20, 21, 22, 23, 24, 0);
    __m128i o0, o1, o2, o3;  /* the opponent's numbers of the same entries */
    if (variant == 0) {
        o0 = _mm_setr_epi16(0, 13, 14, 15, 16, 17, 18, 19), o1 = _mm_setr_epi16(20, 21, 22, 23, 24, 1, 2, 3);
        o2 = _mm_setr_epi16(0, 0, 0, 0, 0, 0, 4, 5), o3 = _mm_setr_epi16(6, 7, 8, 9, 10, 11, 12, 0);
    } else {
        o0 = _mm_setr_epi16(0, 24, 23, 22, 21, 20, 19, 18), o1 = _mm_setr_epi16(17, 16, 15, 14, 13, 12, 11, 10);
        o2 = _mm_setr_epi16(0, 0, 0, 0, 0, 0, 9, 8), o3 = _mm_setr_epi16(7, 6, 5, 4, 3, 2, 1, 0);
    }
    for (; i < n; i++) {
        const int8_t *row = b + 26 * i;
        __m128i x = _mm_loadu_si128((const __m128i *)row), y = _mm_loadu_si128((const __m128i *)(row + 10));
        __m128i px = _mm_and_si128(x, _mm_cmpgt_epi8(x, zero)), nx = _mm_sub_epi8(px, x);
        __m128i py = _mm_and_si128(y, _mm_cmpgt_epi8(y, zero)), ny = _mm_sub_epi8(py, y);
        __m128i mine = _mm_add_epi32(
            _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(px, zero), m0), _mm_madd_epi16(_mm_unpackhi_epi8(px, zero), m1)),
            _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(py, zero), m2), _mm_madd_epi16(_mm_unpackhi_epi8(py, zero), m3)));
        __m128i theirs = _mm_add_epi32(
            _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(nx, zero), o0), _mm_madd_epi16(_mm_unpackhi_epi8(nx, zero), o1)),
            _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(ny, zero), o2), _mm_madd_epi16(_mm_unpackhi_epi8(ny, zero), o3)));
        __m128i t = _mm_add_epi32(_mm_unpacklo_epi32(mine, theirs), _mm_unpackhi_epi32(mine, theirs));
        t = _mm_add_epi32(t, _mm_unpackhi_epi64(t, t));  /* low half: [mover, opponent] */
        t = _mm_add_epi32(t, _mm_setr_epi32(25 * row[25], -25 * row[0], 0, 0));
        _mm_storel_epi64((__m128i *)(out + 2 * i), t);
    }
    return i;
}
#endif

/* The rows of b (from the first) whose pip counts a SIMD path wrote into out. */
static inline ptrdiff_t nardy_pips_rows(const int8_t *b, ptrdiff_t n, int variant, int32_t *out) {
#ifdef NARDY_X86
    ptrdiff_t i = nardy_avx2() ? nardy_pips_avx2(b, n, variant, out) : 0;
    return nardy_pips_sse2(b, i, n, variant, out);
#else
    (void)b; (void)n; (void)variant; (void)out;
    return 0;
#endif
}

/* Nonzero if an entry of the 26-entry row b is outside -15..15 (the lean path's first check).
 * SSE2: entries 0..15 and 10..25 plus 15, as bytes, must be 0..30 (unsigned). */
static inline int nardy_entries_outside(const int8_t *b) {
#ifdef NARDY_X86
    const __m128i c15 = _mm_set1_epi8(15), c30 = _mm_set1_epi8(30);
    __m128i lo = _mm_add_epi8(_mm_loadu_si128((const __m128i *)b), c15);
    __m128i hi = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(b + 10)), c15);
    __m128i ok = _mm_and_si128(_mm_cmpeq_epi8(_mm_min_epu8(lo, c30), lo), _mm_cmpeq_epi8(_mm_min_epu8(hi, c30), hi));
    return _mm_movemask_epi8(ok) != 0xFFFF;
#else
    uint8_t outside = 0;
    for (int k = 0; k < 26; k++)
        outside |= (uint8_t)(b[k] + 15) > 30;
    return outside;
#endif
}

#endif
