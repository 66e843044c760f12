/* The evaluator's forward pass (nardy.evaluation.net): one hidden layer over TD-Gammon's 198 units and,
 * for an expert net, the 28 inputs of _features.h.
 *
 * The units are those of nardy.play.env.encode for the side on roll: with `flip` 0 the board's
 * positive side is on roll (a position before its move), with `flip` 1 its negative side (an
 * afterstate: the mover has moved and the other side is to roll), exactly encode(flip(board)).
 * They are never materialised. Every input that is a sum over the points of something of one
 * point's count (a point's four units, the borne-off and head units, pips, blots, timing, ...)
 * is folded by the caller (nardy.evaluation.net.Net) into `points`: for each side (us, them), own point
 * q = 1..24 and count n = 1..15 the sum of the weight rows that point adds (row
 * 1 + (side * 24 + q - 1) * 15 + n - 1; row 0 is zeros, for an empty point), and the constant
 * parts into `bias`. The hidden layer is then `bias` plus one row per point plus, for each input
 * e of the 4 + 28 in `keep` (bit e), its value times `rows` row e: the units 96, 97, 194, 195
 * (nardy_net_extras; short nardy keeps the two bars, whose rows the caller also folds the bar's
 * share of pips and timing into) and the expert inputs that are not such sums. A net per phase
 * (nardy.evaluation.net.NetSet: two or three nets of one hidden size) is one pass: each board is
 * judged by the tables of its phase, the contact input and the other side's pip count deciding
 * (the expert inputs are then computed for every board).
 *
 * hidden: softsign x / (1 + |x|); outputs: the logistic function. The loops are compiled for the
 * x86-64 baseline and, for multiples of 64 hidden units, for AVX2 with FMA, BMI and POPCNT (the hidden
 * layer in registers, the expert inputs from byte vectors), chosen at run time, never by build
 * flags. The two may differ in the last bits (the inputs never do).
 */
#ifndef NARDY_NET_H
#define NARDY_NET_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "_cpu.h"
#include "_features.h"

#define NARDY_NET_UNITS 198
#define NARDY_NET_OUTPUTS 5
#define NARDY_NET_MAX_HIDDEN 256

#define NARDY_NET_POINT_ROWS (1 + 2 * 24 * 15)

/* Where in `points` (row times `hidden`) the row of point p = 1..24 and entry c = -15..15
 * (index c + 16) of a board starts. */
typedef struct { int32_t at[25][32]; } nardy_net_lut;

static inline void nardy_net_lut_init(nardy_net_lut *lut, int short_game, int flip, int hidden) {
    for (int p = 1; p <= 24; p++) {
        int q = short_game ? 25 - p : (p <= 12 ? p + 12 : p - 12);   /* p in the negative side's numbers */
        for (int c = -15; c <= 15; c++) {
            int mine = flip ? -c : c;                              /* > 0: the side on roll's checkers */
            int n = c < 0 ? -c : c;
            int own = (c > 0) ? p : q;                             /* the point in its holder's numbers */
            lut->at[p][c + 16] = (c == 0 ? 0 : 1 + ((mine < 0) * 24 + own - 1) * 15 + n - 1) * hidden;
        }
    }
}

/* The values of units 96, 97 (us) and 194, 195 (them). */
static inline __attribute__((always_inline)) void nardy_net_extras(const int8_t *b, int short_game, int flip,
                                                                   float *x) {
    int pos = 0, neg = 0;                        /* each side's checkers on points 1..24 */
    for (int p = 1; p <= 24; p++) {
        pos += b[p] > 0 ? b[p] : 0;
        neg += b[p] < 0 ? -b[p] : 0;
    }
    int us = flip ? neg : pos, them = flip ? pos : neg;
    if (short_game) {
        int us_bar = flip ? -b[0] : b[25], them_bar = flip ? b[25] : -b[0];
        x[0] = us_bar * 0.5f;
        x[1] = (15 - us - us_bar) / 15.0f;
        x[2] = them_bar * 0.5f;
        x[3] = (15 - them - them_bar) / 15.0f;
    } else {
        int pos_head = b[24] == 15, neg_head = b[12] == -15;
        x[0] = (15 - us) / 15.0f;
        x[1] = flip ? neg_head : pos_head;
        x[2] = (15 - them) / 15.0f;
        x[3] = flip ? pos_head : neg_head;
    }
}

/* One net's weights as the loops read them: `points` (NARDY_NET_POINT_ROWS x hidden), `rows`
 * ((4 + NARDY_FEAT_COUNT) x hidden: units 96, 97, 194, 195, then the expert inputs; row e read
 * where `keep` has bit e), `bias` (hidden), `w2` (5 x hidden), `b2` (5). */
