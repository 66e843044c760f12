/* The evaluator's forward pass (nardy.eval): one hidden layer over TD-Gammon's 198 units.
 *
 * Each board is read as it lies (a mover's-view row of 26 int8) and its units are never
 * materialised: the hidden layer starts from its bias and adds the weight row of every nonzero
 * unit, so a board costs about 30 rows of `hidden` floats instead of 198. The units are those of
 * nardy.env.encode for the side on roll: with `flip` 0 the board's positive side is on roll (a
 * position before its move), with `flip` 1 its negative side (an afterstate: the mover has moved
 * and the other side is to roll), exactly encode(flip(board)).
 *
 * hidden: softsign x / (1 + |x|); outputs: the logistic function. The same loops are compiled
 * twice, for the x86-64 baseline and for AVX2 with FMA, and the AVX2 one is chosen at run time
 * (never by build flags). Results of the two may differ in the last bits (FMA rounds once).
 */
#ifndef NARDY_NET_H
#define NARDY_NET_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define NARDY_NET_UNITS 198
#define NARDY_NET_OUTPUTS 5
#define NARDY_NET_MAX_HIDDEN 256
#define NARDY_NET_HIDDEN 64      /* the shipped nets' size, compiled with constant trip counts */

/* add v * row to h (h and row: `hidden` floats) */
static inline __attribute__((always_inline)) void nardy_net_add(float *restrict h, const float *restrict row,
                                                               float v, int hidden) {
    for (int j = 0; j < hidden; j++)
        h[j] += v * row[j];
}

/* the four units of n checkers on one point: n>=1, n>=2, n>=3, (n-3)/2, in one pass over h */
static inline __attribute__((always_inline)) void nardy_net_point(float *restrict h, const float *restrict w1,
                                                                  int unit, int n, int hidden) {
    const float *r0 = w1 + (ptrdiff_t)unit * hidden, *r1 = r0 + hidden, *r2 = r1 + hidden, *r3 = r2 + hidden;
    if (n == 1) {
        for (int j = 0; j < hidden; j++) h[j] += r0[j];
    } else if (n == 2) {
        for (int j = 0; j < hidden; j++) h[j] += r0[j] + r1[j];
    } else if (n == 3) {
        for (int j = 0; j < hidden; j++) h[j] += r0[j] + r1[j] + r2[j];
    } else {
        float v = (n - 3) * 0.5f;
        for (int j = 0; j < hidden; j++) h[j] += r0[j] + r1[j] + r2[j] + v * r3[j];
    }
}

