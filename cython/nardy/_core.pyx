"""The def-level entry points of the compiled core: arrays in, arrays out, return codes for errors.

The caller, nardy._compiled (the compiled door), passes C-contiguous int8 arrays and rules as a
tuple of small ints (decoded by `rules_of`, _board.pxd), and turns the return codes into nardy's
exceptions: 0 = fine, > 0 = nardy.status.Status flags of an invalid position, GAME_OVER = a side
has already borne off all 15, BAD_DICE, BAD_SHAPE, BAD_ENTRY, BUSY, UNBOUND (see below); FULL
never escapes (buffers grow and the call is repeated). The core knows no text; the test and
benchmark hooks are in _hooks.pyx.
"""

import numpy as np


cimport numpy as cnp
from cpython.ref cimport Py_INCREF

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pythread cimport (
    NOWAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_free_lock, PyThread_release_lock,
    PyThread_type_lock, WAIT_LOCK,
)
from cython.view cimport array as cvarray
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t
from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memcpy

from nardy._board cimport (
    BAR, BLOCK_NONE, SHORT, VIEW, flip as c_flip, illegal_block_mover, illegal_block_opponent, mover_left,
    pips as c_pips, result_kind, rules_of, rules_t, scan, scan_t, status_of,
)
from nardy._movegen cimport (
    MOVE_BYTES, PERFT_INTERRUPTED, gen_alloc, gen_free, gen_grow, gen_moves, gen_moves_scanned, gen_set_rules, gen_t,
    gen_target, perft as c_perft,
)
from nardy._signals cimport reraise

cdef extern from "_batch.h":
    Py_ssize_t nardy_clear_blockless(const int8_t* b, Py_ssize_t i, Py_ssize_t n, uint8_t* out) noexcept nogil
    Py_ssize_t nardy_pips_rows(const int8_t* b, Py_ssize_t n, int variant, int32_t* out) noexcept nogil
    int nardy_use_avx2(int on) noexcept nogil
    int nardy_entries_outside(const int8_t* b) noexcept nogil
    void nardy_copy(void* dst, const void* src, size_t n) noexcept nogil

cnp.import_array()

cdef enum:
    C_OK = 0
    C_GAME_OVER = -1
    C_BAD_DICE = -2
    C_BAD_SHAPE = -3
    C_BAD_ENTRY = -4
    C_BUSY = -5         # a Workspace that another thread is generating into
    C_UNBOUND = -6      # a Generator's `play` before its `bind`

OK = C_OK
GAME_OVER = C_GAME_OVER
BAD_DICE = C_BAD_DICE
BAD_SHAPE = C_BAD_SHAPE
BAD_ENTRY = C_BAD_ENTRY
BUSY = C_BUSY
UNBOUND = C_UNBOUND


class TooManyRows(MemoryError):
    """A generate whose output did not fit in memory: args (rows, bytes needed, results made
    so far or -1); the compiled door words it as nardy's OutOfMemoryError."""


cdef const int8_t* board_pointer(bytes board) except? NULL:
    """The board's 26 int8, or NULL for bytes of another length (BAD_SHAPE)."""
    if len(board) != VIEW:
        return NULL
    return <const int8_t*><const char*>board


cdef inline int check(const int8_t* b, const rules_t* r, bint last_roll=False) noexcept nogil:
    """0 for a playable board, its status flags if invalid, GAME_OVER if a side has finished
    (with `last_roll`, only if the mover has: the opponent may have just borne off its last)."""
    cdef scan_t s
    return check_scan(b, r, &s, last_roll)


cdef inline int check_scan(const int8_t* b, const rules_t* r, scan_t* s, bint last_roll) noexcept nogil:
    """`check`, filling `s` with the board's scan."""
    cdef uint32_t flags = status_of(b, r, s)
    if flags:
        return <int>flags
    if s.n_mine + b[BAR] == 0 or (s.n_theirs - b[0] == 0 and not last_roll):
        return C_GAME_OVER
    return C_OK


