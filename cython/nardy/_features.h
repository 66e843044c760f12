/* The evaluator's expert inputs (nardy.evaluation.net, docs/evaluator-inputs.md): 28 numbers a board,
 * computed from the board alone, for the side on roll ("us") and the other side ("them").
 *
 * Each side S is seen in its own point numbers (q = 1..24, moving from 24 towards 1; in short
 * nardy its bar is q = 25). The other side O is then placed on S's numbers: in short nardy O's
 * point r stands on S's 25 - r and O's bar on S's 0; in long nardy O's point r on S's r + 12 or
 * r - 12. The 13 inputs of a side (units 0..12 for us, 13..25 for them) and the two common ones
 * (26: race lead, 27: contact) are listed in NARDY_FEAT_* below and in the docs; the pure-Python
 * definition the core is tested against is tests/features_reference.py.
 *
 * Escapes use a table of 4096 entries (nardy_feat_init): for each pattern of blocked points at
 * distances 1..12 ahead, the number of the 36 rolls with which a checker can land beyond the
 * farthest of them. No Python objects; safe without the GIL once the table is built.
 */
#ifndef NARDY_FEATURES_H
#define NARDY_FEATURES_H

#include <stdint.h>

#define NARDY_FEAT_SIDE 13
#define NARDY_FEAT_COUNT (2 * NARDY_FEAT_SIDE + 2)

static uint8_t nardy_feat_escape_table[4096 + 4];   /* (+4: the AVX2 path gathers 4 bytes at a time) */
static int nardy_feat_ready = 0;

/* Rolls (of 36) with which a checker lands beyond every blocked distance of `mask` (bit i:
 * distance 12 - i blocked, i = 0..11), moving one die at a time onto open points only. */
static int nardy_feat_escapes_slow(int far_first) {
    int mask = 0;                                    /* bit i: distance i + 1 */
    for (int i = 0; i < 12; i++)
        if ((far_first >> i) & 1)
            mask |= 1 << (11 - i);
    if (mask == 0)
        return 36;
    int last = 32 - __builtin_clz((unsigned)mask);   /* the farthest blocked distance */
    int count = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++) {
            int far = 0;
#define NARDY_OPEN(d) ((d) > 12 || !((mask >> ((d) - 1)) & 1))
            if (a == b) {
                for (int k = 1; k <= 4 && NARDY_OPEN(k * a); k++)
                    far = k * a;
            } else {
                if (NARDY_OPEN(a))
                    far = a;
                if (NARDY_OPEN(b) && b > far)
                    far = b;
                if ((NARDY_OPEN(a) || NARDY_OPEN(b)) && NARDY_OPEN(a + b))
                    far = a + b;
            }
#undef NARDY_OPEN
            count += far > last;
        }
    return count;
}

static void nardy_feat_init(void) {
    if (nardy_feat_ready)
        return;
    for (int m = 0; m < 4096; m++)
        nardy_feat_escape_table[m] = (uint8_t)nardy_feat_escapes_slow(m);
    nardy_feat_ready = 1;
}

/* Escapes of a checker on S's point q (short: up to 25, the bar) past the points `blocked`
 * (bit x: S's point x is blocked; x = 1..24). */
static inline int nardy_feat_escapes(uint32_t blocked, int q) {
    /* bit j of the index: point q - 12 + j (bit 0 of `blocked`, point 0, is never set) */
    uint32_t window = q >= 12 ? blocked >> (q - 12) : blocked << (12 - q);
    return nardy_feat_escape_table[window & 0xFFF];
}

static inline int nardy_feat_longest_run(uint32_t made) {
    int run = 0;
    while (made) {                                   /* each pass shortens every run by one */
        made &= made >> 1;
        run++;
    }
    return run;
}

/* Rolls (of 36) with which O, standing on `opp` (bit x: O has checkers on S's point x; bit 0:
 * O's bar) and moving up S's numbers, lands on one of S's `blots` using one die (direct) or
 * any of its steps (any), never landing on S's `made` points. */