typedef struct {
    const float *points, *rows, *bias, *w2, *b2;
    uint32_t keep;
} nardy_net_t;

/* The contact input of _features.h (its last), and the other side's pip count / 100. */
#define NARDY_NET_CONTACT (4 + NARDY_FEAT_COUNT - 1)
#define NARDY_NET_THEIR_PIPS (4 + NARDY_FEAT_SIDE)

/* The net of a board of inputs x among `phases` nets: nets[0] alone; or nets[1] for a race
 * (no contact); or, of three, nets[2] for contact where the side not on roll has pips below
 * `late` / 100 (the caller's bound, halfway between two whole numbers of pips), else nets[0]. */
static inline __attribute__((always_inline)) const nardy_net_t *nardy_net_of(const nardy_net_t *nets, int phases,
                                                                             float late, const float *x) {
    if (phases > 1 && x[NARDY_NET_CONTACT] == 0)
        return nets + 1;
    return phases > 2 && x[NARDY_NET_THEIR_PIPS] < late ? nets + 2 : nets;
}

static inline __attribute__((always_inline)) float nardy_net_logistic(float x) {
    return 1.0f / (1.0f + expf(-x));
}

/* Any hidden size (a multiple of 8), in plain C. */
static inline __attribute__((always_inline)) void nardy_net_body(
        const int8_t *boards, ptrdiff_t n, int short_game, int flip, const nardy_net_lut *lut,
        const nardy_net_t *nets, int phases, float late, int hidden, float *restrict out) {
    float h[NARDY_NET_MAX_HIDDEN] __attribute__((aligned(32)));
    float x[4 + NARDY_FEAT_COUNT];
    const int features = phases > 1 || (nets[0].keep >> 4);
    for (ptrdiff_t i = 0; i < n; i++) {
        const int8_t *b = boards + 26 * i;
        if (features)
            nardy_features(b, short_game, flip, x + 4);
        const nardy_net_t *t = nardy_net_of(nets, phases, late, x);
        const float *restrict points = t->points, *restrict rows = t->rows, *restrict bias = t->bias,
                    *restrict w2 = t->w2, *restrict b2 = t->b2;
        const uint32_t keep = t->keep;
        for (int j = 0; j < hidden; j++)
            h[j] = bias[j];
        for (int p = 1; p <= 24; p++) {
            const float *row = points + lut->at[p][b[p] + 16];
            for (int j = 0; j < hidden; j++)
                h[j] += row[j];
        }
        nardy_net_extras(b, short_game, flip, x);
        for (uint32_t m = keep; m; m &= m - 1) {
            int e = __builtin_ctz(m);
            const float *row = rows + (ptrdiff_t)e * hidden;
            for (int j = 0; j < hidden; j++)
                h[j] += x[e] * row[j];
        }
        for (int j = 0; j < hidden; j++)
            h[j] = h[j] / (1.0f + fabsf(h[j]));
        for (int k = 0; k < NARDY_NET_OUTPUTS; k++) {
            const float *row = w2 + (ptrdiff_t)k * hidden;
            float acc[8] = {0};                  /* eight lanes: vectorises without reassociation */
            for (int j = 0; j < hidden; j += 8)
                for (int l = 0; l < 8; l++)
                    acc[l] += row[j + l] * h[j + l];
            float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
            out[NARDY_NET_OUTPUTS * i + k] = nardy_net_logistic(s + b2[k]);
        }
    }
}

static void nardy_net_rows_base(const int8_t *boards, ptrdiff_t n, int short_game, int flip,
                                const nardy_net_lut *lut, const nardy_net_t *nets, int phases, float late, int hidden, float *out) {
    if (hidden == 64)  /* the shipped sizes: constant trip counts */
        nardy_net_body(boards, n, short_game, flip, lut, nets, phases, late, 64, out);
    else if (hidden == 128)
        nardy_net_body(boards, n, short_game, flip, lut, nets, phases, late, 128, out);
    else
        nardy_net_body(boards, n, short_game, flip, lut, nets, phases, late, hidden, out);
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

/* The logistic function of eight floats: exp by Cephes' expf polynomial (range-reduced to
 * |r| <= ln 2 / 2, within 2 ulp of expf), then one division. */
__attribute__((target("avx2,fma")))
static inline __m256 nardy_net_logistic8(__m256 x) {
    __m256 t = _mm256_min_ps(_mm256_max_ps(_mm256_sub_ps(_mm256_setzero_ps(), x), _mm256_set1_ps(-87.0f)),
                             _mm256_set1_ps(87.0f));                     /* -x, clamped */
    __m256 k = _mm256_floor_ps(_mm256_fmadd_ps(t, _mm256_set1_ps(1.44269504088896341f), _mm256_set1_ps(0.5f)));
    __m256 r = _mm256_fnmadd_ps(k, _mm256_set1_ps(0.693359375f), t);
    r = _mm256_fnmadd_ps(k, _mm256_set1_ps(-2.12194440e-4f), r);
    __m256 y = _mm256_set1_ps(1.9875691500e-4f);
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(1.3981999507e-3f));
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(8.3334519073e-3f));
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(4.1665795894e-2f));
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(1.6666665459e-1f));
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(5.0000001201e-1f));
    y = _mm256_fmadd_ps(y, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
    __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(127)), 23);
    __m256 ex = _mm256_mul_ps(y, _mm256_castsi256_ps(e));                 /* exp(-x) */
    return _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_add_ps(_mm256_set1_ps(1.0f), ex));
}

