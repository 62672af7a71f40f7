/* The hot paths of a shared-memory instruction, compiled: the load and the store with their race
   and taint bookkeeping, the bounds and alignment check, and the recorded rows.

   The same rules as the numpy code they stand in for, which stays the reference and runs wherever
   this module was not built (sass/compiled.py loads it): ops/memory.py's _SharedSpace.read and
   .write and _check, record.py's _RowStore.append. tests/test_shared_words.py runs random sequences
   through both and requires the same bytes, taints, stamps and atomic codes after every step; every
   measured kernel runs through this one. This file exists for speed only: those steps were half the
   time of a loop on shared memory, as 30 to 40 numpy calls of half a microsecond each on the
   block's lanes, where one call here takes about one.

   Buffers come from numpy arrays (the block's state and the access's vectors) through the buffer
   protocol; every length is checked against the others, and an address outside the memory makes
   the call refuse (ValueError), so that the caller's numpy path answers instead, with its message.

   Layout of an access: ``k`` lanes, ``width`` bytes each, entry e = j * k + i for byte j of lane i
   (byte-major, as numpy's (width, lanes) index arrays are raveled: where two entries land on one
   byte, the later one's write is the one that stays).

   Stamps (int64 per byte): who last wrote a byte and when (see state.Block.shared_stamp); while the
   checks go by words (``by_bytes`` false) only each word's first byte's stamp and atomic code are
   read and written. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TIMING 0x80000000u

#include "_buffers.h"

/* Every address in [0, size - width]. */
static int in_bounds(const int64_t *addr, Py_ssize_t k, Py_ssize_t width, Py_ssize_t size) {
    for (Py_ssize_t i = 0; i < k; i++)
        if (addr[i] < 0 || addr[i] > size - width)
            return 0;
    return 1;
}

/* One access as the calls get it: the block's shared memory (its bytes, each byte's taint, each
   word's taint (None where the size is not a multiple of 4), each byte's stamp and, for writes,
   atomic code), the k lanes' addresses and the stamp each lane leaves (``mine``, optional for
   reads that check no race). */
typedef struct {
    Buf data, taint, tw, stamp, atomic, addr, mine;
    Py_ssize_t size, k;
} Access;

static int get_access(Access *x, PyObject *data, PyObject *taint, PyObject *tw, PyObject *stamp, PyObject *atomic,
                      PyObject *addr, PyObject *mine, int mine_optional, int writable) {
    memset(x, 0, sizeof *x);
    if (get(data, &x->data, 1, -1, writable, 0, "data") < 0)
        return -1;
    x->size = x->data.view.len;
    if (get(taint, &x->taint, 4, x->size, writable, 0, "taint") < 0 ||
        get(tw, &x->tw, 4, x->size / 4, writable, 1, "taint words") < 0 ||
        get(stamp, &x->stamp, 8, x->size, writable, 0, "stamp") < 0 ||
        (atomic && get(atomic, &x->atomic, 2, x->size, writable, 0, "atomic") < 0) ||
        get(addr, &x->addr, 8, -1, 0, 0, "addr") < 0)
        return -1;
    x->k = x->addr.view.len / 8;
    return get(mine, &x->mine, 8, x->k, 0, mine_optional, "mine");
}

static void release_access(Access *x) {
    release(&x->data);
    release(&x->taint);
    release(&x->tw);
    release(&x->stamp);
    release(&x->atomic);
    release(&x->addr);
    release(&x->mine);
}

static inline int64_t where(int64_t a, int by_bytes) { return by_bytes ? a : (a & ~(int64_t)3); }

/* Shared memory as the loads and stores see it: its bytes, each byte's taint, each word's (NULL where
   the size is not a multiple of 4), each byte's stamp and atomic code (NULL for a load). */
typedef struct {
    uint8_t *bytes;
    uint32_t *tb, *twb;
    int64_t *st;
    int16_t *at;
    Py_ssize_t size;
} Mem;

static Mem mem_of(Access *x) {
    Mem m = {x->data.view.buf, x->taint.view.buf, x->tw.held && x->size % 4 == 0 ? x->tw.view.buf : NULL,
             x->stamp.view.buf, x->atomic.held ? x->atomic.view.buf : NULL, x->size};
    return m;
}

/* The load of k lanes at ``a`` (in bounds): their bytes into ``o`` ((k, width)), each lane's taint into
   ``t`` (k). Returns 1 where the taint is one for every lane (then it is ``*one``), else 0. */
static int load_lanes(const Mem *s, const int64_t *a, Py_ssize_t k, Py_ssize_t width, int tainted, int check,
                      int by_bytes, int64_t since, const int64_t *mn, uint8_t *o, uint32_t *t, uint32_t *one) {
    for (Py_ssize_t i = 0; i < k; i++)
        memcpy(o + i * width, s->bytes + a[i], (size_t)width);
    *one = 0;
    if (!tainted && !check)
        return 1;
    int uniform = 1;
    for (Py_ssize_t i = 0; i < k; i++) {
        uint32_t v = 0;
        if (tainted) {
            if (s->twb && !(width & 3))
                for (Py_ssize_t r = 0; r < width / 4; r++)
                    v |= s->twb[(a[i] >> 2) + r];
            else
                for (Py_ssize_t j = 0; j < width; j++)
                    v |= s->tb[a[i] + j];
        }
        if (check)
            for (Py_ssize_t j = 0; j < width; j++) {
                int64_t st = s->st[where(a[i] + j, by_bytes)];
                if (st > since && st != mn[i]) {
                    v |= TIMING;
                    break;
                }
            }
        t[i] = v;
        uniform &= v == t[0];
    }
    if (k)
        *one = t[0];
    return uniform;
}

/* read(data, taint, taint_words, stamp, addr, width, tainted, check, by_bytes, since, mine, out)
   -> the loaded lanes' taint: an int where it is one for all of them, else a bytes object of k
   uint32. ``out``: (k, width) bytes, filled with what the lanes load. ``mine``: each lane's stamp
   (None unless ``check``). */
static PyObject *shared_read(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_data, *o_taint, *o_tw, *o_stamp, *o_addr, *o_mine, *o_out;
    Py_ssize_t width;
    int tainted, check, by_bytes;
    long long since;
    if (!PyArg_ParseTuple(args, "OOOOOnpppLOO", &o_data, &o_taint, &o_tw, &o_stamp, &o_addr, &width, &tainted,
                          &check, &by_bytes, &since, &o_mine, &o_out))
        return NULL;
    Access x;
    Buf out;
    memset(&out, 0, sizeof out);
    PyObject *result = NULL;
    if (width < 1 || width > 16) {
        PyErr_SetString(PyExc_ValueError, "width");
        return NULL;
    }
    if (get_access(&x, o_data, o_taint, o_tw, o_stamp, NULL, o_addr, o_mine, !check, 0) < 0)
        goto done;
    Py_ssize_t size = x.size, k = x.k;
    if (get(o_out, &out, 1, k * width, 1, 0, "out") < 0)
        goto done;
    const int64_t *a = x.addr.view.buf;
    if (!in_bounds(a, k, width, size)) {
        PyErr_SetString(PyExc_ValueError, "an address outside shared memory");
        goto done;
    }
    Mem s = mem_of(&x);
    PyObject *many = PyBytes_FromStringAndSize(NULL, k * 4);
    if (!many)
        goto done;
    uint32_t one;
    if (load_lanes(&s, a, k, width, tainted, check, by_bytes, since, x.mine.held ? x.mine.view.buf : NULL,
                   out.view.buf, (uint32_t *)PyBytes_AS_STRING(many), &one)) {
        result = PyLong_FromUnsignedLong(one);
        Py_DECREF(many);
    } else
        result = many;
done:
    release(&out);
    release_access(&x);
    return result;
}