static inline void nardy_feat_shots(uint32_t opp, uint32_t made, uint32_t blots, int *direct, int *any) {
    const uint32_t board = 0x1FFFFFE;   /* bits 1..24 */
    if (!blots || !opp) {
        *direct = *any = 0;
        return;
    }
    uint32_t open_[7];                  /* open_[d]: where a checker lands with a die of d (not on made) */
    int hit[7];                         /* hit[d]: a die of d hits directly */
    for (int d = 1; d <= 6; d++) {
        uint32_t land = (opp << d) & board;
        hit[d] = (land & blots) != 0;
        open_[d] = land & ~made;
    }
    int d_count = 0, a_count = 0;
    for (int a = 1; a <= 6; a++) {
        uint32_t m = open_[a];          /* doubles: up to four steps of a */
        int h = hit[a];
        for (int k = 1; k < 4; k++) {
            m = (m << a) & ~made & board;
            h |= (m & blots) != 0;
        }
        d_count += hit[a];
        a_count += h;
        for (int b = a + 1; b <= 6; b++) {   /* a, b and b, a alike: counted twice */
            int direct_ab = hit[a] | hit[b];
            int both = ((((open_[a] << b) | (open_[b] << a)) & blots) != 0);
            d_count += 2 * direct_ab;
            a_count += 2 * (direct_ab | both);
        }
    }
    *direct = d_count;
    *any = a_count;
}

/* A side in its own numbers: its checkers on each point (short nardy: [25] its bar), which
 * points it holds (1+), has made (2+) or has a blot on (bits 1..24), its pips and rearmost point. */
typedef struct {
    int n[26];
    uint32_t held, made, blots;
    int pips, top;
} nardy_feat_side_t;