static inline __attribute__((always_inline)) void nardy_net_body(
        const int8_t *boards, ptrdiff_t n, int short_game, int flip, const float *restrict w1,
        const float *restrict b1, const float *restrict w2, const float *restrict b2, int hidden,
        float *restrict out) {
    float h[NARDY_NET_MAX_HIDDEN] __attribute__((aligned(32)));
    for (ptrdiff_t i = 0; i < n; i++) {
        const int8_t *b = boards + 26 * i;
        int us_count = 0, them_count = 0;       /* checkers on points 1..24 */
        for (int j = 0; j < hidden; j++)
            h[j] = b1[j];
        for (int p = 1; p <= 24; p++) {
            int c = flip ? -b[p] : b[p];          /* > 0: the side on roll's checkers */
            if (c == 0) continue;
            /* each side's units in its own numbers: the positive side's point p is p, the
             * negative side's is opposite(p) */
            int q = short_game ? 25 - p : (p <= 12 ? p + 12 : p - 12);
            int own = (c > 0) == !flip ? p : q;
            if (c > 0) {
                us_count += c;
                nardy_net_point(h, w1, 4 * (own - 1), c, hidden);
            } else {
                them_count -= c;
                nardy_net_point(h, w1, 98 + 4 * (own - 1), -c, hidden);
            }
        }
        float x96, x97, y96, y97;                /* units 96/97 of us (x) and them (y) */
        if (short_game) {
            int us_bar = flip ? -b[0] : b[25], them_bar = flip ? b[25] : -b[0];
            x96 = us_bar * 0.5f;
            y96 = them_bar * 0.5f;
            x97 = (15 - us_count - us_bar) / 15.0f;
            y97 = (15 - them_count - them_bar) / 15.0f;
        } else {
            x96 = (15 - us_count) / 15.0f;
            y96 = (15 - them_count) / 15.0f;
            int pos_head = b[24] == 15, neg_head = b[12] == -15;
            x97 = flip ? neg_head : pos_head;
            y97 = flip ? pos_head : neg_head;
        }
        if (x96 != 0.0f) nardy_net_add(h, w1 + 96 * hidden, x96, hidden);
        if (x97 != 0.0f) nardy_net_add(h, w1 + 97 * hidden, x97, hidden);
        if (y96 != 0.0f) nardy_net_add(h, w1 + 194 * hidden, y96, hidden);
        if (y97 != 0.0f) nardy_net_add(h, w1 + 195 * hidden, y97, hidden);
        nardy_net_add(h, w1 + 196 * hidden, 1.0f, hidden);  /* unit 196: we are on roll */
        for (int j = 0; j < hidden; j++)
            h[j] = h[j] / (1.0f + fabsf(h[j]));
        for (int k = 0; k < NARDY_NET_OUTPUTS; k++) {
            const float *row = w2 + (ptrdiff_t)k * hidden;
            float acc[8] = {0};                  /* eight lanes: vectorises without reassociation */
            for (int j = 0; j < hidden; j += 8)
                for (int l = 0; l < 8; l++)
                    acc[l] += row[j + l] * h[j + l];
            float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
            out[NARDY_NET_OUTPUTS * i + k] = 1.0f / (1.0f + expf(-(s + b2[k])));
        }
    }
}

#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((target("avx2,fma")))
static void nardy_net_rows_avx2(const int8_t *boards, ptrdiff_t n, int short_game, int flip, const float *w1,
                                const float *b1, const float *w2, const float *b2, int hidden, float *out) {
    if (hidden == NARDY_NET_HIDDEN)  /* the shipped size: constant trip counts, unrolled */
        nardy_net_body(boards, n, short_game, flip, w1, b1, w2, b2, NARDY_NET_HIDDEN, out);
    else
        nardy_net_body(boards, n, short_game, flip, w1, b1, w2, b2, hidden, out);
}
#endif

static void nardy_net_rows_base(const int8_t *boards, ptrdiff_t n, int short_game, int flip, const float *w1,
                                const float *b1, const float *w2, const float *b2, int hidden, float *out) {
    if (hidden == NARDY_NET_HIDDEN)
        nardy_net_body(boards, n, short_game, flip, w1, b1, w2, b2, NARDY_NET_HIDDEN, out);
    else
        nardy_net_body(boards, n, short_game, flip, w1, b1, w2, b2, hidden, out);
}

static int nardy_net_fast = -1;  /* -1: not asked yet */

/* Use the AVX2+FMA loops if `on` and the CPU has both (tests turn them off to reach the others). */
static inline int nardy_net_use_avx2(int on) {
#if defined(__GNUC__) && defined(__x86_64__)
    nardy_net_fast = on && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    (void)on;
    nardy_net_fast = 0;
#endif
    return nardy_net_fast;
}

/* The five outputs of each of n boards into out (n x 5). hidden: a multiple of 8, <= NARDY_NET_MAX_HIDDEN. */
static inline void nardy_net_rows(const int8_t *boards, ptrdiff_t n, int short_game, int flip, const float *w1,
                                  const float *b1, const float *w2, const float *b2, int hidden, float *out) {
    if (nardy_net_fast < 0)
        nardy_net_use_avx2(1);
#if defined(__GNUC__) && defined(__x86_64__)
    if (nardy_net_fast) {
        nardy_net_rows_avx2(boards, n, short_game, flip, w1, b1, w2, b2, hidden, out);
        return;
    }
#endif
    nardy_net_rows_base(boards, n, short_game, flip, w1, b1, w2, b2, hidden, out);
}

#endif
