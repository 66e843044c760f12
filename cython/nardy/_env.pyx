"""N games at once in the compiled core: the state of nardy.play.env's batched environment and its
step, without the GIL, and the feature encodings of whole batches of boards.

Game slot i keeps one row of 28 int8 (its board in the mover's view, then the dice rolled for
its turn, larger first), the colour on roll, the starter, the plies played, the last-roll flag
(long nardy, last_roll_draw) and its own numpy bit generator. A step applies every game's
chosen afterstate, scores and restarts the games that end, passes the turn, rolls, and
generates every game's afterstates into one packed array: game i's are rows
offsets[i]:offsets[i+1], in the move generator's order. A roll that cannot be played has one
afterstate, the unchanged board. A game still running after `max_plies` plies is truncated
(scored as nothing, restarted), so that no slot plays forever, even where neither side can move.
A step may skip slots (their games do not move; Gymnasium's next-step autoreset uses it).
Every method that touches the buffers holds the object's lock: one Games stepped from several
threads is serialised, never corrupted.

A slot draws from its generator exactly as `simulate` draws from a chunk's: the roll-off (ties
roll again), two dice per turn (with opening="dice" the roll-off dice open), and `sample` draws
a uniform afterstate index only when there is more than one. So slot i playing sampled actions
plays the games of simulate's chunk i with policy "random", and playing action 0, "first".
"""

import threading

import numpy as np

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from nardy._board cimport BAR, CHECKERS, HEAD, LONG, PLAYING, SHORT, VIEW, flip, judge, opposite, rules_of, rules_t, scan, scan_t
from nardy._dice cimport below, bitgen_t, roll, roll_off
from nardy._movegen cimport gen_free, gen_grow, gen_init, gen_moves, gen_t

cdef enum:
    ROW = 28            # a slot's row: the board (26), then the dice (larger first)
    FEATURES = 198      # the board units of either variant's encoding
    SIDE = 98           # one side's units: 24 points x 4, then two more
    DICE_UNITS = 12     # one-hot larger die, one-hot smaller die

BOARD_FEATURES = FEATURES
OBSERVATION_FEATURES = FEATURES + DICE_UNITS