static inline int nardy_feat_popcount(uint32_t v) {   /* (no popcnt instruction in the baseline) */
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (int)((((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* A side's checkers `c` (>= 0) on its point x. */
static inline void nardy_feat_put(nardy_feat_side_t *s, int x, int c) {
    s->n[x] = c;
    s->held |= (uint32_t)(c > 0) << x;
    s->made |= (uint32_t)(c > 1) << x;
    s->blots |= (uint32_t)(c == 1) << x;
    s->pips += x * c;
}

static inline void nardy_feat_summary(nardy_feat_side_t *s, int short_game) {
    s->pips += short_game ? 25 * s->n[25] : 0;
    s->top = short_game && s->n[25] > 0 ? 25 : (s->held ? 31 - __builtin_clz(s->held) : 0);
}

/* Points (bits 1..24) of one side moved to the other side's numbers. */
static inline uint32_t nardy_feat_turn(uint32_t bits, int short_game) {
    if (short_game) {                                /* x -> 25 - x: bit x of the reversed word is 31 - x */
        uint32_t r = bits;
        r = ((r >> 1) & 0x55555555u) | ((r & 0x55555555u) << 1);
        r = ((r >> 2) & 0x33333333u) | ((r & 0x33333333u) << 2);
        r = ((r >> 4) & 0x0F0F0F0Fu) | ((r & 0x0F0F0F0Fu) << 4);
        r = __builtin_bswap32(r);
        return r >> 6;
    }
    uint32_t b = bits >> 1;                          /* x -> x + 12 or x - 12: rotated by 12 */
    return (((b << 12) | (b >> 12)) & 0xFFFFFFu) << 1;
}

/* The 13 inputs of side S (`o`: the other side O, in its own numbers). */
static inline void nardy_feat_side(const nardy_feat_side_t *s, const nardy_feat_side_t *o, int short_game,
                                   float *f) {
    const int *own = s->n;
    uint32_t opp_held = nardy_feat_turn(o->held, short_game);   /* O on S's numbers */
    uint32_t opp_made = nardy_feat_turn(o->made, short_game);
    int opp_bar = short_game && o->n[25] > 0;
    int last = short_game ? 25 : 24;
    /* O's rearmost checker on S's numbers (its bar: 0; none: 99) */
    int low = opp_bar ? 0 : (opp_held ? __builtin_ctz(opp_held) : 99);
    int brk = 0, free_ = 0;                          /* pips to pass it; checkers already past it */
    for (int x = 1; x <= last; x++) {
        int beyond = x > low;
        brk += beyond * own[x] * (x - low);
        free_ += !beyond * own[x];
    }
    int home = nardy_feat_popcount(s->made & 0x7E);
    f[0] = s->pips / 100.0f;
    if (short_game) {
        int direct, any, trapped = 36, back = own[25], timing = 19 * own[25];
        nardy_feat_shots(opp_held | (uint32_t)opp_bar, s->made, s->blots, &direct, &any);
        for (int q = 13; q <= 24; q++) {
            int e = nardy_feat_escapes(opp_made, q);
            trapped = e < trapped ? e : trapped;
        }
        for (int x = 19; x <= 24; x++)
            back += own[x];
        for (int x = 7; x <= 24; x++)
            timing += own[x] * (x - 6);
        f[1] = brk / 100.0f;
        f[2] = nardy_feat_popcount(s->blots) / 8.0f;
        f[3] = any / 36.0f;
        f[4] = home / 6.0f;
        f[5] = nardy_feat_longest_run(s->made) / 6.0f;
        f[6] = nardy_feat_popcount(s->made & (0x3Fu << 19)) / 3.0f;
        f[7] = (s->top ? nardy_feat_escapes(opp_made, s->top) : 36) / 36.0f;
        f[8] = 1.0f - trapped / 36.0f;
        f[9] = back / 5.0f;
        f[10] = timing / 100.0f;
        f[11] = opp_bar ? (home / 6.0f) * (home / 6.0f) : 0.0f;
        f[12] = direct / 36.0f;
    } else {
        int trapped = 36, half = 0, run = nardy_feat_longest_run(s->held), in_home = 0;
        /* S's points among the 12 (and the 6) ahead of O's rearmost checker, in O's numbers */
        uint32_t mine = nardy_feat_turn(s->held, 0);
        int t = o->top;
        uint32_t ahead12 = t > 1 ? mine & (((1u << (t - 1)) - 1) << 1) & ~((t > 13 ? (1u << (t - 12)) : 1u) - 1) : 0;
        uint32_t ahead6 = t > 1 ? mine & (((1u << (t - 1)) - 1) << 1) & ~((t > 7 ? (1u << (t - 6)) : 1u) - 1) : 0;
        for (int q = 13; q <= 24; q++) {
            int e = nardy_feat_escapes(opp_held, q);
            trapped = e < trapped ? e : trapped;
        }
        for (int x = 13; x <= 24; x++)
            half += own[x];
        for (int x = 1; x <= 6; x++)
            in_home += own[x];
        f[1] = own[24] / 15.0f;
        f[2] = half / 15.0f;
        f[3] = free_ / 15.0f;
        f[4] = run / 6.0f;
        f[5] = run >= 5 ? 1.0f : 0.0f;
        f[6] = nardy_feat_popcount(ahead6) / 6.0f;
        f[7] = nardy_feat_popcount(ahead12) / 12.0f;
        f[8] = (s->top ? nardy_feat_escapes(opp_held, s->top) : 36) / 36.0f;
        f[9] = 1.0f - trapped / 36.0f;
        f[10] = nardy_feat_popcount(s->held & 0x7E) / 6.0f;
        f[11] = in_home / 15.0f;
        f[12] = brk / 100.0f;
    }
}

/* The 28 inputs of a board (26 int8, the positive side's view; `flip` 0: the positive side is
 * on roll, 1: the negative side is). */
static inline void nardy_features(const int8_t *b, int short_game, int flip, float *f) {
    nardy_feat_side_t pos = {{0}, 0, 0, 0, 0, 0}, neg = {{0}, 0, 0, 0, 0, 0};   /* each in its own numbers */
    for (int p = 1; p <= 24; p++) {                  /* (no branch on the board: they mispredict) */
        int q = short_game ? 25 - p : (p <= 12 ? p + 12 : p - 12), c = b[p];
        nardy_feat_put(&pos, p, c > 0 ? c : 0);
        nardy_feat_put(&neg, q, c < 0 ? -c : 0);
    }
    if (short_game) {
        pos.n[25] = b[25];
        neg.n[25] = -b[0];
    }
    nardy_feat_summary(&pos, short_game);
    nardy_feat_summary(&neg, short_game);
    const nardy_feat_side_t *us = flip ? &neg : &pos, *them = flip ? &pos : &neg;
    nardy_feat_side(us, them, short_game, f);
    nardy_feat_side(them, us, short_game, f + NARDY_FEAT_SIDE);
    f[2 * NARDY_FEAT_SIDE] = (them->pips - us->pips) / 100.0f;
    /* contact: some checker of either side has still to pass one of the other's */
    int brk = short_game ? 1 : 12;
    f[2 * NARDY_FEAT_SIDE + 1] = (f[brk] > 0 || f[NARDY_FEAT_SIDE + brk] > 0) ? 1.0f : 0.0f;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

/* The same 28 inputs with AVX2 (and BMI, POPCNT), for the forward pass's AVX2 loops: each side
 * is one vector of 32 signed bytes in its own numbers (its checkers > 0, the other side's < 0),
 * its masks are compares, its sums (pips, timing, the checkers past the other side, ...) dot
 * products with constant weights, and the shots take the six dice in six lanes. Every value is
 * an integer before the one division that makes it a float, so both paths give the same floats
 * (tests/evaluation/test_features.py checks each against the Python definition). */
#define NARDY_FEAT_ISA "avx2,fma,bmi,bmi2,popcnt"

/* Bits of the lanes of a (8 x 32) that are not zero. */
__attribute__((target(NARDY_FEAT_ISA))) static inline int nardy_feat_nonzero8(__m256i a) {
    return ~_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, _mm256_setzero_si256()))) & 0xFF;
}

/* The shots of nardy_feat_shots, the dice in lanes (lane d - 1: a die of d; lanes 6, 7 idle). */
__attribute__((target(NARDY_FEAT_ISA))) static inline __attribute__((always_inline)) void nardy_feat_shots_avx2(
        uint32_t opp, uint32_t made, uint32_t blots, int *direct, int *any) {
    const __m256i dice = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 32, 32);   /* (a shift by 32 gives 0) */
    const __m256i open_points = _mm256_set1_epi32((int)(~made & 0x1FFFFFEu));
    const __m256i vblots = _mm256_set1_epi32((int)blots);
    __m256i land = _mm256_and_si256(_mm256_sllv_epi32(_mm256_set1_epi32((int)opp), dice),
                                    _mm256_set1_epi32(0x1FFFFFE));
    __m256i open_ = _mm256_and_si256(land, open_points);
    __m256i hits = _mm256_and_si256(land, vblots);
    int hit = nardy_feat_nonzero8(hits);                                 /* bit d - 1: a die of d hits */
    int k = __builtin_popcount((unsigned)hit);
    __m256i m = open_;                                                   /* doubles: up to four steps */
    for (int step = 1; step < 4; step++) {
        m = _mm256_and_si256(_mm256_sllv_epi32(m, dice), open_points);
        hits = _mm256_or_si256(hits, _mm256_and_si256(m, vblots));
    }
    int count = __builtin_popcount((unsigned)nardy_feat_nonzero8(hits));
    uint32_t opens[8] __attribute__((aligned(32)));
    _mm256_store_si256((__m256i *)opens, open_);
    for (int a = 1; a <= 5; a++) {                                      /* a, b (b > a) and b, a */
        __m256i x = _mm256_or_si256(_mm256_sllv_epi32(_mm256_set1_epi32((int)opens[a - 1]), dice),
                                    _mm256_sll_epi32(open_, _mm_cvtsi32_si128(a)));
        int both = nardy_feat_nonzero8(_mm256_and_si256(x, vblots)) | hit | (((hit >> (a - 1)) & 1) ? 0x3F : 0);
        count += 2 * __builtin_popcount((unsigned)(both & 0x3F & ~((1 << a) - 1)));
    }
    *direct = 36 - (6 - k) * (6 - k);
    *any = count;
}

/* A side in its own numbers, from its vector of signed bytes. */
typedef struct {
    uint32_t held, made, blots;   /* its points (bits 1..24) */
    uint32_t opp, opp_made;       /* the other side's points on its numbers (opp: short nardy's bar as bit 0) */
    int top, bar, count, head;    /* its rearmost point (0: none), checkers on its bar, on points 1..24, on 24 */
    int sums[8];                  /* the dot products of nardy_feat_view_avx2 */
} nardy_feat_view_t;

__attribute__((target(NARDY_FEAT_ISA))) static inline int nardy_feat_mask(__m256i a) {
    return _mm256_movemask_epi8(a);
}

/* Sum of each of four vectors of eight int32 lanes into out[0..3]. */
__attribute__((target(NARDY_FEAT_ISA))) static inline void nardy_feat_sum4(__m256i a, __m256i b, __m256i c, __m256i d,
                                                                          int *out) {
    __m256i s = _mm256_hadd_epi32(_mm256_hadd_epi32(a, b), _mm256_hadd_epi32(c, d));
    _mm_storeu_si128((__m128i *)out, _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1)));
}