cdef inline int check_row(const int8_t* b, const int8_t* roll, const rules_t* r, scan_t* s) noexcept nogil:
    """`check` of one row of `generate`, BAD_DICE first."""
    if not (1 <= roll[0] <= 6 and 1 <= roll[1] <= 6):
        return C_BAD_DICE
    return check_scan(b, r, s, False)


cdef inline int check_entries(const int8_t* b) noexcept nogil:
    """BAD_ENTRY if an entry is outside -15..15 (which the status flags cannot be trusted to see)."""
    return C_BAD_ENTRY if nardy_entries_outside(b) else C_OK


def status(const int8_t[:, ::1] views, tuple rules):
    """Status flags of each row (n x 26 mover's-view int8) -> uint32 (n,)."""
    cdef rules_t r = rules_of(rules)
    cdef Py_ssize_t i, n = views.shape[0]
    out = np.empty(n, np.uint32)
    cdef uint32_t[::1] o = out
    cdef scan_t s
    with nogil:
        for i in range(n):
            o[i] = status_of(&views[i, 0], &r, &s)
    return out


def blocks(const int8_t[:, ::1] views, tuple rules):
    """Illegal six-blocks of each row -> uint8 (n,): bit 0 the mover holds one, bit 1 the opponent."""
    cdef rules_t r = rules_of(rules)
    cdef Py_ssize_t i, n = views.shape[0]
    if r.variant == SHORT or r.block_rule == BLOCK_NONE:
        return np.zeros(n, np.uint8)  # every block is allowed
    out = np.empty(n, np.uint8)
    cdef uint8_t[::1] o = out
    cdef scan_t s
    cdef const int8_t* b
    if n == 0:
        return out
    with nogil:
        i = nardy_clear_blockless(&views[0, 0], 0, n, &o[0])  # SIMD: zero up to a row with six in a row
        while i < n:  # rare: the rules decide
            b = &views[i, 0]
            scan(b, &s)
            o[i] = illegal_block_mover(&s, b, &r) | (illegal_block_opponent(&s, b, &r) << 1)
            i = nardy_clear_blockless(&views[0, 0], i + 1, n, &o[0])
    return out


def pips(const int8_t[:, ::1] views, int variant):
    """Pip counts (mover's, opponent's) of each row -> int32 (n, 2)."""
    cdef Py_ssize_t i, n = views.shape[0]
    out = np.empty((n, 2), np.int32)
    cdef int32_t[:, ::1] o = out
    if n == 0:
        return out
    with nogil:
        for i in range(nardy_pips_rows(&views[0, 0], n, variant, &o[0, 0]), n):  # SIMD, then the rest
            c_pips(&views[i, 0], variant, &o[i, 0])
    return out


def wins(const int8_t[:, ::1] views, int variant, bint koks):
    """The points the mover of each row has won -> int8 (n,): 1, 2 or 3 (before the cube), or 0
    while it has checkers left (the same rule as the simulator's, `result_kind`)."""
    cdef Py_ssize_t i, n = views.shape[0]
    out = np.empty(n, np.int8)
    cdef int8_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = 0 if mover_left(&views[i, 0]) else result_kind(&views[i, 0], variant, koks)
    return out


cdef int batch_use_avx2(int on) noexcept nogil:
    """Use the AVX2 batch kernels if `on` and the CPU has AVX2 (the default); 1 if they are used
    (nardy._hooks.use_avx2 turns them off to reach the SSE2 and scalar paths)."""
    return nardy_use_avx2(on)


def flip(const int8_t[:, ::1] views, int variant):
    """Each row seen by the other side (the turn passed) -> int8 (n, 26)."""
    cdef Py_ssize_t i, n = views.shape[0]
    out = np.empty((n, VIEW), np.int8)
    cdef int8_t[:, ::1] o = out
    with nogil:
        for i in range(n):
            c_flip(&views[i, 0], &o[i, 0], variant)
    return out