typedef struct {
    int64_t a;  /* byte address */
    int64_t w;  /* the writing lane's stamp (tells warps apart) */
    Py_ssize_t e;
    uint8_t v;
} Entry;

static int by_address(const void *x, const void *y) {
    int64_t a = ((const Entry *)x)->a, b = ((const Entry *)y)->a;
    return (a > b) - (a < b);
}

/* Bytes that lanes of different warps of one store write with different values (numpy's
   _raced_within): their entries' extra taint becomes TIMING. */
static int raced_within(const int64_t *a, const uint8_t *raw, const int64_t *mn, Py_ssize_t k, Py_ssize_t width,
                        uint32_t *extra) {
    Py_ssize_t n = k * width;
    Entry *es = malloc(sizeof(Entry) * (size_t)(n ? n : 1));
    if (!es) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t j = 0; j < width; j++)
        for (Py_ssize_t i = 0; i < k; i++) {
            Entry *x = &es[j * k + i];
            x->a = a[i] + j;
            x->w = mn[i];
            x->e = j * k + i;
            x->v = raw[i * width + j];
        }
    qsort(es, (size_t)n, sizeof(Entry), by_address);
    for (Py_ssize_t s = 0; s < n;) {
        Py_ssize_t end = s + 1;
        int warps = 0, values = 0;
        while (end < n && es[end].a == es[s].a) {
            warps |= es[end].w != es[s].w;
            values |= es[end].v != es[s].v;
            end++;
        }
        if (warps && values)
            for (Py_ssize_t q = s; q < end; q++)
                extra[es[q].e] = TIMING;
        s = end;
    }
    free(es);
    return 0;
}

/* Step 4 of a store: each entry's byte gets its taint ``tt`` and timing bit ``extra``, and its word the OR. */
static void set_taint(const Mem *s, const int64_t *a, Py_ssize_t k, Py_ssize_t width, const uint32_t *tt,
                      const uint32_t *extra) {
    uint32_t *tb = s->tb, *twb = s->twb;
    for (Py_ssize_t j = 0; j < width; j++)
        for (Py_ssize_t i = 0; i < k; i++)
            tb[a[i] + j] = tt[j * k + i] | extra[j * k + i];
    if (!twb)
        return;
    if (width & 3) {
        for (Py_ssize_t i = 0; i < k; i++) {
            int64_t w = a[i] >> 2;
            twb[w] = tb[4 * w] | tb[4 * w + 1] | tb[4 * w + 2] | tb[4 * w + 3];
        }
        return;
    }
    for (Py_ssize_t r = 0; r < width / 4; r++)
        for (Py_ssize_t i = 0; i < k; i++) {
            uint32_t v = 0;
            for (Py_ssize_t q = 0; q < 4; q++)
                v |= tt[(4 * r + q) * k + i] | extra[(4 * r + q) * k + i];
            twb[(a[i] >> 2) + r] = v;
        }
}

/* Steps 3 and 4 of a store where lanes of two warps wrote one word: raced_within's timing bits, then
   the bytes' taint (``*set``: where ``set`` or any byte got a timing bit). */
static int raced_then_taint(const Mem *s, const int64_t *a, Py_ssize_t k, Py_ssize_t width, const uint8_t *rw,
                            const int64_t *mn, const uint32_t *tt, uint32_t *extra, int set_anyway, int *set) {
    if (raced_within(a, rw, mn, k, width, extra) < 0)
        return -1;
    int any = 0;
    for (Py_ssize_t e = 0; e < k * width; e++)
        any |= extra[e] != 0;
    *set = set_anyway || any;
    if (*set)
        set_taint(s, a, k, width, tt, extra);
    return 0;
}

/* store_lanes's usual case in words, with the same results: stamps by word, whole aligned words
   (``width`` a multiple of 4 and every address a multiple of it, so that lanes on one word write the
   same bytes of it and the highest lane's stay, in either order), no atomic. A word no other warp wrote
   since the barrier is one stamp compared, 4 bytes copied and 5 taints written rather than 4 entries
   of each step; ``xw``: each lane's words' timing bits, one bit a byte (room for k width bytes). */
static int store_words(const Mem *s, const int64_t *a, Py_ssize_t k, Py_ssize_t width, const uint8_t *rw,
                       const uint32_t *tl, uint32_t t_one, int t_many, const int64_t *mn, int64_t since,
                       int atomics_seen, int tainted, uint32_t *tt, int *set) {
    uint8_t *bytes = s->bytes, *xw = (uint8_t *)tt;
    uint32_t *tb = s->tb, *twb = s->twb;
    int64_t *st = s->st;
    int16_t *at = s->at;
    Py_ssize_t nw = width / 4;
    int any_extra = 0;
    /* 1. raced words: which of their bytes are raced now (store_lanes's rule, byte by byte) */
    for (Py_ssize_t i = 0; i < k; i++)
        for (Py_ssize_t r = 0; r < nw; r++) {
            int64_t w = a[i] + 4 * r, sw = st[w];
            uint8_t x = 0;
            if (sw > since && sw != mn[i]) {
                int plain = !atomics_seen || at[w] == 0;
                for (int q = 0; q < 4; q++)
                    if (!(bytes[w + q] == rw[i * width + 4 * r + q] && plain) || tb[w + q] >= TIMING)
                        x |= (uint8_t)(1 << q);
            }
            xw[i * nw + r] = x;
            any_extra |= x;
        }
    /* 2. the store */
    for (Py_ssize_t i = 0; i < k; i++)
        for (Py_ssize_t r = 0; r < nw; r++) {
            int64_t w = a[i] + 4 * r;
            memcpy(bytes + w, rw + i * width + 4 * r, 4);
            st[w] = mn[i];
            if (atomics_seen)
                at[w] = 0;
        }
    /* 3. a word that lanes of two warps wrote: store_lanes's entries, and raced_within */
    int shared = 0;
    if (k > 1 && mn[0] != mn[k - 1])
        for (Py_ssize_t i = 0; i < k && !shared; i++)
            for (Py_ssize_t r = 0; r < nw; r++)
                if (st[a[i] + 4 * r] != mn[i]) {
                    shared = 1;
                    break;
                }
    if (shared) {
        Py_ssize_t n = k * width;
        uint32_t *extra = tt + n;
        for (Py_ssize_t j = 0; j < width; j++)
            for (Py_ssize_t i = 0; i < k; i++)
                extra[j * k + i] = (xw[i * nw + j / 4] >> (j % 4)) & 1 ? TIMING : 0;
        for (Py_ssize_t j = 0; j < width; j++) /* (xw, in tt's first bytes, is read no more) */
            for (Py_ssize_t i = 0; i < k; i++)
                tt[j * k + i] = tl ? tl[i] : t_one;
        return raced_then_taint(s, a, k, width, rw, mn, tt, extra, tainted || t_many || t_one, set);
    }
    /* 4. the bytes' taint, and their words' OR */
    *set = tainted || t_many || t_one || any_extra;
    if (*set)
        for (Py_ssize_t i = 0; i < k; i++) {
            uint32_t lt = tl ? tl[i] : t_one;
            for (Py_ssize_t r = 0; r < nw; r++) {
                int64_t w = a[i] + 4 * r;
                uint8_t x = xw[i * nw + r];
                for (int q = 0; q < 4; q++)
                    tb[w + q] = lt | ((x >> q) & 1 ? TIMING : 0);
                if (twb)
                    twb[w >> 2] = lt | (x ? TIMING : 0);
            }
        }
    return 0;
}