__attribute__((target(NARDY_FEAT_ISA))) static inline __m256i nardy_feat_dot(__m256i own, __m256i w) {
    return _mm256_madd_epi16(_mm256_maddubs_epi16(own, w), _mm256_set1_epi16(1));
}

/* sums: 0 pips, 1 pips past the other side's rearmost checker (brk), 2 checkers past it,
 * 3 all checkers (bar included); short: 4 timing, 5 back (bar included); long: 4 on 13..24,
 * 5 on 1..6. */
__attribute__((target(NARDY_FEAT_ISA))) static inline __attribute__((always_inline)) void nardy_feat_view_avx2(
        __m256i s, int short_game, nardy_feat_view_t *v) {
    const uint32_t board = 0x1FFFFFE;
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi8(1);
    const __m256i index = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                           20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    __m256i own = _mm256_max_epi8(s, zero);
    uint32_t held = (uint32_t)nardy_feat_mask(_mm256_cmpgt_epi8(s, zero));
    v->held = held & board;
    v->made = (uint32_t)nardy_feat_mask(_mm256_cmpgt_epi8(s, one)) & board;
    v->blots = (uint32_t)nardy_feat_mask(_mm256_cmpeq_epi8(s, one)) & board;
    uint32_t opp = (uint32_t)nardy_feat_mask(_mm256_cmpgt_epi8(zero, s));
    v->opp = opp & (short_game ? board | 1u : board);
    v->opp_made = (uint32_t)nardy_feat_mask(_mm256_cmpgt_epi8(_mm256_set1_epi8(-1), s)) & board;
    held &= short_game ? 0x3FFFFFEu : board;                         /* (bit 25: the bar) */
    v->top = held ? 31 - __builtin_clz(held) : 0;
    v->bar = short_game ? (int)(int8_t)_mm256_extract_epi8(s, 25) : 0;
    v->head = (int)(int8_t)_mm256_extract_epi8(own, 24);
    int low = v->opp ? __builtin_ctz(v->opp) : 99;
    __m256i past = _mm256_subs_epu8(index, _mm256_set1_epi8((char)low));   /* x - low where x > low, else 0 */
    __m256i w_pips = short_game ? index : _mm256_min_epu8(index, _mm256_set1_epi8(24));
    __m256i a = nardy_feat_dot(own, w_pips), b = nardy_feat_dot(own, past);
    __m256i c = nardy_feat_dot(own, _mm256_min_epu8(past, one)), d = nardy_feat_dot(own, one);
    __m256i e, f;
    if (short_game) {
        e = nardy_feat_dot(own, _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                                 14, 15, 16, 17, 18, 19, 0, 0, 0, 0, 0, 0));
        f = nardy_feat_dot(own, _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                                 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0));
    } else {
        e = nardy_feat_dot(own, _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                                 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0));
        f = nardy_feat_dot(own, _mm256_setr_epi8(0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }
    nardy_feat_sum4(a, b, c, d, v->sums);
    nardy_feat_sum4(e, f, zero, zero, v->sums + 4);
    v->count = v->sums[3] - v->bar;
}