cdef int larger_first(const void* a, const void* b) noexcept nogil:
    """qsort's comparison of two rows (pointers to 26 int8): the larger array first."""
    cdef const int8_t* x = (<const int8_t**>a)[0]
    cdef const int8_t* y = (<const int8_t**>b)[0]
    cdef int i
    for i in range(VIEW):
        if x[i] != y[i]:
            return 1 if x[i] < y[i] else -1
    return 0


cdef class Generator:
    """A reusable move generator: buffers grow as needed and are kept. Meant to be one per
    thread (nardy._compiled keeps one per thread); a Generator shared by threads is safe but
    serialised: a lock is held for each call, from the first use of the buffers to the last."""

    cdef gen_t g
    cdef int cap, seq_cap
    cdef PyThread_type_lock lock
    cdef rules_t bound      # `play`'s rules and its refusals (see `bind`)
    cdef object fail

    def __cinit__(self, int cap=256, int seq_cap=0):
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()
        self.cap = cap
        self.seq_cap = seq_cap
        if gen_alloc(&self.g, cap, seq_cap) < 0:
            raise MemoryError()

    def __dealloc__(self):
        gen_free(&self.g)
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    cdef void _acquire(self) noexcept:
        """Take the lock (waiting without the GIL if another thread holds it)."""
        if not PyThread_acquire_lock(self.lock, NOWAIT_LOCK):
            with nogil:
                PyThread_acquire_lock(self.lock, WAIT_LOCK)

    cdef int _grow(self) except -1:
        if gen_grow(&self.g) < 0:
            raise MemoryError()
        self.cap = self.g.cap
        self.seq_cap = self.g.seq_cap
        return 0

    cdef int _generate(self, const int8_t* view, int d1, int d2, rules_t* r,
                       bint sequences) except -2:
        """Generate into the buffers (grown until they fit); the lock is held by the caller."""
        cdef int n
        if sequences and self.seq_cap == 0:
            gen_free(&self.g)
            self.seq_cap = 4 * self.cap
            if gen_alloc(&self.g, self.cap, self.seq_cap) < 0:
                raise MemoryError()
        while True:
            gen_set_rules(&self.g, r, sequences)
            with nogil:
                n = gen_moves(&self.g, view, d1, d2)
            if n >= 0:
                return n
            self._grow()

    def moves(self, bytes board, int d1, int d2, tuple rules, bint last_roll=False):
        """(code, n, children bytes n x 26, moves bytes n x 8) for one board and roll."""
        cdef rules_t r = rules_of(rules)
        cdef const int8_t* view = board_pointer(board)
        cdef int code, n
        if view == NULL:
            return BAD_SHAPE, 0, b"", b""
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            return BAD_DICE, 0, b"", b""
        code = check(view, &r, last_roll)
        if code != C_OK:
            return code, 0, b"", b""
        self._acquire()
        try:
            n = self._generate(view, d1, d2, &r, False)
            return (OK, n, PyBytes_FromStringAndSize(<char*>self.g.out, n * VIEW),
                    PyBytes_FromStringAndSize(<char*>self.g.moves, n * MOVE_BYTES))
        finally:
            PyThread_release_lock(self.lock)

    def bind(self, tuple rules, fail):
        """Fix `play`'s rules; `fail(code, board, d1, d2, last_roll)` raises nardy's error for a
        nonzero code, and for code None checks the arguments and returns them as (bytes, int, int,
        bool) or raises."""
        self.bound = rules_of(rules)
        self.fail = fail

    def play(self, board, d1, d2, last_roll=False):
        """(n, children bytes n x 26, moves bytes n x 8) for one board and roll under the bound
        rules; anything wrong goes to `fail`, which raises. Before `bind`: (UNBOUND, b"", b"")."""
        cdef int a = 0, b = 0, code, n
        cdef const int8_t* view
        if self.fail is None:
            return C_UNBOUND, b"", b""
        if (type(board) is not bytes or len(<bytes>board) != VIEW or type(d1) is not int or type(d2) is not int
                or type(last_roll) is not bool):
            board, d1, d2, last_roll = self.fail(None, board, d1, d2, last_roll)
        try:
            a = d1
            b = d2
        except OverflowError:
            a = b = 0
        view = <const int8_t*><const char*><bytes>board
        if not (1 <= a <= 6 and 1 <= b <= 6):
            code = BAD_DICE
        else:
            code = check_entries(view)
            if code == C_OK:
                code = check(view, &self.bound, last_roll is True)
        if code != C_OK:
            self.fail(code, board, d1, d2, last_roll)
        self._acquire()
        try:
            n = self._generate(view, a, b, &self.bound, False)
            return (n, PyBytes_FromStringAndSize(<char*>self.g.out, n * VIEW),
                    PyBytes_FromStringAndSize(<char*>self.g.moves, n * MOVE_BYTES))
        finally:
            PyThread_release_lock(self.lock)

    def ordered(self, bytes board, int d1, int d2, tuple rules, bint last_roll=False):
        """(code, children, moves) for one board and roll: lists of n bytes (26 and 8 each),
        sorted by child array, largest first (entries signed): `Position.legal_moves`' order."""
        cdef rules_t r = rules_of(rules)
        cdef const int8_t* view = board_pointer(board)
        cdef int code, n, i, k
        cdef const int8_t** rows
        if view == NULL:
            return BAD_SHAPE, None, None
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            return BAD_DICE, None, None
        code = check(view, &r, last_roll)
        if code != C_OK:
            return code, None, None
        self._acquire()
        try:
            n = self._generate(view, d1, d2, &r, False)
            rows = <const int8_t**>malloc(n * sizeof(int8_t*))
            if rows == NULL:
                raise MemoryError()
            for i in range(n):
                rows[i] = self.g.out + i * VIEW
            qsort(rows, n, sizeof(int8_t*), larger_first)
            children = [None] * n
            moves = [None] * n
            for i in range(n):
                k = (rows[i] - self.g.out) // VIEW
                children[i] = PyBytes_FromStringAndSize(<const char*>rows[i], VIEW)
                moves[i] = PyBytes_FromStringAndSize(<const char*>(self.g.moves + k * MOVE_BYTES), MOVE_BYTES)
            free(rows)
            return OK, children, moves
        finally:
            PyThread_release_lock(self.lock)

    def sequences(self, bytes board, int d1, int d2, tuple rules, bint last_roll=False):
        """(code, children n x 26, moves n x 8, sequences k x 8, result index k) as arrays."""
        cdef rules_t r = rules_of(rules)
        cdef const int8_t* view = board_pointer(board)
        cdef int code, n
        if view == NULL:
            return BAD_SHAPE, None, None, None, None
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            return BAD_DICE, None, None, None, None
        code = check(view, &r, last_roll)
        if code != C_OK:
            return code, None, None, None, None
        self._acquire()
        try:
            n = self._generate(view, d1, d2, &r, True)
            k = self.g.nseq
            children = PyBytes_FromStringAndSize(<char*>self.g.out, n * VIEW)
            moves = PyBytes_FromStringAndSize(<char*>self.g.moves, n * MOVE_BYTES)
            seqs = PyBytes_FromStringAndSize(<char*>self.g.seqs, k * MOVE_BYTES)
            index = PyBytes_FromStringAndSize(<char*>self.g.seq_result, k * 4)
        finally:
            PyThread_release_lock(self.lock)
        return (OK, np.frombuffer(children, np.int8).reshape(n, VIEW),
                np.frombuffer(moves, np.int8).reshape(n, MOVE_BYTES),
                np.frombuffer(seqs, np.int8).reshape(k, MOVE_BYTES), np.frombuffer(index, np.int32))