/* The store of k lanes at ``a`` (in bounds): ``rw`` ((k, width) bytes), each lane's taint ``tl`` (NULL: ``t_one``
   for all, ``t_many`` telling whether it came as one number or per lane), ``mn`` the stamp each lane
   leaves; ``tt``: room for 2 k width uint32. ``*set``: whether the bytes' taint was written. -1 where
   memory ran out (with the store done and the taint not). */
static int store_lanes(const Mem *s, const int64_t *a, Py_ssize_t k, Py_ssize_t width, const uint8_t *rw,
                       const uint32_t *tl, uint32_t t_one, int t_many, const int64_t *mn, int64_t since, int by_bytes,
                       int atomic_op, int atomics_seen, int tainted, uint32_t *tt, int *set) {
    if (!by_bytes && !atomic_op && !(width & 3)) {
        int aligned = 1;
        for (Py_ssize_t i = 0; i < k && aligned; i++)
            aligned = !(a[i] & (width - 1));
        if (aligned && (width & (width - 1)) == 0)
            return store_words(s, a, k, width, rw, tl, t_one, t_many, mn, since, atomics_seen, tainted, tt, set);
    }
    uint8_t *bytes = s->bytes;
    uint32_t *tb = s->tb;
    int64_t *st = s->st;
    int16_t *at = s->at;
    Py_ssize_t n = k * width;
    /* per entry: the taint the byte gets (before the timing bit) and the timing bit */
    uint32_t *extra = tt + n;
    int any_extra = 0;
    /* 1. what the bytes held and who wrote them, before this store */
    for (Py_ssize_t j = 0; j < width; j++)
        for (Py_ssize_t i = 0; i < k; i++) {
            Py_ssize_t e = j * k + i;
            int64_t b = a[i] + j, w = where(b, by_bytes), sw = st[w];
            uint32_t lane_t = tl ? tl[i] : t_one;
            int raced = sw > since && sw != mn[i];
            uint32_t x = 0;
            if (atomic_op) {
                /* the same order-free atomic by another warp is no race; a raced old value stays raced */
                raced &= at[w] != atomic_op;
                lane_t |= tb[b] & TIMING;
                x = raced ? TIMING : 0;
            } else if (raced) {
                /* a byte that gets the value it holds keeps its timing bit; any other raced byte is raced now */
                int same = bytes[b] == rw[i * width + j] && (!atomics_seen || at[w] == 0);
                x = (!same || tb[b] >= TIMING) ? TIMING : 0;
            }
            tt[e] = lane_t;
            extra[e] = x;
            any_extra |= x != 0;
        }
    /* 2. the store */
    int codes = atomic_op || atomics_seen;
    for (Py_ssize_t j = 0; j < width; j++)
        for (Py_ssize_t i = 0; i < k; i++) {
            int64_t b = a[i] + j, w = where(b, by_bytes);
            bytes[b] = rw[i * width + j];
            st[w] = mn[i];
            if (codes)
                at[w] = (int16_t)atomic_op;
        }
    /* 3. warps of this store that wrote one byte with different values: timing decides */
    if (!atomic_op && k > 1 && mn[0] != mn[k - 1]) {
        int shared = 0;
        for (Py_ssize_t j = 0; j < width && !shared; j++)
            for (Py_ssize_t i = 0; i < k; i++)
                if (st[where(a[i] + j, by_bytes)] != mn[i]) {
                    shared = 1;
                    break;
                }
        if (shared)
            return raced_then_taint(s, a, k, width, rw, mn, tt, extra, tainted || t_many || t_one, set);
    }
    /* 4. the bytes' taint, and their words' OR */
    *set = tainted || t_many || t_one || any_extra || atomic_op;
    if (*set)
        set_taint(s, a, k, width, tt, extra);
    return 0;
}

/* write(data, taint, taint_words, stamp, atomic, addr, raw, t, mine, since, by_bytes, atomic_op,
         atomics_seen, tainted) -> whether the bytes' taint was written (then shared memory may hold
   taint). ``raw``: (k, width) bytes; ``t``: the lanes' taint, an int for all or k uint32;
   ``mine``: each lane's stamp. */
static PyObject *shared_write(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_data, *o_taint, *o_tw, *o_stamp, *o_atomic, *o_addr, *o_raw, *o_t, *o_mine;
    long long since;
    int by_bytes, atomic_op, atomics_seen, tainted;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOLpipp", &o_data, &o_taint, &o_tw, &o_stamp, &o_atomic, &o_addr, &o_raw,
                          &o_t, &o_mine, &since, &by_bytes, &atomic_op, &atomics_seen, &tainted))
        return NULL;
    Access x;
    Buf raw, tv;
    memset(&raw, 0, sizeof raw);
    memset(&tv, 0, sizeof tv);
    PyObject *result = NULL;
    uint32_t t_one = 0;
    int t_many = !PyLong_Check(o_t);
    if (!t_many) {
        unsigned long v = PyLong_AsUnsignedLong(o_t);
        if (v == (unsigned long)-1 && PyErr_Occurred())
            return NULL;
        t_one = (uint32_t)v;
    }
    if (get_access(&x, o_data, o_taint, o_tw, o_stamp, o_atomic, o_addr, o_mine, 0, 1) < 0)
        goto done;
    Py_ssize_t size = x.size, k = x.k;
    if (get(o_raw, &raw, 1, -1, 0, 0, "raw") < 0)
        goto done;
    Py_ssize_t width = k ? raw.view.len / k : 0;
    if (k && (width < 1 || width > 16 || raw.view.len != k * width)) {
        PyErr_SetString(PyExc_ValueError, "raw");
        goto done;
    }
    if (t_many && get(o_t, &tv, 4, k, 0, 0, "t") < 0)
        goto done;
    const int64_t *a = x.addr.view.buf;
    if (!in_bounds(a, k, width, size)) {
        PyErr_SetString(PyExc_ValueError, "an address outside shared memory");
        goto done;
    }
    uint32_t *tt = malloc(sizeof(uint32_t) * 2 * (size_t)(k * width > 0 ? k * width : 1));
    if (!tt) {
        PyErr_NoMemory();
        goto done;
    }
    Mem s = mem_of(&x);
    int set;
    int r = store_lanes(&s, a, k, width, raw.view.buf, tv.held ? tv.view.buf : NULL, t_one, t_many,
                        x.mine.view.buf, since, by_bytes, atomic_op, atomics_seen, tainted, tt, &set);
    free(tt);
    if (r == 0)
        result = PyBool_FromLong(set);
