/* Short-nardy walks in "plain" positions (nothing on the bar, two or more checkers outside home:
 * nothing can enter or bear off) with the board in vector registers; _walks.pxi calls them.
 *
 * In _walks.pxi's form these walks step the generator's board in memory with byte edits, then
 * copy it out with 16-byte loads: a load that spans several smaller stores in flight cannot be
 * forwarded from them and waits for them to retire, once per node. Here a walk loads the board
 * once and steps it in registers (one-hot vectors from compares), derives the occupancy words
 * from it with compares and movemasks, and reads memory back only from the result it has just
 * stored. Results, their order and representatives are those of the walks they replace (the
 * differential tests). SSE2, the x86-64 baseline (the x86-64-v3 build gets VEX encodings); other
 * targets (or NARDY_PLAIN_SCALAR) keep the board as 32 bytes in memory instead. */
#ifndef NARDY_PLAIN_H
#define NARDY_PLAIN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) && !defined(NARDY_PLAIN_SCALAR)
#define NARDY_PLAIN_SSE2 1
#include <emmintrin.h>
#endif

#define NARDY_VIEW 26
#define NARDY_ALL_POINTS 0xFFFFFFu
#define NARDY_BIT(p) ((uint32_t)1 << ((p) - 1))   /* point p's bit */
#define NARDY_UPTO(p) (((uint32_t)2 << ((p) - 1)) - 1)  /* points 1..p */

/* The generator's result buffers and count, copied to locals by the walks. */
typedef struct {
    int8_t *out;      /* cap x 26 result boards */
    int8_t *moves;    /* cap x 8 step sequences */
    uint8_t *larger;  /* one-step results: reached by the larger die */
    int n, cap, best;
    int store, moves_too;
} nardy_sink;

#if NARDY_PLAIN_SSE2
/* A board as two overlapping halves: lo = cells 0..15, hi = cells 10..25. */
typedef struct {
    __m128i lo, hi;
} nardy_board;

static inline nardy_board nardy_load(const int8_t *b) {
    nardy_board x;
    x.lo = _mm_loadu_si128((const __m128i *)b);
    x.hi = _mm_loadu_si128((const __m128i *)(b + 10));
    return x;
}

/* Bit p-1 for each point p (1..25) where the board holds `count`. */
static inline uint32_t nardy_where(nardy_board x, int8_t count) {
    __m128i c = _mm_set1_epi8(count);
    uint32_t lo = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x.lo, c));
    uint32_t hi = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x.hi, c));
    return (lo | hi << 10) >> 1;
}