GUESS = 32  # results per row that `generate` first makes room for (short contact averages 20)


def generate(const int8_t[:, ::1] views, const int8_t[:, ::1] rolls, tuple rules):
    """Every row's distinct results: (code, bad row, children (m, 26), offsets (n+1,), moves (m, 8)).

    Row i's results are children[offsets[i]:offsets[i+1]]. On a bad row nothing is generated:
    code says what is wrong with row `bad row` (BAD_DICE, GAME_OVER or status flags); BAD_SHAPE
    (bad row -1): views are not (n, 26) or rolls not (n, 2).
    The results are written once, straight into fresh numpy arrays with room for GUESS a row
    (pages never written are never touched, and numpy asks for huge pages for large arrays),
    grown by doubling if need be, then cut to size in place.
    """
    cdef Py_ssize_t n = views.shape[0], least
    cdef Workspace fresh
    if rolls.shape[0] != n or rolls.shape[1] != 2 or views.shape[1] != VIEW:
        return BAD_SHAPE, -1, None, None, None
    if n == 0:
        return OK, -1, np.empty((0, VIEW), np.int8), np.zeros(1, np.int64), np.empty((0, MOVE_BYTES), np.int8)
    # the allocation check: every row has at least one result, so the output's least size is
    # known before anything is allocated; it is had at once, or nardy's error says what was needed
    least = n + 16 * 1024
    try:
        fresh = Workspace(n * GUESS, n + 1)
    except MemoryError:
        try:
            fresh = Workspace(least, n + 1)
        except MemoryError:
            raise TooManyRows(n, least * (VIEW + MOVE_BYTES) + 8 * (n + 1), -1) from None
    code, bad, _, _, _ = fresh._generate(&views[0, 0], &rolls[0, 0], n, rules_of(rules))
    if code != C_OK:
        return code, bad, None, None, None
    total = fresh.offsets_p[n]
    return OK, -1, _cut(fresh._children, total), _cut(fresh._offsets, n + 1), _cut(fresh._moves, total)