done:
    release(&tv);
    release(&raw);
    release_access(&x);
    return result;
}

/* within(addr, width, size) -> whether every address is in [0, size - width] and a multiple of
   ``width`` (a power of two): the usual case of ops/memory.py's _check, told in one pass (where it
   is false, _check names the first bad lane). */
static PyObject *within(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_addr;
    Py_ssize_t width, size;
    if (!PyArg_ParseTuple(args, "Onn", &o_addr, &width, &size))
        return NULL;
    if (width < 1 || (width & (width - 1))) {
        PyErr_SetString(PyExc_ValueError, "width");
        return NULL;
    }
    Buf addr;
    if (get(o_addr, &addr, 8, -1, 0, 0, "addr") < 0)
        return NULL;
    const int64_t *a = addr.view.buf;
    Py_ssize_t k = addr.view.len / 8;
    int ok = in_bounds(a, k, width, size);
    for (Py_ssize_t i = 0; ok && i < k; i++)
        ok = !(a[i] & (width - 1));
    release(&addr);
    return PyBool_FromLong(ok);
}

/* rows(issue_col, warp_col, addr_col, active_col, n, issue, warps, addr, active): one recorded row per
   warp of ``warps`` from row n on (record.py's _RowStore.append, whose columns have room):
   the issue's number, the warp, its 32 lanes' addresses and whether each is active. ``addr``
   (int64) and ``active`` (bool) are the block's lanes. */
static PyObject *rows(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_ic, *o_wc, *o_ac, *o_vc, *o_warps, *o_addr, *o_act;
    Py_ssize_t n, issue;
    if (!PyArg_ParseTuple(args, "OOOOnnOOO", &o_ic, &o_wc, &o_ac, &o_vc, &n, &issue, &o_warps, &o_addr, &o_act))
        return NULL;
    Buf ic, wc, ac, vc, warps, addr, act;
    PyObject *result = NULL;
    if (get(o_ic, &ic, 4, -1, 1, 0, "issue column") < 0)
        return NULL;
    Py_ssize_t cap = ic.view.len / 4;
    if (get(o_wc, &wc, 4, cap, 1, 0, "warp column") < 0)
        goto r0;
    if (get(o_ac, &ac, 8 * 32, cap, 1, 0, "address column") < 0)
        goto r1;
    if (get(o_vc, &vc, 32, cap, 1, 0, "active column") < 0)
        goto r2;
    if (get(o_warps, &warps, 8, -1, 0, 0, "warps") < 0)
        goto r3;
    if (get(o_addr, &addr, 8 * 32, -1, 0, 0, "addresses") < 0)
        goto r4;
    if (get(o_act, &act, 32, addr.view.len / (8 * 32), 0, 0, "active lanes") < 0)
        goto r5;
    Py_ssize_t m = warps.view.len / 8, nw = addr.view.len / (8 * 32);
    const int64_t *w = warps.view.buf;
    if (n < 0 || n + m > cap) {
        PyErr_SetString(PyExc_ValueError, "no room for the rows");
        goto r6;
    }
    for (Py_ssize_t r = 0; r < m; r++)
        if (w[r] < 0 || w[r] >= nw) {
            PyErr_SetString(PyExc_ValueError, "a warp outside the block");
            goto r6;
        }
    for (Py_ssize_t r = 0; r < m; r++) {
        ((int32_t *)ic.view.buf)[n + r] = (int32_t)issue;
        ((int32_t *)wc.view.buf)[n + r] = (int32_t)w[r];
        memcpy((int64_t *)ac.view.buf + (n + r) * 32, (const int64_t *)addr.view.buf + w[r] * 32, 8 * 32);
        memcpy((uint8_t *)vc.view.buf + (n + r) * 32, (const uint8_t *)act.view.buf + w[r] * 32, 32);
    }
    result = Py_NewRef(Py_None);
r6:
    release(&act);
r5:
    release(&addr);
r4:
    release(&warps);
r3:
    release(&vc);
r2:
    release(&ac);
r1:
    release(&wc);
r0:
    release(&ic);
    return result;
}

/* ---------------------------------------------------------------- an LDS or STS issue in one call

   ops/memory.py's _fused: a load or store of shared memory by the lanes whose guard holds, with
   everything it does besides, in one call where it took a dozen Python functions around the calls
   above (about 15 us of the 19 an STS took on CUB's sort): the taint of the registers it reads
   (issue.py's Issue.bits and _with), every lane's address from a register (times a scale), a
   uniform register and an offset, summed in 32 bits (Issue.address); the bounds and alignment check
   (_check); the recorded rows (record.py's Recorder.shared_access); the load with its taint into the
   destination registers and their taint (_load, _to_regs, Issue.write) or the store of the source
   registers' bytes (_store, _from_regs, _SharedSpace.write). Registers are read and written in
   place, as rows of Block.R.

   A View holds the block's arrays (registers, uniform registers, their taint and the lists of which
   hold any, shared memory with its taint, stamps and atomic codes) and the chunk of recorded rows
   being filled. Where a call cannot take an issue (no lane on, an address out of the memory or not
   aligned, no room left in the chunk) it answers None before it changes anything, and the caller's
   general path runs instead, with its error message. */

#define NOT_TAKEN 1

typedef struct {
    PyObject_HEAD
    Buf R, RT, UR, URT, data, taint, tw, stamp, atomic;
    Buf ic, wc, ac, vc; /* the chunk of recorded rows being filled (record.py's _RowStore) */
    PyObject *chunk;    /* its dict: which one the columns are */
    /* Block.tainted["R"], Block.taint_one["R"], Block.tainted["UR"] */
    PyObject *flags, *ones, *uflags;
    Py_ssize_t lanes, n, cap;
    Mem mem;
    /* scratch, per lane: every lane's address; the lanes on, their addresses and stamps; bytes;
       the address's and the data's taint (every lane's); the load's and register's taint; the store's */
    int64_t *addr, *ka, *mine;
    Py_ssize_t *idx;
    uint8_t *raw;
    uint32_t *ta, *td, *t, *tl, *tt;
} View;

/* ``obj`` as a C-contiguous buffer whose format is one of ``codes`` (one item of ``itemsize``
   bytes), of ``n`` items (n < 0: any count). */