/* The board with a step src -> dst >= 1 made, `hit` (0 or 1) a blot there sent to cell 0. */
static inline nardy_board nardy_stepped(nardy_board x, int src, int dst, int hit) {
    const __m128i iota_lo = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i iota_hi = _mm_setr_epi8(10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25);
    const __m128i cell0 = _mm_setr_epi8(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    __m128i s = _mm_set1_epi8((char)src), d = _mm_set1_epi8((char)dst), h = _mm_set1_epi8((char)-hit);
    __m128i d_lo = _mm_cmpeq_epi8(iota_lo, d), d_hi = _mm_cmpeq_epi8(iota_hi, d);  /* -1 at dst */
    /* -1 at src; +1 at dst, +1 more on a hit, and then -1 at cell 0 */
    x.lo = _mm_add_epi8(x.lo, _mm_cmpeq_epi8(iota_lo, s));
    x.lo = _mm_sub_epi8(_mm_sub_epi8(x.lo, d_lo), _mm_and_si128(h, _mm_sub_epi8(d_lo, cell0)));
    x.hi = _mm_add_epi8(x.hi, _mm_cmpeq_epi8(iota_hi, s));
    x.hi = _mm_sub_epi8(_mm_sub_epi8(x.hi, d_hi), _mm_and_si128(h, d_hi));
    return x;
}

#else
/* A board as 32 bytes, cells 0..25 used. */
typedef struct {
    int8_t cell[32];
} nardy_board;

static inline nardy_board nardy_load(const int8_t *b) {
    nardy_board x = {{0}};
    memcpy(x.cell, b, NARDY_VIEW);
    return x;
}

static inline uint32_t nardy_where(nardy_board x, int8_t count) {
    uint32_t bits = 0;
    for (int p = 1; p < NARDY_VIEW; p++)
        bits |= (uint32_t)(x.cell[p] == count) << (p - 1);
    return bits;
}

static inline nardy_board nardy_stepped(nardy_board x, int src, int dst, int hit) {
    x.cell[src] -= 1;
    x.cell[dst] += 1 + hit;
    x.cell[0] -= hit;
    return x;
}
#endif

/* Store board x at o (26 cells). */
static inline void nardy_store(int8_t *o, nardy_board x) {
#if NARDY_PLAIN_SSE2
    _mm_storeu_si128((__m128i *)o, x.lo);
    _mm_storeu_si128((__m128i *)(o + 10), x.hi);
#else
    memcpy(o, x.cell, NARDY_VIEW);
#endif
}

/* Store board x with one more step src -> dst >= 1 (hitting a blot there) at o. */
static inline void nardy_put(int8_t *o, nardy_board x, int src, int dst) {
    int8_t to, hit;
    nardy_store(o, x);
    to = o[dst];  /* read back from the store just made */
    hit = to == -1;
    o[src] -= 1;
    o[dst] = (int8_t)(to + 1 + hit);
    o[0] -= hit;
}

/* A step sequence's word: `path` with step (src, dst) at bits `shift`. */
static inline uint64_t nardy_with(uint64_t path, int shift, int src, int dst) {
    return path | (uint64_t)((uint32_t)(uint8_t)src | (uint32_t)(uint8_t)dst << 8) << shift;
}

/* For each source s of `seconds` (highest first): board x (after its first step) with the step
 * s -> s - d, its moves `path` plus that step at bits `shift`. 0, or -1 when full. */
static inline int nardy_twos(int8_t *out, int8_t *moves, int *n_io, int cap, int store, int moves_too,
                             nardy_board x, uint32_t seconds, int d, uint64_t path, int shift) {
    int n = *n_io;
    int8_t *o = out + (ptrdiff_t)n * NARDY_VIEW;
    int8_t *m = moves + (ptrdiff_t)n * 8;
    while (seconds) {
        int bit = __builtin_clz(seconds) ^ 31;
        int src = bit + 1;
        if (n >= cap) {
            *n_io = n;
            return -1;
        }
        seconds &= ~((uint32_t)1 << bit);
        n++;
        if (store) {
            nardy_put(o, x, src, src - d);
            o += NARDY_VIEW;
            if (moves_too) {
                uint64_t w = nardy_with(path, shift, src, src - d);
                memcpy(m, &w, 8);
                m += 8;
            }
        }
    }
    *n_io = n;
    return 0;
}

/* A walk's end: its count and best back to the sink, and its answer (-2: full). */
static inline int nardy_finish(nardy_sink *sink, int n, int best, int answer) {
    sink->n = n;
    sink->best = best;
    return answer;
}

/* Record board x (src 0), or x with one more step src -> dst >= 1 made on its copy, as a result
 * reached in `depth` steps with the moves `word` and the larger-die flag `by_larger`, if nothing
 * beats it (as _walks.pxi's `record` and `record_step`): 0, or -1 when full. */
static inline int nardy_record(int8_t *out, int8_t *moves, uint8_t *larger, int *n_io, int *best_io, int cap,
                               int store, int moves_too, nardy_board x, int depth, int src, int dst, uint64_t word,
                               uint8_t by_larger) {
    int n = *n_io;
    if (depth < *best_io)
        return 0;
    if (depth > *best_io) {
        *best_io = depth;
        n = 0;
    }
    if (n >= cap) {
        *n_io = n;
        return -1;
    }
    if (store) {
        if (src)
            nardy_put(out + (ptrdiff_t)n * NARDY_VIEW, x, src, dst);
        else
            nardy_store(out + (ptrdiff_t)n * NARDY_VIEW, x);
        if (moves_too)
            memcpy(moves + (ptrdiff_t)n * 8, &word, 8);
    }
    larger[n] = by_larger;
    *n_io = n + 1;
    return 0;
}

/* walk_pair's plain case (_walks.pxi: hi_first, then lo_first_chains if two steps were played),
 * from board b with the mover's points `mover` and the open points `open` (bits p-1), dice
 * hi > lo. Results go to the sink (its n and best updated). The most steps of a result (-1 none,
 * 1, 2), or -2 when full. */
static int nardy_plain_pair(nardy_sink *sink, const int8_t *b, uint32_t mover, uint32_t open, int hi, int lo) {
    int8_t *out = sink->out, *moves = sink->moves;
    uint8_t *larger = sink->larger;
    int n = sink->n, cap = sink->cap, best = sink->best, store = sink->store, moves_too = sink->moves_too;
    int sub = -1, x, y;
    nardy_board board = nardy_load(b);
    uint32_t ones = nardy_where(board, 1) & NARDY_ALL_POINTS, blots = nardy_where(board, -1) & NARDY_ALL_POINTS;
    /* walk_pair's `chained`, the quiet plays: bit s-1 = one checker s moved by both dice, no hit.
     * Sources come highest first, so s is marked at its own turn (above) or at s + lo's (onto). */
    uint32_t quiet = 0;
    uint32_t first = mover & (open << hi) & NARDY_ALL_POINTS, second, onto;
    /* hi_first: x by the larger die, then each checker by the smaller */
    while (first) {
        x = (__builtin_clz(first) ^ 31) + 1;
        first &= ~NARDY_BIT(x);
        second = ((mover & ~(ones & NARDY_BIT(x))) | NARDY_BIT(x - hi)) & (open << lo);
        if (second == 0) {  /* one step: a candidate unless two steps were played */
            if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, board, 1, x, x - hi,
                             nardy_with(~(uint64_t)0 << 16, 0, x, x - hi), 1) < 0)
                goto full;
            sub = sub < 1 ? 1 : sub;
            continue;
        }
        /* x on from x - hi: one checker by both dice, new here (x's own turn), remembered for the
         * second order unless it hit on the way (only the quiet play recurs there) */
        if ((second & NARDY_BIT(x - hi)) && !(blots & NARDY_BIT(x - hi)))
            quiet |= NARDY_BIT(x);
        onto = NARDY_BIT(x + lo);  /* x + lo onto x, then x on by hi */
        if (second & onto) {
            if ((quiet >> (x + lo - 1)) & 1)
                second &= ~onto;
            else
                quiet |= onto;
        }
        if (best < 2) {
            best = 2;
            n = 0;
        }
        if (nardy_twos(out, moves, &n, cap, store, moves_too,
                       nardy_stepped(board, x, x - hi, (blots >> (x - hi - 1)) & 1), second, lo,
                       nardy_with(~(uint64_t)0 << 32, 0, x, x - hi), 16) < 0)
            goto full;
        sub = 2;
    }
    if (best == 2) {  /* lo_first_chains: only one checker y moved on from y - lo can be new */
        first = mover & (open << lo) & (open << (hi + lo)) & NARDY_ALL_POINTS;
        while (first) {
            int mid, hit;
            y = (__builtin_clz(first) ^ 31) + 1;
            first &= ~NARDY_BIT(y);
            mid = y - lo;
            hit = (blots >> (mid - 1)) & 1;
            if (!hit && (quiet >> (y - 1)) & 1)
                continue;  /* recorded already: the same play (a hit by the smaller die never was) */
            if (nardy_twos(out, moves, &n, cap, store, moves_too, nardy_stepped(board, y, mid, hit),
                           NARDY_BIT(mid), hi, nardy_with(~(uint64_t)0 << 32, 0, y, mid), 16) < 0)
                goto full;
        }
        sub = 2;
    }
    return nardy_finish(sink, n, best, sub);