cdef object _cut(object array, Py_ssize_t rows):
    """`array` (which nothing else refers to) cut to its first `rows` rows in place (realloc)."""
    array.resize((rows,) + array.shape[1:], refcheck=False)
    return array


cdef class Workspace:
    """Reusable outputs of `generate` (one per thread): the results of a call are numpy views into
    buffers it owns, overwritten by its next call. The buffers grow by doubling and are kept, so
    repeated calls neither allocate nor touch fresh pages; they hold (26 + 8) bytes per result
    and 8 per row of the largest call so far, at most twice over, plus one generator (~60 KB).
    """

    cdef gen_t g
    cdef object _children, _moves, _offsets      # numpy arrays: the whole capacity
    cdef int8_t* children_p
    cdef int8_t* moves_p
    cdef int64_t* offsets_p
    cdef Py_ssize_t result_cap, row_cap
    cdef bint busy                               # a call is generating (without the GIL)

    def __cinit__(self, Py_ssize_t results=4096, Py_ssize_t rows=256):
        if gen_alloc(&self.g, 1024, 0) < 0:
            raise MemoryError()
        self.result_cap = self.row_cap = 0
        self._grow_results(0, max(results, 1))
        self._grow_rows(max(rows, 1))

    def __dealloc__(self):
        gen_free(&self.g)

    cdef int _grow_results(self, Py_ssize_t keep, Py_ssize_t cap) except -1:
        """Room for `cap` results, the first `keep` kept."""
        children = np.empty((cap, VIEW), np.int8)
        moves = np.empty((cap, MOVE_BYTES), np.int8)
        cdef int8_t[:, ::1] c = children
        cdef int8_t[:, ::1] m = moves
        if keep:
            memcpy(&c[0, 0], self.children_p, keep * VIEW)
            memcpy(&m[0, 0], self.moves_p, keep * MOVE_BYTES)
        self._children, self._moves = children, moves
        self.children_p, self.moves_p = &c[0, 0], &m[0, 0]
        self.result_cap = cap
        return 0

    cdef int _grow_rows(self, Py_ssize_t cap) except -1:
        offsets = np.empty(cap, np.int64)
        cdef int64_t[::1] o = offsets
        self._offsets, self.offsets_p, self.row_cap = offsets, &o[0], cap
        return 0

    @property
    def nbytes(self):
        """Bytes held: the output buffers and the generator's."""
        return (self.result_cap * (VIEW + MOVE_BYTES) + self.row_cap * 8
                + self.g.cap * (VIEW + MOVE_BYTES + 1) + (self.g.table_mask + 1) * 8)

    def generate(self, object views, object rolls, tuple rules, bint copy=False):
        """`generate` into this workspace: (code, bad row, children, offsets, moves), the arrays
        views of its buffers (valid until its next call), or with `copy` fresh arrays of their own
        (the buffers then first grown to GUESS results a row: for the small calls of this thread's
        workspace, `nardy.batch.SMALL`). Code BAD_SHAPE: views are not a
        C-contiguous int8 (n, 26) buffer or rolls not (n, 2); BAD_ENTRY: an entry of row `bad
        row` is outside -15..15; BUSY: another thread's call is generating into this workspace
        (its buffers may move: each thread needs its own)."""
        cdef Py_buffer vb, rb
        cdef int code
        if self.busy:  # tested and set with the GIL held, so no two calls pass it at once
            return C_BUSY, -1, None, None, None
        self.busy = True
        try:
            if not int8_rows(views, &vb, VIEW):
                return C_BAD_SHAPE, -1, None, None, None
            if not int8_rows(rolls, &rb, 2):
                PyBuffer_Release(&vb)
                return C_BAD_SHAPE, -1, None, None, None
            try:
                if rb.shape[0] != vb.shape[0]:
                    return C_BAD_SHAPE, -1, None, None, None
                if copy and self.result_cap < GUESS * vb.shape[0]:  # room at once: nothing kept is copied
                    self._grow_results(0, GUESS * vb.shape[0])
                found = self._generate(<const int8_t*>vb.buf, <const int8_t*>rb.buf, vb.shape[0], rules_of(rules))
                if not copy or found[0] != C_OK:
                    return found
                n, total = vb.shape[0], self.offsets_p[vb.shape[0]]
                return (OK, -1, copy_of(self.children_p, total, VIEW), copy_of(self.offsets_p, n + 1, 0),
                        copy_of(self.moves_p, total, MOVE_BYTES))
            finally:
                PyBuffer_Release(&vb)
                PyBuffer_Release(&rb)
        finally:
            self.busy = False

    cdef tuple _generate(self, const int8_t* views, const int8_t* rolls, Py_ssize_t n, rules_t r):
        cdef Py_ssize_t i = 0, total = 0, bad = -1, room
        cdef int code = C_OK, got, own_cap
        cdef int8_t* own_out
        cdef int8_t* own_moves
        cdef scan_t s
        if n + 1 > self.row_cap:
            try:
                self._grow_rows(max(n + 1, 2 * self.row_cap))
            except MemoryError:
                raise TooManyRows(n, 8 * (n + 1) + n * (VIEW + MOVE_BYTES), -1) from None
        gen_set_rules(&self.g, &r, False)
        self.offsets_p[0] = 0
        while True:
            own_out, own_moves, own_cap = self.g.out, self.g.moves, self.g.cap
            with nogil:
                while i < n:  # each row checked, then generated straight into the output
                    code = check_entries(views + i * VIEW)
                    if code == C_OK:
                        code = check_row(views + i * VIEW, rolls + 2 * i, &r, &s)
                    if code != C_OK:
                        bad = i
                        break
                    room = self.result_cap - total
                    gen_target(&self.g, self.children_p + total * VIEW, self.moves_p + total * MOVE_BYTES,
                               own_cap if room >= own_cap else <int>room)
                    got = gen_moves_scanned(&self.g, views + i * VIEW, &s, rolls[2 * i], rolls[2 * i + 1])
                    if got < 0:
                        break
                    total += got
                    self.offsets_p[i + 1] = total
                    i += 1
                gen_target(&self.g, own_out, own_moves, own_cap)
            if code != C_OK or i == n:
                break
            if self.result_cap - total < own_cap:  # row i did not fit in the output: more room
                room = max(2 * self.result_cap, total + own_cap)
                try:
                    self._grow_results(total, room)
                except MemoryError:
                    raise TooManyRows(n, room * (VIEW + MOVE_BYTES) + 8 * (n + 1), total) from None
            elif gen_grow(&self.g) < 0:  # nor in the generator: a larger one
                raise TooManyRows(n, 2 * self.g.cap * (VIEW + MOVE_BYTES + 1), total)
        if code != C_OK:
            return code, bad, None, None, None
        return (OK, -1, view_of(self._children, self.children_p, total, VIEW),
                view_of(self._offsets, self.offsets_p, n + 1, 0), view_of(self._moves, self.moves_p, total, MOVE_BYTES))