static int typed(PyObject *obj, Buf *b, const char *codes, Py_ssize_t itemsize, Py_ssize_t n, int writable,
                 const char *what) {
    b->held = 0;
    if (PyObject_GetBuffer(obj, &b->view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    b->held = 1;
    const char *f = b->view.format ? b->view.format : "B";
    if (b->view.itemsize != itemsize || !f[0] || f[1] || !strchr(codes, f[0]) ||
        (n >= 0 && b->view.len != n * itemsize)) {
        PyErr_Format(PyExc_ValueError, "%s: not %zd items of type %s", what, n, codes);
        release(b);
        return -1;
    }
    return 0;
}

#define U32_CODES "IL"
#define I64_CODES "lq"

static void view_dealloc(View *v) {
    Buf *bufs[] = {&v->R,     &v->RT,    &v->UR, &v->URT, &v->data, &v->taint, &v->tw,
                   &v->stamp, &v->atomic, &v->ic, &v->wc,  &v->ac,   &v->vc};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        release(bufs[i]);
    Py_XDECREF(v->chunk);
    Py_XDECREF(v->flags);
    Py_XDECREF(v->ones);
    Py_XDECREF(v->uflags);
    free(v->addr);
    PyObject_Free(v);
}

static PyObject *view_chunk(View *v, void *Py_UNUSED(closure)) { return Py_NewRef(v->chunk ? v->chunk : Py_None); }

/* view.rows(chunk, issue, warp, addr, active): the chunk of recorded rows the calls fill from now on
   (its columns: record.py's _RowStore.FIELDS). */
static PyObject *view_rows(View *v, PyObject *args) {
    PyObject *chunk, *o_ic, *o_wc, *o_ac, *o_vc;
    if (!PyArg_ParseTuple(args, "OOOOO", &chunk, &o_ic, &o_wc, &o_ac, &o_vc))
        return NULL;
    release(&v->ic);
    release(&v->wc);
    release(&v->ac);
    release(&v->vc);
    Py_CLEAR(v->chunk);
    v->cap = 0;
    if (typed(o_ic, &v->ic, "i", 4, -1, 1, "issue column") < 0)
        return NULL;
    Py_ssize_t cap = v->ic.view.len / 4;
    if (typed(o_wc, &v->wc, "i", 4, cap, 1, "warp column") < 0 ||
        typed(o_ac, &v->ac, I64_CODES, 8, cap * 32, 1, "address column") < 0 ||
        typed(o_vc, &v->vc, "?", 1, cap * 32, 1, "active column") < 0) {
        release(&v->ic);
        release(&v->wc);
        release(&v->ac);
        return NULL;
    }
    v->cap = cap;
    v->chunk = Py_NewRef(chunk);
    Py_RETURN_NONE;
}

/* Taint as Issue.bits gathers it (issue.py's _with): one number for every lane (``one``) until a
   row is read, then each lane's (``lanes``), even where they are equal. */
typedef struct {
    int many;
    uint32_t one;
    uint32_t *lanes;
} Taint;

static void to_many(Taint *t, Py_ssize_t L) {
    if (!t->many)
        for (Py_ssize_t l = 0; l < L; l++)
            t->lanes[l] = t->one;
    t->many = 1;
}

static int flagged(PyObject *list, Py_ssize_t i) { return PyObject_IsTrue(PyList_GET_ITEM(list, i)); }

/* A Python number as taint bits. */
static int as_taint(PyObject *o, uint32_t *out) {
    PyObject *i = PyNumber_Index(o);
    if (!i)
        return -1;
    unsigned long x = PyLong_AsUnsignedLongMask(i);
    Py_DECREF(i);
    if (x == (unsigned long)-1 && PyErr_Occurred())
        return -1;
    *out = (uint32_t)x;
    return 0;
}

/* ORs general register ``index``'s taint into ``t``: nothing where it is not flagged, its one number
   where it has one, else its row. */
static int or_register(View *v, Taint *t, long index) {
    int f = flagged(v->flags, index);
    if (f <= 0)
        return f;
    PyObject *one = PyList_GET_ITEM(v->ones, index);
    Py_ssize_t L = v->lanes;
    if (one != Py_None) {
        uint32_t x;
        if (as_taint(one, &x) < 0)
            return -1;
        if (t->many)
            for (Py_ssize_t l = 0; l < L; l++)
                t->lanes[l] |= x;
        else
            t->one |= x;
        return 0;
    }
    const uint32_t *row = (const uint32_t *)v->RT.view.buf + index * L;
    to_many(t, L);
    for (Py_ssize_t l = 0; l < L; l++)
        t->lanes[l] |= row[l];
    return 0;
}

/* ORs uniform register ``index``'s taint (its warps', spread to their lanes) into ``t``. */
static int or_uniform(View *v, Taint *t, long index) {
    int f = flagged(v->uflags, index);
    if (f <= 0)
        return f;
    Py_ssize_t L = v->lanes;
    const uint32_t *row = (const uint32_t *)v->URT.view.buf + index * (L / 32);
    to_many(t, L);
    for (Py_ssize_t l = 0; l < L; l++)
        t->lanes[l] |= row[l / 32];
    return 0;
}

/* The guard's taint (Issue.taint as the issue starts: an int, or each lane's). */
static int guard_taint(View *v, PyObject *o, Taint *t) {
    t->many = 0;
    t->one = 0;
    if (PyLong_Check(o)) {
        unsigned long x = PyLong_AsUnsignedLong(o);
        if (x == (unsigned long)-1 && PyErr_Occurred())
            return -1;
        if (x > 0xFFFFFFFFul) {
            PyErr_SetString(PyExc_ValueError, "guard taint: not 32 bits");
            return -1;
        }
        t->one = (uint32_t)x;
        return 0;
    }
    Buf b;
    if (typed(o, &b, U32_CODES, 4, v->lanes, 0, "guard taint") < 0)
        return -1;
    memcpy(t->lanes, b.view.buf, 4 * (size_t)v->lanes);
    t->many = 1;
    release(&b);
    return 0;
}

/* What an instruction alone decides (ops/memory.py's _Form.args): the address register (-1: none),
   its scale, the uniform register (-1: none), the offset (32 bits), the width, whether a narrower
   load is sign-extended, the first data register (-1: none or RZ). */
typedef struct {
    long reg, scale, ureg, offset, width, sign, data;
} Form;

static int arg_long(PyObject *o, long lo, long hi, long *out, const char *what) {
    long x = PyLong_AsLong(o);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "%s: %ld is not in [%ld, %ld]", what, x, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

static int form_of(PyObject *o, Form *f) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 7) {
        PyErr_SetString(PyExc_TypeError, "form: a tuple of 7");
        return -1;
    }
    if (arg_long(PyTuple_GET_ITEM(o, 0), -1, 254, &f->reg, "reg") < 0 ||
        arg_long(PyTuple_GET_ITEM(o, 1), 0, 0xFFFFFFFFl, &f->scale, "scale") < 0 ||
        arg_long(PyTuple_GET_ITEM(o, 2), -1, 62, &f->ureg, "ureg") < 0 ||
        arg_long(PyTuple_GET_ITEM(o, 3), 0, 0xFFFFFFFFl, &f->offset, "offset") < 0 ||
        arg_long(PyTuple_GET_ITEM(o, 4), 1, 16, &f->width, "width") < 0 ||
        arg_long(PyTuple_GET_ITEM(o, 5), 0, 1, &f->sign, "signed") < 0 ||
        arg_long(PyTuple_GET_ITEM(o, 6), -1, 254, &f->data, "data") < 0)
        return -1;
    long nregs = f->width < 4 ? 1 : f->width / 4;
    if ((f->width & (f->width - 1)) || (f->data >= 0 && f->data + nregs - 1 > 255)) {
        PyErr_SetString(PyExc_ValueError, "form: width or data registers");
        return -1;
    }
    return 0;
}

/* The lanes of an issue: every lane's address into v->addr; the lanes on (v->idx, *kon) with their
   addresses (v->ka), each in [0, size - width] and a multiple of width; the warps with a lane on
   (*m), with room for their rows from row ``k``; the address's taint (the guard's, the registers')
   into ``ta``. NOT_TAKEN where it cannot take them. */
static int lanes_of(View *v, const Form *f, const uint8_t *on, PyObject *guard, Py_ssize_t k, Taint *ta,
                    Py_ssize_t *kon, Py_ssize_t *m) {
    Py_ssize_t L = v->lanes, size = v->mem.size, width = f->width;
    const uint32_t *rr = f->reg >= 0 ? (const uint32_t *)v->R.view.buf + f->reg * L : NULL;
    const uint32_t *ur = f->ureg >= 0 ? (const uint32_t *)v->UR.view.buf + f->ureg * (L / 32) : NULL;
    uint32_t scale = (uint32_t)f->scale, offset = (uint32_t)f->offset;
    for (Py_ssize_t l = 0; l < L; l++) {
        uint32_t a = offset;
        if (rr)
            a += rr[l] * scale;
        if (ur)
            a += ur[l / 32];
        v->addr[l] = a;
    }
    Py_ssize_t c = 0, w = 0;
    for (Py_ssize_t l = 0; l < L; l++)
        if (on[l]) {
            int64_t a = v->addr[l];
            if (a > size - width || (a & (width - 1)))
                return NOT_TAKEN;
            v->idx[c] = l;
            v->ka[c++] = a;
        }
    for (Py_ssize_t r = 0; r < L; r += 32)
        for (Py_ssize_t q = 0; q < 32; q++)
            if (on[r + q]) {
                w++;
                break;
            }
    if (!c || k < 0 || k + w > v->cap)
        return NOT_TAKEN;
    *kon = c;
    *m = w;
    ta->lanes = v->ta;
    if (guard_taint(v, guard, ta) < 0 || (f->reg >= 0 && or_register(v, ta, f->reg) < 0) ||
        (f->ureg >= 0 && or_uniform(v, ta, f->ureg) < 0))
        return -1;
    return 0;
}

/* The issue's rows from row ``k`` (one per warp with a lane on: issue number, warp, its lanes'
   addresses and activity), and their address taint: a number where one for all (a taint of every
   lane that is 0 everywhere: 0), else each row's OR over its active lanes (bytes of m uint32). */
static PyObject *record(View *v, const uint8_t *on, Py_ssize_t k, Py_ssize_t m, Py_ssize_t issue, const Taint *ta) {
    Py_ssize_t L = v->lanes;
    PyObject *taint = NULL;
    uint32_t *rt = NULL, one = ta->one;
    if (ta->many) {
        int any = 0;
        for (Py_ssize_t l = 0; l < L && !any; l++)
            any = ta->lanes[l] != 0;
        if (any) {
            taint = PyBytes_FromStringAndSize(NULL, m * 4);
            if (!taint)
                return NULL;
            rt = (uint32_t *)PyBytes_AS_STRING(taint);
        } else
            one = 0;
    }
    if (!taint && !(taint = PyLong_FromUnsignedLong(one)))
        return NULL;
    int32_t *ic = v->ic.view.buf, *wc = v->wc.view.buf;
    int64_t *ac = v->ac.view.buf;
    uint8_t *vc = v->vc.view.buf;
    Py_ssize_t r = 0;
    for (Py_ssize_t w = 0; w < L / 32; w++) {
        const uint8_t *act = on + w * 32;
        int any = 0;
        for (Py_ssize_t q = 0; q < 32; q++)
            any |= act[q];
        if (!any)
            continue;
        ic[k + r] = (int32_t)issue;
        wc[k + r] = (int32_t)w;
        memcpy(ac + (k + r) * 32, v->addr + w * 32, 8 * 32);
        memcpy(vc + (k + r) * 32, act, 32);
        if (rt) {
            uint32_t x = 0;
            for (Py_ssize_t q = 0; q < 32; q++)
                if (act[q])
                    x |= ta->lanes[w * 32 + q];
            rt[r] = x;
        }
        r++;
    }
    return taint;
}

static int set_item(PyObject *list, Py_ssize_t i, PyObject *x) {
    if (!x)
        return -1;
    return PyList_SetItem(list, i, x);
}

/* Register ``index``'s taint after a write of the lanes on (issue.py's Issue.write: _clean and
   _write_taint, the rule): ``one`` for every lane (``tone``) or each lane's (``tl``, every lane's, 0
   where off); ``nonzero``: whether any of it is. A register whose taint stays 0 everywhere is not
   flagged; one number for every lane is kept as a number (Block.taint_one). */
static int write_taint(View *v, Py_ssize_t index, Py_ssize_t kon, int one, uint32_t tone, const uint32_t *tl,
                       int nonzero) {
    Py_ssize_t L = v->lanes;
    uint32_t *row = (uint32_t *)v->RT.view.buf + index * L;
    int f = flagged(v->flags, index);
    if (f < 0)
        return -1;
    if (!f) {
        if (!nonzero)
            return 0;
        if (set_item(v->flags, index, Py_NewRef(Py_True)) < 0)
            return -1;
    }
    if (kon == L) {
        if (one) {
            if (set_item(v->ones, index, PyLong_FromUnsignedLong(tone)) < 0)
                return -1;
            return set_item(v->flags, index, PyBool_FromLong(tone != 0));
        }
        memcpy(row, tl, 4 * (size_t)L);
        if (set_item(v->ones, index, Py_NewRef(Py_None)) < 0)
            return -1;
        return nonzero ? 0 : set_item(v->flags, index, Py_NewRef(Py_False));
    }
    if (one && !tone && kon == v->n) {
        if (set_item(v->ones, index, PyLong_FromLong(0)) < 0)
            return -1;
        return set_item(v->flags, index, Py_NewRef(Py_False));
    }
    PyObject *cur = PyList_GET_ITEM(v->ones, index);
    if (cur != Py_None) {
        if (one) {
            PyObject *t = PyLong_FromUnsignedLong(tone);
            if (!t)
                return -1;
            int same = PyObject_RichCompareBool(cur, t, Py_EQ);
            Py_DECREF(t);
            if (same < 0)
                return -1;
            if (same)
                return 0;
        }
        uint32_t fill;
        if (as_taint(cur, &fill) < 0)
            return -1;
        for (Py_ssize_t l = 0; l < L; l++)
            row[l] = fill;
        if (set_item(v->ones, index, Py_NewRef(Py_None)) < 0)
            return -1;
    }
    for (Py_ssize_t i = 0; i < kon; i++)
        row[v->idx[i]] = one ? tone : tl[v->idx[i]];
    return 0;
}

static int flag(PyObject *o) { return PyObject_IsTrue(o); }

/* One call's arguments: (on, form, guard, own, by_bytes, since, tainted, issue, k). ``on``: the lanes
   whose guard holds; ``form``: _Form.args; ``guard``: the guard's taint (Issue.taint as the issue
   starts); ``own``: the load's race check (shared memory was written since the last barrier), the
   store's atomics_seen (an order-free atomic ever wrote shared memory); ``by_bytes``: stamps by byte;
   ``since``: the stamps of this epoch are above it; ``tainted``: whether shared memory may hold
   taint; ``issue``, ``k``: the rows' issue number and first row in the chunk. Then the lanes and the
   address taint (lanes_of). */
typedef struct {
    Form f;
    Buf on;
    int own, by_bytes, tainted;
    long long since;
    long issue, k;
    Py_ssize_t kon, m;
    Taint ta;
} Call;

/* 0: taken so far; NOT_TAKEN; -1: an error (``c->on`` released either way but on 0). */
static int begin(View *v, PyObject *const *args, Py_ssize_t nargs, Call *c) {
    c->on.held = 0;
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "9 arguments: on, form, guard, own, by_bytes, since, tainted, issue, k");
        return -1;
    }
    if (form_of(args[1], &c->f) < 0 || (c->own = flag(args[3])) < 0 || (c->by_bytes = flag(args[4])) < 0 ||
        ((c->since = PyLong_AsLongLong(args[5])) == -1 && PyErr_Occurred()) || (c->tainted = flag(args[6])) < 0 ||
        arg_long(args[7], 0, INT32_MAX, &c->issue, "issue") < 0 || arg_long(args[8], 0, LONG_MAX, &c->k, "k") < 0 ||
        typed(args[0], &c->on, "?", 1, v->lanes, 0, "on") < 0)
        return -1;
    int r = lanes_of(v, &c->f, c->on.view.buf, args[2], c->k, &c->ta, &c->kon, &c->m);
    if (r)
        release(&c->on);
    return r;
}