cdef class Games:
    """The state of `n` game slots and the afterstates of their turns (nardy.play.env.VectorEnv's core)."""

    cdef rules_t rules
    cdef bint koks, opening_dice
    cdef readonly int n
    cdef readonly int32_t max_plies
    cdef int first_mover
    cdef object lock
    cdef const uint8_t* c_skip
    cdef int8_t start[26]
    cdef gen_t g
    cdef bitgen_t** rngs
    cdef list generators
    # the state, read (never written) by nardy.play.env
    cdef readonly object state, colors, starters, plies, last_roll
    # what the last step did: the afterstates played, rewards, ends
    cdef readonly object chosen, rewards, terminated, truncated, winners, points, lengths
    # every slot's afterstates of its current turn: buffer[offsets[i]:offsets[i+1]]
    cdef readonly object offsets
    cdef object buffer
    cdef readonly int64_t total
    cdef int64_t capacity
    cdef int8_t* c_state
    cdef int8_t* c_colors
    cdef int8_t* c_starters
    cdef int32_t* c_plies
    cdef uint8_t* c_last
    cdef int8_t* c_chosen
    cdef double* c_rewards
    cdef uint8_t* c_term
    cdef uint8_t* c_trunc
    cdef int8_t* c_winners
    cdef int8_t* c_points
    cdef int32_t* c_lengths
    cdef int64_t* c_offsets
    cdef int8_t* c_buffer

    def __cinit__(self):
        self.rngs = NULL
        self.c_skip = NULL
        memset(&self.g, 0, sizeof(gen_t))

    def __init__(self, int n, tuple rules, bint koks, bint opening_dice, const int8_t[::1] start, list generators,
                 int32_t max_plies, int first_mover=-1):
        if n < 1 or max_plies < 1:
            raise ValueError("n >= 1 games, max_plies >= 1")
        self.lock = threading.Lock()
        self.n = n
        self.max_plies = max_plies
        self.first_mover = first_mover
        self.rules = rules_of(rules)
        self.koks = koks
        self.opening_dice = opening_dice
        memcpy(self.start, &start[0], VIEW)
        if gen_init(&self.g, &self.rules, 512) < 0:
            raise MemoryError()
        self.rngs = <bitgen_t**>malloc(n * sizeof(bitgen_t*))
        if self.rngs == NULL:
            raise MemoryError()
        self.state = np.zeros((n, ROW), np.int8)
        self.colors = np.zeros(n, np.int8)
        self.starters = np.zeros(n, np.int8)
        self.plies = np.zeros(n, np.int32)
        self.last_roll = np.zeros(n, np.bool_)
        self.chosen = np.zeros((n, VIEW), np.int8)
        self.rewards = np.zeros(n, np.float64)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self.winners = np.zeros(n, np.int8)
        self.points = np.zeros(n, np.int8)
        self.lengths = np.zeros(n, np.int32)
        self.offsets = np.zeros(n + 1, np.int64)
        self.c_state = _bytes(self.state)
        self.c_colors = _bytes(self.colors)
        self.c_starters = _bytes(self.starters)
        self.c_plies = <int32_t*>_bytes(self.plies)
        self.c_last = <uint8_t*>_bytes(self.last_roll)
        self.c_chosen = _bytes(self.chosen)
        self.c_rewards = <double*>_bytes(self.rewards)
        self.c_term = <uint8_t*>_bytes(self.terminated)
        self.c_trunc = <uint8_t*>_bytes(self.truncated)
        self.c_winners = _bytes(self.winners)
        self.c_points = _bytes(self.points)
        self.c_lengths = <int32_t*>_bytes(self.lengths)
        self.c_offsets = <int64_t*>_bytes(self.offsets)
        self.capacity = 0
        self.total = 0
        self._grow(32 * <int64_t>n)
        self.seed(generators)

    def __dealloc__(self):
        gen_free(&self.g)
        free(self.rngs)

    def seed(self, list generators):
        """Give slot i the numpy BitGenerator generators[i] (kept alive here, used without its lock)."""
        cdef int i
        if len(generators) != self.n:
            raise ValueError(f"{self.n} generators, got {len(generators)}")
        with self.lock:
            for i in range(self.n):
                self.rngs[i] = <bitgen_t*>PyCapsule_GetPointer(generators[i].capsule, "BitGenerator")
            self.generators = list(generators)

    @property
    def afterstates(self):
        """(total, 26) int8: every slot's afterstates (a view, overwritten by the next step)."""
        return self.buffer[:self.total]

    def reset(self):
        """A new game in every slot: the roll-off, the first roll, its afterstates."""
        cdef int i
        with self.lock:
            with nogil:
                for i in range(self.n):
                    self._new_game(i)
                    self.c_term[i] = 0
                    self.c_trunc[i] = 0
                    self.c_rewards[i] = 0
            self._generate(False)

    def step(self, const int64_t[::1] actions, const uint8_t[::1] skip=None):
        """Play afterstate actions[i] in every slot i (but those where skip[i] is set, whose games
        stay as they are); -1, or the first slot whose action is out of range (then nothing has
        changed)."""
        cdef int i
        cdef int64_t a
        if actions.shape[0] != self.n or (skip is not None and skip.shape[0] != self.n):
            raise ValueError(f"{self.n} actions and skips, got {actions.shape[0]}")
        with self.lock:
            for i in range(self.n):
                a = actions[i]
                if (skip is None or not skip[i]) and (a < 0 or a >= self.c_offsets[i + 1] - self.c_offsets[i]):
                    return i
            with nogil:
                for i in range(self.n):
                    if skip is None or not skip[i]:
                        memcpy(self.c_chosen + i * VIEW, self.c_buffer + (self.c_offsets[i] + actions[i]) * VIEW, VIEW)
            self.c_skip = NULL if skip is None else &skip[0]
            try:
                self._generate(True)
            finally:
                self.c_skip = NULL
        return -1

    def observation_features(self):
        """(n, 210) float32: every slot's board and dice encoded, the mover on roll."""
        out = np.empty((self.n, FEATURES + DICE_UNITS), np.float32)
        cdef float[:, ::1] o = out
        cdef int i
        with self.lock:
            with nogil:
                for i in range(self.n):
                    encode_row(self.c_state + i * ROW, self.rules.variant, True, &o[i, 0])
                    encode_dice(self.c_state[i * ROW + VIEW], self.c_state[i * ROW + VIEW + 1], &o[i, FEATURES])
        return out

    def afterstate_features(self, out=None):
        """(total, 198) float32: every afterstate encoded from the side that moves, the other on roll
        (into `out`, a C-contiguous float32 (total, 198) array, if given)."""
        with self.lock:
            return encode(self.buffer[:self.total], self.rules.variant, False, None, out)

    def argmax(self, const double[::1] values):
        """Per slot, the index of its afterstate with the highest value (the first on ties)."""
        out = np.zeros(self.n, np.int64)
        cdef int64_t[::1] o = out
        cdef int i
        cdef int64_t k, best
        with self.lock:
            if values.shape[0] != self.total:
                raise ValueError(f"{self.total} values, got {values.shape[0]}")
            with nogil:
                for i in range(self.n):
                    best = self.c_offsets[i]
                    for k in range(best + 1, self.c_offsets[i + 1]):
                        if values[k] > values[best]:
                            best = k
                    o[i] = best - self.c_offsets[i]
        return out

    def sample(self):
        """A uniform random afterstate index per slot, drawn from the slot's own generator
        (nothing is drawn when there is one afterstate, as simulate's "random" policy does)."""
        out = np.zeros(self.n, np.int64)
        cdef int64_t[::1] o = out
        cdef int i
        cdef int64_t count
        with self.lock:
            with nogil:
                for i in range(self.n):
                    count = self.c_offsets[i + 1] - self.c_offsets[i]
                    if count > 1:
                        o[i] = below(self.rngs[i], <uint32_t>count)
        return out

    cdef void _new_game(self, int i) noexcept nogil:
        """Slot i starts a new game: the roll-off decides the starter, which rolls (docs/rules.md section 6);
        from a given start (first_mover 0 or 1), that colour is on roll and rolls at once."""
        cdef bitgen_t* rng = self.rngs[i]
        cdef int8_t* row = self.c_state + i * ROW
        cdef int a = 0, b = 0, d1, d2
        if self.first_mover < 0:
            self.c_starters[i] = self.c_colors[i] = roll_off(rng, &a, &b)
        else:
            self.c_starters[i] = self.c_colors[i] = self.first_mover
        self.c_plies[i] = 0
        self.c_last[i] = 0
        memcpy(row, self.start, VIEW)
        if self.opening_dice and a != 0:
            d1, d2 = a, b
        else:
            d1 = roll(rng)
            d2 = roll(rng)
        row[VIEW] = d1 if d1 > d2 else d2
        row[VIEW + 1] = d2 if d1 > d2 else d1

    cdef void _advance(self, int i) noexcept nogil:
        """Slot i after its chosen afterstate: scored, a new game if it ended, else the turn passes
        and the other side rolls. The reward is the side that moved's: +points won, -points lost."""
        cdef const int8_t* child = self.c_chosen + i * VIEW
        cdef int8_t* row = self.c_state + i * ROW
        cdef int mover = self.c_colors[i], kind, winner, d1, d2
        cdef bint last_roll = self.c_last[i]
        self.c_plies[i] += 1
        winner = judge(child, mover, self.c_starters[i], &last_roll, &self.rules, self.koks, &kind)
        self.c_last[i] = last_roll
        self.c_winners[i] = winner
        self.c_points[i] = kind
        self.c_rewards[i] = 0 if winner < 0 else (kind if winner == mover else -kind)
        self.c_term[i] = winner != PLAYING
        self.c_trunc[i] = winner == PLAYING and self.c_plies[i] >= self.max_plies
        if self.c_term[i] or self.c_trunc[i]:
            self.c_lengths[i] = self.c_plies[i]
            self._new_game(i)
            return
        flip(child, row, self.rules.variant)
        self.c_colors[i] = 1 - mover
        d1 = roll(self.rngs[i])
        d2 = roll(self.rngs[i])
        row[VIEW] = d1 if d1 > d2 else d2
        row[VIEW + 1] = d2 if d1 > d2 else d1

    cdef int _generate(self, bint advance) except -1:
        """Advance (if asked) and generate every slot, growing the buffer when it is full."""
        cdef int at = 0, code
        cdef bint resume = False
        self.total = 0
        while True:
            with nogil:
                code = self._fill(&at, advance, resume)
            if code == 0:
                return 0
            if code < 0:
                gen_free(&self.g)
                if gen_init(&self.g, &self.rules, 512) < 0:
                    raise MemoryError("the move generator could not be rebuilt")
                raise MemoryError("more afterstates than memory allows")
            self._grow(2 * (self.total + self.g.n))
            resume = True

    cdef int _fill(self, int* at, bint advance, bint resume) noexcept nogil:
        """Slots at[0]..n-1: 0 when done, 1 when slot at[0]'s afterstates (generated) do not fit
        in the buffer, -1 without memory."""
        cdef int i = at[0], got
        cdef int8_t* row
        while i < self.n:
            row = self.c_state + i * ROW
            if resume:
                resume = False
                got = self.g.n
            else:
                if advance:
                    if self.c_skip != NULL and self.c_skip[i]:
                        self.c_term[i] = self.c_trunc[i] = 0
                        self.c_rewards[i] = 0
                    else:
                        self._advance(i)
                got = gen_moves(&self.g, row, row[VIEW], row[VIEW + 1])
                while got < 0:
                    if gen_grow(&self.g) < 0:
                        return -1
                    got = gen_moves(&self.g, row, row[VIEW], row[VIEW + 1])
            if self.total + got > self.capacity:
                at[0] = i
                return 1
            memcpy(self.c_buffer + self.total * VIEW, self.g.out, got * VIEW)
            self.total += got
            self.c_offsets[i + 1] = self.total
            i += 1
        at[0] = i
        return 0

    cdef int _grow(self, int64_t capacity) except -1:
        """A larger afterstate buffer, keeping the rows in use."""
        grown = np.empty((capacity, VIEW), np.int8)
        if self.total:
            grown[:self.total] = self.buffer[:self.total]
        self.buffer = grown
        self.capacity = capacity
        self.c_buffer = _bytes(grown)
        return 0