/* The longest run of set bits: six passes without a branch, then a loop for longer ones. */
static inline int nardy_feat_longest_run6(uint32_t bits) {
    int run = 0;
    for (int k = 0; k < 6; k++) {
        run += bits != 0;
        bits &= bits >> 1;
    }
    while (bits) {
        bits &= bits >> 1;
        run++;
    }
    return run;
}

/* The fewest escapes from S's points 13..24 past the points `blocked` (nardy_feat_escapes, gathered). */
__attribute__((target(NARDY_FEAT_ISA))) static inline int nardy_feat_trapped_avx2(uint32_t blocked) {
    const int *table = (const int *)(const void *)nardy_feat_escape_table;   /* (bytes, read 4 at a time) */
    __m256i w = _mm256_set1_epi32((int)blocked), mask = _mm256_set1_epi32(0xFFF);
    __m256i lo = _mm256_and_si256(_mm256_srlv_epi32(w, _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8)), mask);
    __m256i hi = _mm256_and_si256(_mm256_srlv_epi32(w, _mm256_setr_epi32(9, 10, 11, 12, 12, 12, 12, 12)), mask);
    __m256i bytes = _mm256_set1_epi32(0xFF);
    __m256i e = _mm256_min_epu32(_mm256_and_si256(_mm256_i32gather_epi32(table, lo, 1), bytes),
                                 _mm256_and_si256(_mm256_i32gather_epi32(table, hi, 1), bytes));
    __m128i m = _mm_min_epu32(_mm256_castsi256_si128(e), _mm256_extracti128_si256(e, 1));
    m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0x4E));
    m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0xB1));
    return _mm_cvtsi128_si32(m);
}