/* view.load(on, form, guard, check, by_bytes, since, tainted, issue, k) -> None (not taken) or
   (rows, their taint): an LDS of ``form`` by the lanes ``on`` (Call says the rest). */
static PyObject *load(View *v, const Call *c) {
    const Form f = c->f;
    const Taint ta = c->ta;
    Py_ssize_t width = f.width, nregs = width < 4 ? 1 : width / 4, L = v->lanes, kon = c->kon;
    PyObject *result = NULL, *rec = record(v, c->on.view.buf, c->k, c->m, c->issue, &ta);
    if (!rec)
        return NULL;
    /* the load, each lane's taint ORed with the address's */
    for (Py_ssize_t i = 0; i < kon; i++)
        v->mine[i] = v->idx[i] / 32 + c->since + 1;
    uint32_t one;
    int uniform = load_lanes(&v->mem, v->ka, kon, width, c->tainted, c->own, c->by_bytes, c->since, v->mine, v->raw,
                             v->t, &one);
    int t_one = uniform && !ta.many, nonzero = 0;
    uint32_t tone = one | ta.one;
    if (t_one)
        nonzero = tone != 0;
    else {
        memset(v->tl, 0, 4 * (size_t)L);
        for (Py_ssize_t i = 0; i < kon; i++) {
            Py_ssize_t l = v->idx[i];
            uint32_t x = (uniform ? one : v->t[i]) | (ta.many ? ta.lanes[l] : ta.one);
            v->tl[l] = x;
            nonzero |= x != 0;
        }
    }
    /* the registers: each lane's value, then the register's taint */
    for (Py_ssize_t j = 0; f.data >= 0 && j < nregs; j++) {
        Py_ssize_t index = f.data + j;
        if (index == 255) /* RZ */
            continue;
        uint32_t *row = (uint32_t *)v->R.view.buf + index * L;
        for (Py_ssize_t i = 0; i < kon; i++) {
            const uint8_t *b = v->raw + i * width;
            uint32_t x;
            if (width >= 4)
                memcpy(&x, b + 4 * j, 4);
            else if (width == 2) {
                uint16_t h;
                memcpy(&h, b, 2);
                x = f.sign ? (uint32_t)(int32_t)(int16_t)h : h;
            } else
                x = f.sign ? (uint32_t)(int32_t)(int8_t)b[0] : b[0];
            row[v->idx[i]] = x;
        }
        if (write_taint(v, index, kon, t_one, tone, v->tl, nonzero) < 0)
            goto done;
    }
    result = Py_BuildValue("(nO)", c->m, rec);
done:
    Py_DECREF(rec);
    return result;
}

