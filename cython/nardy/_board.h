/* C of _board.pxd: the byte order the core assumes, and scan() over SSE2 where the target has it. */
#ifndef NARDY_BOARD_H
#define NARDY_BOARD_H

#include <stdint.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "nardy's core reads eight points at a time as little-endian 64-bit words"
#endif

#if defined(__GNUC__) && defined(__SSE2__)
#include <emmintrin.h>
#define NARDY_SCAN_SSE2 1
/* scan() over SSE2 (the x86-64 baseline): points 1..16, then 17..24, one compare each. */
static inline void nardy_scan_sse2(const int8_t* b, uint32_t* mine, uint32_t* theirs, uint32_t* closed,
                                   int* n_mine, int* n_theirs) {
    const __m128i zero = _mm_setzero_si128(), minus1 = _mm_set1_epi8(-1);
    __m128i lo = _mm_loadu_si128((const __m128i*)(b + 1));
    __m128i hi = _mm_loadl_epi64((const __m128i*)(b + 17));
    __m128i pos_lo = _mm_cmpgt_epi8(lo, zero), pos_hi = _mm_cmpgt_epi8(hi, zero);
    __m128i neg_lo = _mm_cmpgt_epi8(zero, lo), neg_hi = _mm_cmpgt_epi8(zero, hi);
    __m128i sums;
    *mine = (uint32_t)_mm_movemask_epi8(pos_lo) | (uint32_t)_mm_movemask_epi8(pos_hi) << 16;
    *theirs = (uint32_t)_mm_movemask_epi8(neg_lo) | (uint32_t)_mm_movemask_epi8(neg_hi) << 16;
    *closed = (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(minus1, lo))
              | (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(minus1, hi)) << 16;
    sums = _mm_add_epi64(_mm_sad_epu8(_mm_and_si128(lo, pos_lo), zero),
                         _mm_sad_epu8(_mm_and_si128(hi, pos_hi), zero));
    *n_mine = _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    sums = _mm_add_epi64(_mm_sad_epu8(_mm_and_si128(_mm_sub_epi8(zero, lo), neg_lo), zero),
                         _mm_sad_epu8(_mm_and_si128(_mm_sub_epi8(zero, hi), neg_hi), zero));
    *n_theirs = _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
}
#else
#define NARDY_SCAN_SSE2 0
static inline void nardy_scan_sse2(const int8_t* b, uint32_t* mine, uint32_t* theirs, uint32_t* closed,
                                   int* n_mine, int* n_theirs) {}
#endif

#endif