cdef object copy_of(void* data, Py_ssize_t rows, int width):
    """A fresh copy of `rows` rows at `data` (int8 rows of `width`, or int64 when width is 0)."""
    cdef cnp.npy_intp dims[2]
    dims[0] = rows
    dims[1] = width
    cdef cnp.ndarray array = (cnp.PyArray_SimpleNew(2, dims, cnp.NPY_INT8) if width
                              else cnp.PyArray_SimpleNew(1, dims, cnp.NPY_INT64))
    nardy_copy(cnp.PyArray_DATA(array), data, rows * (width if width else 8))
    return array


cdef object view_of(object base, void* data, Py_ssize_t rows, int width):
    """The first `rows` rows of `base` (int8 rows of `width`, or int64 when width is 0) as a
    numpy view: what `base[:rows]` gives, made in C (slicing costs three times as much)."""
    cdef cnp.npy_intp dims[2]
    dims[0] = rows
    dims[1] = width
    cdef cnp.ndarray view = (cnp.PyArray_SimpleNewFromData(2, dims, cnp.NPY_INT8, data) if width
                             else cnp.PyArray_SimpleNewFromData(1, dims, cnp.NPY_INT64, data))
    Py_INCREF(base)  # the view keeps its buffer alive: SetBaseObject takes this reference
    cnp.PyArray_SetBaseObject(view, base)
    return view