cdef int8_t* _bytes(object array) except NULL:
    """The first byte of a C-contiguous numpy array (kept alive by its owner)."""
    cdef uint8_t[::1] view = array.reshape(-1).view(np.uint8)
    return <int8_t*>&view[0]


# --- encodings ---------------------------------------------------------------------------------

cdef float UNITS[16][4]   # TD-Gammon's four units of n checkers on a point
cdef int _n
for _n in range(16):
    UNITS[_n][0] = _n >= 1
    UNITS[_n][1] = _n >= 2
    UNITS[_n][2] = _n >= 3
    UNITS[_n][3] = (_n - 3) / 2.0 if _n > 3 else 0.0


cdef void encode_row(const int8_t* b, int variant, bint on_roll, float* out) noexcept nogil:
    """One board's 198 units (nardy.play.env.encode documents them), written over out[0:198]."""
    cdef int p, n, q, mine = 0, theirs = 0
    cdef float* us = out
    cdef float* them = out + SIDE
    memset(out, 0, FEATURES * sizeof(float))
    for p in range(1, 25):
        n = b[p]
        if n > 0:
            memcpy(us + 4 * (p - 1), UNITS[n], 4 * sizeof(float))
            mine += n
        elif n < 0:
            q = opposite(p, variant)
            memcpy(them + 4 * (q - 1), UNITS[-n], 4 * sizeof(float))
            theirs -= n
    if variant == SHORT:
        us[96] = b[BAR] / 2.0
        them[96] = -b[0] / 2.0
        us[97] = (CHECKERS - mine - b[BAR]) / 15.0
        them[97] = (CHECKERS - theirs + b[0]) / 15.0
    else:
        us[96] = (CHECKERS - mine) / 15.0
        them[96] = (CHECKERS - theirs) / 15.0
        us[97] = b[HEAD] == CHECKERS
        them[97] = b[12] == -CHECKERS
    out[196] = on_roll
    out[197] = not on_roll