/* The 13 inputs of side S (`o`: the other side O), as nardy_feat_side. */
__attribute__((target(NARDY_FEAT_ISA))) static inline __attribute__((always_inline)) void nardy_feat_side_avx2(
        const nardy_feat_view_t *s, const nardy_feat_view_t *o, int short_game, float *f) {
    int brk = s->sums[1], free_ = s->sums[3] - s->sums[2];
    f[0] = s->sums[0] / 100.0f;
    if (short_game) {
        int direct, any, opp_bar = s->opp & 1, home = __builtin_popcount(s->made & 0x7E);
        nardy_feat_shots_avx2(s->opp, s->made, s->blots, &direct, &any);
        int trapped = nardy_feat_trapped_avx2(s->opp_made);
        f[1] = brk / 100.0f;
        f[2] = __builtin_popcount(s->blots) / 8.0f;
        f[3] = any / 36.0f;
        f[4] = home / 6.0f;
        f[5] = nardy_feat_longest_run6(s->made) / 6.0f;
        f[6] = __builtin_popcount(s->made & (0x3Fu << 19)) / 3.0f;
        f[7] = (s->top ? nardy_feat_escapes(s->opp_made, s->top) : 36) / 36.0f;
        f[8] = 1.0f - trapped / 36.0f;
        f[9] = s->sums[5] / 5.0f;
        f[10] = s->sums[4] / 100.0f;
        f[11] = opp_bar ? (home / 6.0f) * (home / 6.0f) : 0.0f;
        f[12] = direct / 36.0f;
    } else {
        int run = nardy_feat_longest_run6(s->held);
        uint32_t mine = o->opp;                     /* S's points in O's numbers */
        int t = o->top;
        uint32_t ahead12 = t > 1 ? mine & (((1u << (t - 1)) - 1) << 1) & ~((t > 13 ? (1u << (t - 12)) : 1u) - 1) : 0;
        uint32_t ahead6 = t > 1 ? mine & (((1u << (t - 1)) - 1) << 1) & ~((t > 7 ? (1u << (t - 6)) : 1u) - 1) : 0;
        int trapped = nardy_feat_trapped_avx2(s->opp);
        f[1] = s->head / 15.0f;
        f[2] = s->sums[4] / 15.0f;
        f[3] = free_ / 15.0f;
        f[4] = run / 6.0f;
        f[5] = run >= 5 ? 1.0f : 0.0f;
        f[6] = __builtin_popcount(ahead6) / 6.0f;
        f[7] = __builtin_popcount(ahead12) / 12.0f;
        f[8] = (s->top ? nardy_feat_escapes(s->opp, s->top) : 36) / 36.0f;
        f[9] = 1.0f - trapped / 36.0f;
        f[10] = __builtin_popcount(s->held & 0x7E) / 6.0f;
        f[11] = s->sums[5] / 15.0f;
        f[12] = brk / 100.0f;
    }
}