/* Multiples of 64 hidden units with AVX2+FMA: the hidden layer 64 units at a time, in eight registers,
 * each part's share of the outputs summed as it is done. Only the rows of the occupied points
 * and of the inputs that are not zero are added (adding zero changes no sum), in the order of
 * the baseline loops, so the sums are the same. The board's inputs come from _features.h's
 * AVX2 path. */
__attribute__((target(NARDY_FEAT_ISA))) static inline __attribute__((always_inline)) void nardy_net_avx2_body(
        const int8_t *boards, ptrdiff_t n, int short_game, int flip, const nardy_net_lut *lut,
        const nardy_net_t *nets, int phases, float late, const int H, float *out) {
    const __m256 one = _mm256_set1_ps(1.0f), sign = _mm256_set1_ps(-0.0f);
    float in[4 + NARDY_FEAT_COUNT] __attribute__((aligned(32))) = {0};   /* units 96, 97, 194, 195; the expert inputs */
    const int expert = phases > 1 || (nets[0].keep >> 4) != 0;
    const float *rows[24];
    int counts[4];
    for (ptrdiff_t i = 0; i < n; i++) {
        const int8_t *b = boards + 26 * i;
        uint32_t occupied;
        nardy_features_avx2(b, short_game, flip, expert, in + 4, counts, &occupied);
        const nardy_net_t *t = nardy_net_of(nets, phases, late, in);
        const float *points = t->points, *input_rows = t->rows, *bias = t->bias, *w2 = t->w2, *b2 = t->b2;
        const uint32_t keep = t->keep;
        int k = 0;
        for (uint32_t m = occupied; m; m &= m - 1) {
            int p = __builtin_ctz(m);
            rows[k++] = points + lut->at[p][b[p] + 16];
        }
        if (short_game) {
            in[0] = counts[2] * 0.5f;
            in[1] = (15 - counts[0] - counts[2]) / 15.0f;
            in[2] = counts[3] * 0.5f;
            in[3] = (15 - counts[1] - counts[3]) / 15.0f;
        } else {
            in[0] = (15 - counts[0]) / 15.0f;
            in[1] = flip ? b[12] == -15 : b[24] == 15;
            in[2] = (15 - counts[1]) / 15.0f;
            in[3] = flip ? b[24] == 15 : b[12] == -15;
        }
        uint32_t inputs = 0;                        /* bit e: in[e] is kept and not zero */
        for (int e = 0; e < (expert ? 4 + NARDY_FEAT_COUNT : 4); e += 8)
            inputs |= (uint32_t)_mm256_movemask_ps(_mm256_cmp_ps(_mm256_load_ps(in + e), _mm256_setzero_ps(),
                                                                 _CMP_NEQ_UQ)) << e;
        inputs &= keep;
        __m256 acc[NARDY_NET_OUTPUTS];
        for (int k2 = 0; k2 < NARDY_NET_OUTPUTS; k2++)
            acc[k2] = _mm256_setzero_ps();
        for (int c = 0; c < H; c += 64) {
            __m256 h[8];
            for (int l = 0; l < 8; l++)
                h[l] = _mm256_loadu_ps(bias + c + 8 * l);
            for (int r = 0; r < k; r++)
                for (int l = 0; l < 8; l++)
                    h[l] = _mm256_add_ps(h[l], _mm256_loadu_ps(rows[r] + c + 8 * l));
            for (uint32_t m = inputs; m; m &= m - 1) {
                int e = __builtin_ctz(m);
                const float *row = input_rows + (ptrdiff_t)e * H + c;
                __m256 v = _mm256_broadcast_ss(in + e);
                for (int l = 0; l < 8; l++)
                    h[l] = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 8 * l), h[l]);
            }
            for (int l = 0; l < 8; l++)
                h[l] = _mm256_div_ps(h[l], _mm256_add_ps(one, _mm256_andnot_ps(sign, h[l])));
            for (int k2 = 0; k2 < NARDY_NET_OUTPUTS; k2++) {
                const float *row = w2 + (ptrdiff_t)k2 * H + c;
                for (int l = 0; l < 8; l++)      /* (the first: a product, as fma onto zero rounds it) */
                    acc[k2] = _mm256_fmadd_ps(_mm256_loadu_ps(row + 8 * l), h[l], acc[k2]);
            }
        }
        float z[8] __attribute__((aligned(32))) = {0};
        for (int k2 = 0; k2 < NARDY_NET_OUTPUTS; k2++) {
            __m128 s4 = _mm_add_ps(_mm256_castps256_ps128(acc[k2]), _mm256_extractf128_ps(acc[k2], 1));
            s4 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
            s4 = _mm_add_ss(s4, _mm_shuffle_ps(s4, s4, 1));
            z[k2] = _mm_cvtss_f32(s4) + b2[k2];
        }
        _mm256_store_ps(z, nardy_net_logistic8(_mm256_load_ps(z)));
        for (int k2 = 0; k2 < NARDY_NET_OUTPUTS; k2++)
            out[NARDY_NET_OUTPUTS * i + k2] = z[k2];
    }
}