full:
    return nardy_finish(sink, n, best, -2);
}


/* walk_double's plain case (_walks.pxi: plain_double, last_two_steps): a double d from board b
 * (at most one checker on the bar; four or more outside home, so nothing bears off), the mover's
 * points `mover`, the open points `open`, each multiset of steps once in non-increasing source
 * order. Results go to the sink. The most steps of a result (0 to 4), or -2 when full. */
static int nardy_plain_double(nardy_sink *sink, const int8_t *b, uint32_t mover, uint32_t open, int d) {
    int8_t *out = sink->out, *moves = sink->moves;
    uint8_t *larger = sink->larger;
    int n = sink->n, cap = sink->cap, best = sink->best, store = sink->store, moves_too = sink->moves_too;
    int sub = -1, s1, s2, s3, below, r;
    uint32_t open_d = open << d, srcs1, srcs2, srcs3, fourth, mover1, mover2;
    uint32_t ones0, ones1, ones2, blots0, blots1, blots2;
    uint64_t p1, p2, p3;
    nardy_board b0 = nardy_load(b), b1, b2;
    ones0 = nardy_where(b0, 1);
    blots0 = nardy_where(b0, -1) & NARDY_ALL_POINTS;
    srcs1 = b[25] ? (NARDY_BIT(25) & open_d) : (mover & open_d & NARDY_ALL_POINTS);  /* the bar first */
    while (srcs1) {
        s1 = (__builtin_clz(srcs1) ^ 31) + 1;
        srcs1 &= ~NARDY_BIT(s1);
        b1 = nardy_stepped(b0, s1, s1 - d, (blots0 >> (s1 - d - 1)) & 1);
        mover1 = (mover & ~(ones0 & NARDY_BIT(s1))) | NARDY_BIT(s1 - d);
        ones1 = nardy_where(b1, 1);
        blots1 = blots0 & ~NARDY_BIT(s1 - d);
        p1 = nardy_with(0, 0, s1, s1 - d);
        srcs2 = mover1 & open_d & NARDY_UPTO(s1);
        below = -1;
        while (srcs2) {
            s2 = (__builtin_clz(srcs2) ^ 31) + 1;
            srcs2 &= ~NARDY_BIT(s2);
            b2 = nardy_stepped(b1, s2, s2 - d, (blots1 >> (s2 - d - 1)) & 1);
            mover2 = (mover1 & ~(ones1 & NARDY_BIT(s2))) | NARDY_BIT(s2 - d);
            p2 = nardy_with(p1, 16, s2, s2 - d);
            srcs3 = mover2 & open_d & NARDY_UPTO(s2);
            if (srcs3 == 0) {
                if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, b2, 2, 0, 0,
                                 p2 | ~(uint64_t)0 << 32, 0) < 0)
                    goto full;
                r = 2;
            } else {  /* last_two_steps */
                ones2 = nardy_where(b2, 1);
                blots2 = blots1 & ~NARDY_BIT(s2 - d);
                r = -1;
                while (srcs3) {
                    s3 = (__builtin_clz(srcs3) ^ 31) + 1;
                    srcs3 &= ~NARDY_BIT(s3);
                    p3 = nardy_with(p2, 32, s3, s3 - d);
                    fourth = ((mover2 & ~(ones2 & NARDY_BIT(s3))) | NARDY_BIT(s3 - d)) & open_d & NARDY_UPTO(s3);
                    if (fourth == 0) {
                        if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, b2, 3, s3, s3 - d,
                                         p3 | ~(uint64_t)0 << 48, 0) < 0)
                            goto full;
                        r = r < 3 ? 3 : r;
                    } else {
                        if (best < 4) {
                            best = 4;
                            n = 0;
                        }
                        if (nardy_twos(out, moves, &n, cap, store, moves_too,
                                       nardy_stepped(b2, s3, s3 - d, (blots2 >> (s3 - d - 1)) & 1), fourth, d, p3,
                                       48) < 0)
                            goto full;
                        r = 4;
                    }
                }
            }
            below = r > below ? r : below;
        }
        if (below < 0) {
            if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, b1, 1, 0, 0,
                             p1 | ~(uint64_t)0 << 16, 0) < 0)
                goto full;
            below = 1;
        }
        sub = below > sub ? below : sub;
    }
    if (sub < 0) {  /* no step at all: the board itself */
        if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, b0, 0, 0, 0, ~(uint64_t)0, 0)
            < 0)
            goto full;
        sub = 0;
    }
    return nardy_finish(sink, n, best, sub);