cdef bint int8_rows(object array, Py_buffer* buf, Py_ssize_t width):
    """Take a C-contiguous int8 (n, width) buffer of `array` into `buf` (to be released), or False."""
    try:
        PyObject_GetBuffer(array, buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
    except (TypeError, ValueError, BufferError):
        return False
    if buf.ndim == 2 and buf.shape[1] == width and buf.itemsize == 1 and buf.format[0] == b"b" and buf.format[1] == 0:
        return True
    PyBuffer_Release(buf)
    return False


def perft(bytes board, int depth, tuple rules):
    """(code, count): docs/rules.md section 7 perft of one board (26 int8 bytes)."""
    cdef rules_t r = rules_of(rules)
    cdef const int8_t* view = board_pointer(board)
    cdef int code, cap = 1024
    cdef int64_t count
    if view == NULL:
        return BAD_SHAPE, 0
    code = check(view, &r)
    if code == C_GAME_OVER:
        return OK, 1  # a game that has ended is a leaf
    if code:
        return code, 0
    while True:
        with nogil:
            count = c_perft(view, depth, &r, cap)
        if count >= 0:
            return OK, count
        if count == PERFT_INTERRUPTED:
            reraise()  # a signal handler raised (Ctrl-C: KeyboardInterrupt)
        cap *= 4