/* view.store(on, form, guard, atomics_seen, by_bytes, since, tainted, issue, k) -> None (not taken) or
   (rows, their taint, whether the bytes' taint was written): an STS of ``form``'s data registers (-1:
   RZ, zeros; RZ inside a pair or quad reads 0) at its address (Call says the rest). The data's taint
   is the registers'; the address's timing bit goes with it. A store narrower than a word, the first
   since the barrier while stamps go by word (not ``by_bytes``), switches them to bytes
   (_SharedSpace._by_bytes). */
static PyObject *store(View *v, const Call *c) {
    const Form f = c->f;
    const Taint ta = c->ta;
    Py_ssize_t width = f.width, nregs = width < 4 ? 1 : width / 4, L = v->lanes, kon = c->kon;
    PyObject *result = NULL, *rec = NULL;
    Taint td = {0, 0, v->td};
    for (Py_ssize_t j = 0; f.data >= 0 && j < nregs; j++)
        if (f.data + j != 255 && or_register(v, &td, f.data + j) < 0)
            return NULL;
    if (!(rec = record(v, c->on.view.buf, c->k, c->m, c->issue, &ta)))
        return NULL;
    /* the bytes from the registers, each lane's taint with the address's timing bit */
    const uint32_t *R = v->R.view.buf;
    int t_many = ta.many || td.many;
    for (Py_ssize_t i = 0; i < kon; i++) {
        Py_ssize_t l = v->idx[i];
        uint32_t words[4] = {0, 0, 0, 0};
        for (Py_ssize_t j = 0; f.data >= 0 && j < nregs; j++)
            if (f.data + j != 255)
                words[j] = R[(f.data + j) * L + l];
        memcpy(v->raw + i * width, words, (size_t)width);
        if (t_many)
            v->tl[i] = (td.many ? td.lanes[l] : td.one) | ((ta.many ? ta.lanes[l] : ta.one) & TIMING);
        v->mine[i] = l / 32 + c->since + 1;
    }
    int to_bytes = (width & 3) && !c->by_bytes;
    if (to_bytes) { /* each word's stamp and atomic code to its other bytes */
        Py_ssize_t words = v->mem.size / 4;
        for (Py_ssize_t w = 0; w < words; w++)
            for (Py_ssize_t q = 1; q < 4; q++) {
                v->mem.st[4 * w + q] = v->mem.st[4 * w];
                v->mem.at[4 * w + q] = v->mem.at[4 * w];
            }
    }
    int set;
    if (store_lanes(&v->mem, v->ka, kon, width, v->raw, t_many ? v->tl : NULL, td.one | (ta.one & TIMING), t_many,
                    v->mine, c->since, c->by_bytes || to_bytes, 0, c->own, c->tainted, v->tt, &set) == 0)
        result = Py_BuildValue("(nOO)", c->m, rec, set ? Py_True : Py_False);
    Py_DECREF(rec);
    return result;
}