full:
    return nardy_finish(sink, n, best, -2);
}

/* Long nardy (no hits, no bar; `open` is every point the opponent does not hold). */

/* Does the mover's occupancy m hold a six-block that starts on a forbidden point (bits q-1 in
 * the opponent's numbers)? _board.pxd's runs6(rotate12(m)) & forbidden. */
static inline int nardy_six(uint32_t m, uint32_t forbidden) {
    uint32_t r = ((m << 12) | (m >> 12)) & NARDY_ALL_POINTS;
    r &= r >> 1;
    r &= r >> 2;
    return (r & (r >> 2) & forbidden) != 0;
}

/* The mover's occupancy after a step src -> dst >= 1 from a board with occupancy m and `ones`
 * (its points holding exactly one checker). */
static inline uint32_t nardy_after(uint32_t m, uint32_t ones, int src, int dst) {
    return (m & ~(ones & NARDY_BIT(src))) | NARDY_BIT(dst);
}

/* walk_pair for long nardy when nothing can bear off in two steps (two or more checkers outside
 * home): both orders, the larger die first, from board b with the mover's points `mover`, the
 * open points `open`, dice hi > lo; `head_limit` checkers may leave the head (point 24); six-blocks
 * starting on `forbidden` are judged after every step (`step_check`) or at the end (`end_check`).
 * Results, their order and representatives are _walks.pxi's walk_pair's (its `played` and
 * `chained` kept here as `played` and `quiet`). Two shortcuts: no block is judged where no two
 * steps can make one (every occupancy the walk can reach lies within `reach`); and if the first
 * order played two steps and none of its first steps made a block, the second order finds only
 * one checker y moved on from y - lo new (as short nardy's), every other play being the first
 * order's. Results go to the sink. The most steps of a result (-1 none, 0, 1, 2), or -2 when full. */