/* The two sides' vectors of a board: `pos` (its positive side's numbers), `neg` (its negative
 * side's); two 16-byte reads (entries 0..15 and 10..25), within the row. */
__attribute__((target(NARDY_FEAT_ISA))) static inline __attribute__((always_inline)) void nardy_feat_vectors(
        const int8_t *b, int short_game, __m256i *pos, __m256i *neg) {
    __m128i lo = _mm_loadu_si128((const __m128i *)b), hi = _mm_loadu_si128((const __m128i *)(b + 10));
    __m256i p = _mm256_set_m128i(_mm_srli_si128(hi, 6), lo), n;
    if (short_game) {                              /* q <- 25 - q */
        n = _mm256_set_m128i(_mm_shuffle_epi8(lo, _mm_setr_epi8(9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -1, -1, -1, -1, -1)),
                             _mm_shuffle_epi8(hi, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)));
    } else {                                       /* q <- q + 12 (q <= 12), q - 12; no bars */
        const __m256i points = _mm256_setr_epi8(0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0);
        p = _mm256_and_si256(p, points);
        n = _mm256_set_m128i(_mm_shuffle_epi8(lo, _mm_setr_epi8(4, 5, 6, 7, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1, -1)),
                             _mm_or_si128(_mm_shuffle_epi8(hi, _mm_setr_epi8(-1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                                                             -1, -1, -1)),
                                          _mm_shuffle_epi8(lo, _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                                             -1, -1, -1, 1, 2, 3))));
    }
    *pos = p;
    *neg = _mm256_sub_epi8(_mm256_setzero_si256(), n);
}

/* nardy_features with AVX2 (the CPU must have NARDY_FEAT_ISA); also the checkers of each side on
 * points 1..24 and on its bar (counts[0..3]: us, them; us's bar, them's bar) and the points
 * the board occupies (bits 1..24), for the forward pass. */
__attribute__((target(NARDY_FEAT_ISA))) static inline __attribute__((always_inline)) void nardy_features_avx2(
        const int8_t *b, int short_game, int flip, int want, float *f, int *counts, uint32_t *occupied) {
    __m256i pos, neg;
    nardy_feat_vectors(b, short_game, &pos, &neg);
    nardy_feat_view_t vp, vn;
    nardy_feat_view_avx2(pos, short_game, &vp);
    nardy_feat_view_avx2(neg, short_game, &vn);
    const nardy_feat_view_t *us = flip ? &vn : &vp, *them = flip ? &vp : &vn;
    counts[0] = us->count;
    counts[1] = them->count;
    counts[2] = us->bar;
    counts[3] = them->bar;
    *occupied = vp.held | vp.opp;
    *occupied &= 0x1FFFFFE;
    if (!want)
        return;
    nardy_feat_side_avx2(us, them, short_game, f);
    nardy_feat_side_avx2(them, us, short_game, f + NARDY_FEAT_SIDE);
    f[2 * NARDY_FEAT_SIDE] = (them->sums[0] - us->sums[0]) / 100.0f;
    f[2 * NARDY_FEAT_SIDE + 1] = (us->sums[1] > 0 || them->sums[1] > 0) ? 1.0f : 0.0f;
}
#endif

#endif