/* A load or a store: the arguments and lanes (begin), then the access. */
static PyObject *issue_call(View *v, PyObject *const *args, Py_ssize_t nargs, PyObject *(*what)(View *, const Call *)) {
    Call c;
    int r = begin(v, args, nargs, &c);
    if (r)
        return r == NOT_TAKEN ? Py_NewRef(Py_None) : NULL;
    PyObject *result = what(v, &c);
    release(&c.on);
    return result;
}

static PyObject *view_load(View *v, PyObject *const *args, Py_ssize_t nargs) {
    return issue_call(v, args, nargs, load);
}

static PyObject *view_store(View *v, PyObject *const *args, Py_ssize_t nargs) {
    return issue_call(v, args, nargs, store);
}

static PyMethodDef view_methods[] = {
    {"rows", (PyCFunction)view_rows, METH_VARARGS, "The chunk of recorded rows the calls fill from now on."},
    {"load", (PyCFunction)(void (*)(void))view_load, METH_FASTCALL, "An LDS issue: address, check, rows, load."},
    {"store", (PyCFunction)(void (*)(void))view_store, METH_FASTCALL, "An STS issue: address, check, rows, store."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef view_getset[] = {
    {"chunk", (getter)view_chunk, NULL, "The chunk of recorded rows the calls fill (None: none yet).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ViewType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bankexplorer.sass._shared.View",
    .tp_basicsize = sizeof(View),
    .tp_dealloc = (destructor)view_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A block's arrays, held for LDS and STS issues of one call each.",
    .tp_methods = view_methods,
    .tp_getset = view_getset,
};

/* view(R, RT, flags, ones, UR, URT, uflags, n, data, taint, taint_words, stamp, atomic) -> a View of
   a block: its registers (256, lanes) and their taint, which registers are flagged as holding taint
   and which hold one number for every lane (Block.tainted["R"], Block.taint_one["R"]), its uniform
   registers (64, warps), their taint and flags, its threads, and its shared memory (as _SharedSpace
   holds it; taint_words None where the size is not a multiple of 4). */
static PyObject *make_view(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *oR, *oRT, *flags, *ones, *oUR, *oURT, *uflags, *od, *ot, *otw, *ost, *oat;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OOO!O!OOO!nOOOOO", &oR, &oRT, &PyList_Type, &flags, &PyList_Type, &ones, &oUR, &oURT,
                          &PyList_Type, &uflags, &n, &od, &ot, &otw, &ost, &oat))
        return NULL;
    View *v = PyObject_New(View, &ViewType);
    if (!v)
        return NULL;
    memset((char *)v + sizeof(PyObject), 0, sizeof(View) - sizeof(PyObject));
    if (typed(oR, &v->R, U32_CODES, 4, -1, 1, "R") < 0)
        goto fail;
    Py_ssize_t L = v->R.view.ndim == 2 && v->R.view.shape[0] == 256 ? v->R.view.shape[1] : 0;
    if (L <= 0 || L % 32 || n < 0 || n > L || PyList_GET_SIZE(flags) < 256 || PyList_GET_SIZE(ones) < 256 ||
        PyList_GET_SIZE(uflags) < 64) {
        PyErr_SetString(PyExc_ValueError, "not a block's registers");
        goto fail;
    }
    v->lanes = L;
    v->n = n;
    v->flags = Py_NewRef(flags);
    v->ones = Py_NewRef(ones);
    v->uflags = Py_NewRef(uflags);
    if (typed(oRT, &v->RT, U32_CODES, 4, 256 * L, 1, "RT") < 0 ||
        typed(oUR, &v->UR, U32_CODES, 4, 64 * (L / 32), 0, "UR") < 0 ||
        typed(oURT, &v->URT, U32_CODES, 4, 64 * (L / 32), 0, "URT") < 0 ||
        typed(od, &v->data, "B", 1, -1, 1, "data") < 0)
        goto fail;
    Py_ssize_t size = v->data.view.len;
    if (typed(ot, &v->taint, U32_CODES, 4, size, 1, "taint") < 0 ||
        (otw != Py_None && typed(otw, &v->tw, U32_CODES, 4, size / 4, 1, "taint words") < 0) ||
        typed(ost, &v->stamp, I64_CODES, 8, size, 1, "stamp") < 0 ||
        typed(oat, &v->atomic, "h", 2, size, 1, "atomic") < 0)
        goto fail;
    Mem mem = {v->data.view.buf, v->taint.view.buf, v->tw.held && size % 4 == 0 ? v->tw.view.buf : NULL,
               v->stamp.view.buf, v->atomic.view.buf, size};
    v->mem = mem;
    /* addr, ka, mine (int64); idx; ta, td, t, tl (uint32); tt (2 x 16 uint32 a lane); raw (16 bytes a lane) */
    size_t bytes = (size_t)L * (3 * 8 + sizeof(Py_ssize_t) + 4 * 4 + 2 * 16 * 4 + 16);
    char *p = malloc(bytes);
    if (!p) {
        PyErr_NoMemory();
        goto fail;
    }
    v->addr = (int64_t *)p;
    v->ka = v->addr + L;
    v->mine = v->ka + L;
    v->idx = (Py_ssize_t *)(v->mine + L);
    v->ta = (uint32_t *)(v->idx + L);
    v->td = v->ta + L;
    v->t = v->td + L;
    v->tl = v->t + L;
    v->tt = v->tl + L;
    v->raw = (uint8_t *)(v->tt + 2 * 16 * L);
    return (PyObject *)v;
fail:
    Py_DECREF(v);
    return NULL;
}

static PyMethodDef methods[] = {
    {"within", within, METH_VARARGS, "Whether every address is inside the memory and aligned to the width."},
    {"rows", rows, METH_VARARGS, "Recorded rows of one shared-memory issue, one per warp."},
    {"read", shared_read, METH_VARARGS, "A shared-memory load of k lanes, with its race check and taint."},
    {"write", shared_write, METH_VARARGS, "A shared-memory store of k lanes, with its race and taint bookkeeping."},
    {"view", make_view, METH_VARARGS, "A block's arrays, held for LDS and STS issues of one call each."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_shared",
                                    "Shared memory's loads and stores with their race and taint bookkeeping.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__shared(void) {
    if (PyType_Ready(&ViewType) < 0)
        return NULL;
    return PyModule_Create(&module);
}