static int nardy_long_pair(nardy_sink *sink, const int8_t *b, uint32_t mover, uint32_t open, int hi, int lo,
                           int head_limit, uint32_t forbidden, int step_check, int end_check) {
    int8_t *out = sink->out, *moves = sink->moves;
    uint8_t *larger = sink->larger;
    int n = sink->n, cap = sink->cap, best = sink->best, store = sink->store, moves_too = sink->moves_too;
    int sub = -1, order, f, x, y, s, d1, d2, below, six, check, blocked = 0;
    nardy_board board = nardy_load(b), b1;
    uint32_t ones = nardy_where(board, 1) & NARDY_ALL_POINTS, twos = 0, empty = 0, ones1 = 0, m1, second, first;
    uint32_t reach = (mover | mover >> hi | mover >> lo | mover >> (hi + lo)) & open & NARDY_ALL_POINTS;
    uint32_t quiet = 0;    /* bit s-1: one checker s moved by both dice, recorded */
    uint32_t played[26];   /* bit x-1 of played[y]: two checkers "x/hi y/lo" recorded (the first order) */
    uint32_t seen = 0;     /* the y whose played[y] is set */
    uint64_t word;
    if (!nardy_six(reach, forbidden))
        step_check = end_check = 0;  /* no block can be made */
    check = step_check || end_check;
    if (check) {
        twos = nardy_where(board, 2) & NARDY_ALL_POINTS;
        empty = nardy_where(board, 0) & NARDY_ALL_POINTS;
    }
    for (order = 0; order < 2; order++) {
        d1 = order == 0 ? hi : lo;
        d2 = order == 0 ? lo : hi;
        if (order == 1 && best == 2 && !blocked) {  /* only y on from y - lo can be new */
            first = mover & (open << lo) & (open << (hi + lo)) & NARDY_ALL_POINTS & ~quiet;
            if (head_limit <= 0)
                first &= ~NARDY_BIT(24);
            while (first) {
                y = (__builtin_clz(first) ^ 31) + 1;
                first &= ~NARDY_BIT(y);
                x = y - lo;
                m1 = nardy_after(mover, ones, y, x);
                if (step_check && nardy_six(m1, forbidden))
                    continue;
                if (check && nardy_six(nardy_after(m1, empty, x, x - hi), forbidden))
                    continue;  /* (x was empty: y's checker alone there) */
                word = nardy_with(nardy_with(~(uint64_t)0 << 32, 0, y, x), 16, x, x - hi);
                if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too,
                                 nardy_stepped(board, y, x - hi, 0), 2, 0, 0, word, 0) < 0)
                    goto full;
            }
            break;
        }
        first = mover & (open << d1) & NARDY_ALL_POINTS;
        if (head_limit <= 0)
            first &= ~NARDY_BIT(24);
        while (first) {
            f = (__builtin_clz(first) ^ 31) + 1;
            first &= ~NARDY_BIT(f);
            m1 = nardy_after(mover, ones, f, f - d1);
            if (step_check && nardy_six(m1, forbidden)) {
                blocked = 1;
                continue;  /* the first step makes an illegal block */
            }
            b1 = nardy_stepped(board, f, f - d1, 0);
            if (check)  /* b1's points holding one checker */
                ones1 = (ones & ~NARDY_BIT(f) & ~NARDY_BIT(f - d1)) | (twos & NARDY_BIT(f)) | (empty & NARDY_BIT(f - d1));
            second = m1 & (open << d2) & NARDY_ALL_POINTS;
            if ((f == 24) >= head_limit)  /* the checkers taken from the head so far */
                second &= ~NARDY_BIT(24);
            below = -1;
            if (order == 1 && (seen & NARDY_BIT(f))) {  /* two checkers, recorded already */
                below = (second & played[f]) ? 2 : below;
                second &= ~played[f];
            }
            while (second) {
                int g2 = (__builtin_clz(second) ^ 31) + 1;
                second &= ~NARDY_BIT(g2);
                if (order == 0) {  /* x/hi then y/lo */
                    x = f;
                    y = g2;
                    s = y == x - hi ? x : (y - lo == x ? y : 0);
                } else {  /* y/lo then x/hi */
                    y = f;
                    x = g2;
                    s = x == y - lo ? y : (x - hi == y ? x : 0);
                }
                if (s && (quiet & NARDY_BIT(s))) {
                    below = 2;  /* recorded already: the same play */
                    continue;
                }
                six = check && nardy_six(nardy_after(m1, ones1, g2, g2 - d2), forbidden);
                if (six && step_check)
                    continue;
                if (!six) {
                    word = nardy_with(nardy_with(~(uint64_t)0 << 32, 0, f, f - d1), 16, g2, g2 - d2);
                    if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too,
                                     nardy_stepped(b1, g2, g2 - d2, 0), 2, 0, 0, word, 0) < 0)
                        goto full;
                }
                if (best == 2) {
                    below = 2;
                    if (s)
                        quiet |= NARDY_BIT(s);
                    else if (order == 0) {
                        if (!(seen & NARDY_BIT(y))) {
                            seen |= NARDY_BIT(y);
                            played[y] = 0;
                        }
                        played[y] |= NARDY_BIT(x);
                    }
                }
            }
            /* candidate(1, below) */
            if (below < 1 && !(end_check && nardy_six(m1, forbidden))) {
                if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, b1, 1, 0, 0,
                                 nardy_with(~(uint64_t)0 << 16, 0, f, f - d1), order == 0) < 0)
                    goto full;
                below = 1;
            }
            sub = below > sub ? below : sub;
        }
    }
    /* candidate(0, sub) */
    if (sub < 1 && !(end_check && nardy_six(mover, forbidden))) {
        if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, board, 0, 0, 0, ~(uint64_t)0, 0)
            < 0)
            goto full;
        sub = 0;
    }
    return nardy_finish(sink, n, best, sub);
