/* The evaluator's expert inputs (nardy.eval, docs/evaluator-inputs.md): 28 numbers a board,
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

static uint8_t nardy_feat_escape_table[4096];
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
    int d_count = 0, a_count = 0;
    if (!blots || !opp) {
        *direct = *any = 0;
        return;
    }
    for (int a = 1; a <= 6; a++)
        for (int b = a; b <= 6; b++) {               /* a, b and b, a alike: counted twice */
            int hit_direct = (((opp << a) | (opp << b)) & blots & board) != 0, hit = hit_direct;
            if (!hit) {
                if (a == b) {
                    uint32_t m = opp;
                    for (int k = 0; k < 4 && !hit; k++) {
                        m = (m << a) & ~made & board;
                        hit = (m & blots) != 0;
                    }
                } else {
                    uint32_t m = ((((opp << a) & ~made & board) << b) | (((opp << b) & ~made & board) << a));
                    hit = (m & blots & board) != 0;
                }
            }
            d_count += (a == b ? 1 : 2) * hit_direct;
            a_count += (a == b ? 1 : 2) * hit;
        }
    *direct = d_count;
    *any = a_count;
}

/* The 13 inputs of side S: own[q] its checkers on its point q (q = 1..24; short: own[25] its
 * bar), opp[x] O's checkers on S's point x (short: opp[0] O's bar). Also S's pip count. */
static inline int nardy_feat_side(const int *own, const int *opp, int short_game, float *f) {
    uint32_t own_made = 0, own_held = 0, own_blots = 0, opp_made = 0, opp_held = 0, opp_at = 0;
    int pips = 0, top = 0, opp_low = 99;
    for (int x = 1; x <= 24; x++) {
        own_held |= (uint32_t)(own[x] > 0) << x;
        own_made |= (uint32_t)(own[x] > 1) << x;
        own_blots |= (uint32_t)(own[x] == 1) << x;
        opp_held |= (uint32_t)(opp[x] > 0) << x;
        opp_made |= (uint32_t)(opp[x] > 1) << x;
        pips += x * own[x];
        if (own[x] > 0)
            top = x;
        if (opp[x] > 0 && x < opp_low)
            opp_low = x;
    }
    opp_at = opp_held;
    if (short_game) {
        pips += 25 * own[25];
        if (own[25] > 0)
            top = 25;
        if (opp[0] > 0) {
            opp_low = 0;
            opp_at |= 1;
        }
    }
    int brk = 0, free_ = 0;                          /* pips to pass O's rearmost checker */
    for (int x = 1; x <= (short_game ? 25 : 24); x++) {
        if (x > opp_low)
            brk += own[x] * (x - opp_low);
        else
            free_ += own[x];
    }
    int home = __builtin_popcount(own_made & 0x7E);
    f[0] = pips / 100.0f;
    if (short_game) {
        uint32_t blocks = opp_made;
        int direct, any, trapped = 36, back = own[25], timing = 19 * own[25];
        nardy_feat_shots(opp_at, own_made, own_blots, &direct, &any);
        for (int q = 13; q <= 24; q++) {
            int e = nardy_feat_escapes(blocks, q);
            trapped = e < trapped ? e : trapped;
        }
        for (int x = 19; x <= 24; x++)
            back += own[x];
        for (int x = 7; x <= 24; x++)
            timing += own[x] * (x - 6);
        f[1] = brk / 100.0f;
        f[2] = __builtin_popcount(own_blots) / 8.0f;
        f[3] = any / 36.0f;
        f[4] = home / 6.0f;
        f[5] = nardy_feat_longest_run(own_made) / 6.0f;
        f[6] = __builtin_popcount(own_made & (0x3Fu << 19)) / 3.0f;
        f[7] = (top ? nardy_feat_escapes(blocks, top) : 36) / 36.0f;
        f[8] = 1.0f - trapped / 36.0f;
        f[9] = back / 5.0f;
        f[10] = timing / 100.0f;
        f[11] = opp[0] > 0 ? (home / 6.0f) * (home / 6.0f) : 0.0f;
        f[12] = direct / 36.0f;
    } else {
        uint32_t blocks = opp_held;
        int trapped = 36, half = 0, run = nardy_feat_longest_run(own_held), ahead6 = 0, ahead12 = 0, in_home = 0;
        int opp_top = 0;                             /* O's rearmost checker, in O's numbers */
        for (int x = 1; x <= 24; x++)
            if (opp[x] > 0) {
                int r = x > 12 ? x - 12 : x + 12;
                opp_top = r > opp_top ? r : opp_top;
            }
        for (int t = opp_top - 1; t >= 1 && t >= opp_top - 12; t--) {
            int x = t > 12 ? t - 12 : t + 12;        /* O's point t on S's numbers */
            if (own[x] > 0) {
                ahead12++;
                ahead6 += t >= opp_top - 6;
            }
        }
        for (int q = 13; q <= 24; q++) {
            int e = nardy_feat_escapes(blocks, q);
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
        f[6] = ahead6 / 6.0f;
        f[7] = ahead12 / 12.0f;
        f[8] = (top ? nardy_feat_escapes(blocks, top) : 36) / 36.0f;
        f[9] = 1.0f - trapped / 36.0f;
        f[10] = __builtin_popcount(own_held & 0x7E) / 6.0f;
        f[11] = in_home / 15.0f;
        f[12] = brk / 100.0f;
    }
    return pips;
}

/* The 28 inputs of a board (26 int8, the positive side's view; `flip` 0: the positive side is
 * on roll, 1: the negative side is). */
static inline void nardy_features(const int8_t *b, int short_game, int flip, float *f) {
    int pos[26] = {0}, neg[26] = {0};              /* each side in its own numbers */
    for (int p = 1; p <= 24; p++) {
        int q = short_game ? 25 - p : (p <= 12 ? p + 12 : p - 12);
        if (b[p] > 0)
            pos[p] = b[p];
        else if (b[p] < 0)
            neg[q] = -b[p];
    }
    if (short_game) {
        pos[25] = b[25];
        neg[25] = -b[0];
    }
    const int *us = flip ? neg : pos, *them = flip ? pos : neg;
    int us_opp[26] = {0}, them_opp[26] = {0};      /* the other side on each side's numbers */
    for (int x = 1; x <= 24; x++) {
        int y = short_game ? 25 - x : (x <= 12 ? x + 12 : x - 12);
        us_opp[x] = them[y];
        them_opp[x] = us[y];
    }
    if (short_game) {
        us_opp[0] = them[25];
        them_opp[0] = us[25];
    }
    int our_pips = nardy_feat_side(us, us_opp, short_game, f);
    int their_pips = nardy_feat_side(them, them_opp, short_game, f + NARDY_FEAT_SIDE);
    f[2 * NARDY_FEAT_SIDE] = (their_pips - our_pips) / 100.0f;
    /* contact: some checker of either side has still to pass one of the other's */
    f[2 * NARDY_FEAT_SIDE + 1] = (f[short_game ? 1 : 12] > 0 || f[NARDY_FEAT_SIDE + (short_game ? 1 : 12)] > 0)
                                 ? 1.0f : 0.0f;
}

#endif