def encode(const int8_t[:, ::1] boards, int variant, bint on_roll, const int8_t[:, ::1] dice=None, out=None):
    """(m, 198) float32 units of valid boards, or (m, 210) with the dice's 12 one-hot units
    (written into `out`, a C-contiguous float32 array of that shape, if given)."""
    cdef Py_ssize_t i, m = boards.shape[0]
    cdef int width = FEATURES if dice is None else FEATURES + DICE_UNITS
    if out is None:
        out = np.empty((m, width), np.float32)
    elif out.shape != (m, width):
        raise ValueError(f"out must be ({m}, {width}), got {out.shape}")
    if m == 0:
        return out
    cdef float[:, ::1] o = out
    with nogil:
        for i in range(m):
            encode_row(&boards[i, 0], variant, on_roll, &o[i, 0])
            if dice is not None:
                encode_dice(dice[i, 0], dice[i, 1], &o[i, FEATURES])
    return out


cdef inline void encode_dice(int d1, int d2, float* out) noexcept nogil:
    """Twelve units: the larger die one-hot, then the smaller one-hot."""
    cdef int hi = d1 if d1 > d2 else d2
    memset(out, 0, DICE_UNITS * sizeof(float))
    out[hi - 1] = 1
    out[6 + d1 + d2 - hi - 1] = 1