full:
    return nardy_finish(sink, n, best, -2);
}

/* Long nardy's walk_double when nothing can bear off in four steps (four or more checkers
 * outside home): a double d from board b, the mover's points `mover`, the open points `open`,
 * `head_limit` checkers may leave the head (point 24), six-blocks starting on `forbidden`
 * judged after every step (`step_check`) or at the end (`end_check`); each multiset of steps
 * once, in non-increasing source order. Results, their order and representatives are
 * _walks.pxi's walk_double's; no block is judged where no four steps can make one (every
 * occupancy the walk can reach lies within `reach`). Results go to the sink. The most steps of
 * a result (-1 none, 0 to 4), -2 when full, or -3 if a step made a block with `step_check`
 * (another order might avoid it: the caller walks every order instead). */
static int nardy_long_double(nardy_sink *sink, const int8_t *b, uint32_t mover, uint32_t open, int d,
                             int head_limit, uint32_t forbidden, int step_check, int end_check) {
    int8_t *out = sink->out, *moves = sink->moves;
    uint8_t *larger = sink->larger;
    int n = sink->n, cap = sink->cap, best = sink->best, store = sink->store, moves_too = sink->moves_too;
    int sub = -1, s1, s2, s3, s4, h1, h2, h3, below1, below2, below3, six, check;
    uint32_t open_d = open << d, srcs1, srcs2, srcs3, srcs4, m1, m2, m3, ones0, ones1, ones2, ones3 = 0;
    uint32_t reach = (mover | mover >> d | mover >> (2 * d) | mover >> (3 * d) | mover >> (4 * d)) & open
                     & NARDY_ALL_POINTS;
    uint64_t p1, p2, p3;
    nardy_board b0 = nardy_load(b), b1, b2, b3;
    if (!nardy_six(reach, forbidden))
        step_check = end_check = 0;  /* no block can be made */
    check = step_check || end_check;
    ones0 = nardy_where(b0, 1) & NARDY_ALL_POINTS;
    srcs1 = mover & open_d & NARDY_ALL_POINTS;
    if (0 >= head_limit)
        srcs1 &= ~NARDY_BIT(24);
    while (srcs1) {
        s1 = (__builtin_clz(srcs1) ^ 31) + 1;
        srcs1 &= ~NARDY_BIT(s1);
        m1 = nardy_after(mover, ones0, s1, s1 - d);
        if (step_check && nardy_six(m1, forbidden))
            goto blocked;
        b1 = nardy_stepped(b0, s1, s1 - d, 0);
        ones1 = nardy_where(b1, 1) & NARDY_ALL_POINTS;
        h1 = s1 == 24;  /* the checkers taken from the head so far */
        p1 = nardy_with(0, 0, s1, s1 - d);
        srcs2 = m1 & open_d & NARDY_UPTO(s1);
        if (h1 >= head_limit)
            srcs2 &= ~NARDY_BIT(24);
        below1 = -1;
        while (srcs2) {
            s2 = (__builtin_clz(srcs2) ^ 31) + 1;
            srcs2 &= ~NARDY_BIT(s2);
            m2 = nardy_after(m1, ones1, s2, s2 - d);
            if (step_check && nardy_six(m2, forbidden))
                goto blocked;
            b2 = nardy_stepped(b1, s2, s2 - d, 0);
            ones2 = nardy_where(b2, 1) & NARDY_ALL_POINTS;
            h2 = h1 + (s2 == 24);
            p2 = nardy_with(p1, 16, s2, s2 - d);
            srcs3 = m2 & open_d & NARDY_UPTO(s2);
            if (h2 >= head_limit)
                srcs3 &= ~NARDY_BIT(24);
            below2 = -1;
            while (srcs3) {
                s3 = (__builtin_clz(srcs3) ^ 31) + 1;
                srcs3 &= ~NARDY_BIT(s3);
                m3 = nardy_after(m2, ones2, s3, s3 - d);
                if (step_check && nardy_six(m3, forbidden))
                    goto blocked;
                b3 = nardy_stepped(b2, s3, s3 - d, 0);
                h3 = h2 + (s3 == 24);
                p3 = nardy_with(p2, 32, s3, s3 - d);
                srcs4 = m3 & open_d & NARDY_UPTO(s3);
                if (h3 >= head_limit)
                    srcs4 &= ~NARDY_BIT(24);
                if (srcs4 && check)
                    ones3 = nardy_where(b3, 1) & NARDY_ALL_POINTS;
                below3 = -1;
                while (srcs4) {  /* the last step, made on the result's copy only */
                    s4 = (__builtin_clz(srcs4) ^ 31) + 1;
                    srcs4 &= ~NARDY_BIT(s4);
                    six = check && nardy_six(nardy_after(m3, ones3, s4, s4 - d), forbidden);
                    if (six && step_check)
                        goto blocked;
                    if (!six) {
                        if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too,
                                         nardy_stepped(b3, s4, s4 - d, 0), 4, 0, 0, nardy_with(p3, 48, s4, s4 - d),
                                         0) < 0)
                            goto full;
                        below3 = 4;
                    }
                }
                if (below3 < 3 && !(end_check && nardy_six(m3, forbidden))) {  /* candidate(3, below3) */
                    if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, b3, 3, 0, 0,
                                     p3 | ~(uint64_t)0 << 48, 0) < 0)
                        goto full;
                    below3 = 3;
                }
                below2 = below3 > below2 ? below3 : below2;
            }
            if (below2 < 2 && !(end_check && nardy_six(m2, forbidden))) {  /* candidate(2, below2) */
                if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, b2, 2, 0, 0,
                                 p2 | ~(uint64_t)0 << 32, 0) < 0)
                    goto full;
                below2 = 2;
            }
            below1 = below2 > below1 ? below2 : below1;
        }
        if (below1 < 1 && !(end_check && nardy_six(m1, forbidden))) {  /* candidate(1, below1) */
            if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, b1, 1, 0, 0,
                             p1 | ~(uint64_t)0 << 16, 0) < 0)
                goto full;
            below1 = 1;
        }
        sub = below1 > sub ? below1 : sub;
    }
    if (sub < 0 && !(end_check && nardy_six(mover, forbidden))) {  /* candidate(0, sub) */
        if (nardy_record(out, moves, larger, &n, &best, cap, store, moves_too, b0, 0, 0, 0, ~(uint64_t)0, 0) < 0)
            goto full;
        sub = 0;
    }
    return nardy_finish(sink, n, best, sub);
full:
    return nardy_finish(sink, n, best, -2);
blocked:
    return nardy_finish(sink, n, best, -3);
}

#endif