__attribute__((target(NARDY_FEAT_ISA)))
static void nardy_net_rows_avx2(const int8_t *boards, ptrdiff_t n, int short_game, int flip,
                                const nardy_net_lut *lut, const nardy_net_t *nets, int phases, float late, int hidden, float *out) {
    if (hidden == 64)
        nardy_net_avx2_body(boards, n, short_game, flip, lut, nets, phases, late, 64, out);
    else if (hidden == 128)
        nardy_net_avx2_body(boards, n, short_game, flip, lut, nets, phases, late, 128, out);
    else if (hidden % 64 == 0)  /* wider nets: the same loops, 64 units at a time */
        nardy_net_avx2_body(boards, n, short_game, flip, lut, nets, phases, late, hidden, out);
    else
        nardy_net_body(boards, n, short_game, flip, lut, nets, phases, late, hidden, out);
}
#endif

static int nardy_net_fast = -1;  /* -1: not asked yet */

/* Use the AVX2+FMA loops if `on` and the CPU has NARDY_CPU_NET (tests turn them off to reach the others). */
static inline int nardy_net_use_avx2(int on) {
#if defined(__GNUC__) && defined(__x86_64__)
    nardy_net_fast = on && nardy_cpu_has(NARDY_CPU_NET);
#else
    (void)on;
    nardy_net_fast = 0;
#endif
    return nardy_net_fast;
}

/* The five outputs of each of n boards into out (n x 5), each by the net of its phase among
 * `phases` (1, 2 or 3; nardy_net_of, `late` its bound). hidden (of every net given): a multiple
 * of 8, at most NARDY_NET_MAX_HIDDEN. */
static inline void nardy_net_rows(const int8_t *boards, ptrdiff_t n, int short_game, int flip, const nardy_net_t *nets,
                                  int phases, float late, int hidden, float *out) {
    nardy_net_lut lut;
    nardy_net_lut_init(&lut, short_game, flip, hidden);
    if (nardy_net_fast < 0)
        nardy_net_use_avx2(1);
#if defined(__GNUC__) && defined(__x86_64__)
    if (nardy_net_fast) {
        nardy_net_rows_avx2(boards, n, short_game, flip, &lut, nets, phases, late, hidden, out);
        return;
    }
#endif
    nardy_net_rows_base(boards, n, short_game, flip, &lut, nets, phases, late, hidden, out);
}

#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((target(NARDY_FEAT_ISA)))
static void nardy_net_features_avx2(const int8_t *boards, ptrdiff_t n, int short_game, int flip, float *out) {
    int counts[4];
    uint32_t occupied;
    for (ptrdiff_t i = 0; i < n; i++)
        nardy_features_avx2(boards + 26 * i, short_game, flip, 1, out + (ptrdiff_t)NARDY_FEAT_COUNT * i, counts,
                            &occupied);
}
#endif

/* The expert inputs of each of n boards into out (n x NARDY_FEAT_COUNT), by the loops the
 * forward pass uses. */
static inline void nardy_net_features(const int8_t *boards, ptrdiff_t n, int short_game, int flip, float *out) {
    if (nardy_net_fast < 0)
        nardy_net_use_avx2(1);
#if defined(__GNUC__) && defined(__x86_64__)
    if (nardy_net_fast) {
        nardy_net_features_avx2(boards, n, short_game, flip, out);
        return;
    }
#endif
    for (ptrdiff_t i = 0; i < n; i++)
        nardy_features(boards + 26 * i, short_game, flip, out + (ptrdiff_t)NARDY_FEAT_COUNT * i);
}

#endif
