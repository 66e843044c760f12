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

#endif
