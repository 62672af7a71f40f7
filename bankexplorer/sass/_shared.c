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

typedef struct {
    Py_buffer view;
    int held;
} Buf;

static void release(Buf *b) {
    if (b->held) {
        PyBuffer_Release(&b->view);
        b->held = 0;
    }
}

/* ``obj`` as a C-contiguous buffer of ``n`` items of ``itemsize`` bytes (n < 0: any count, a
   multiple of itemsize), writable if asked. None gives an empty, unheld buffer when ``optional``. */
static int get(PyObject *obj, Buf *b, Py_ssize_t itemsize, Py_ssize_t n, int writable, int optional,
               const char *what) {
    b->held = 0;
    if (obj == Py_None && optional)
        return 0;
    if (PyObject_GetBuffer(obj, &b->view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    b->held = 1;
    if ((n >= 0 && b->view.len != n * itemsize) || (n < 0 && b->view.len % itemsize)) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd items of %zd", what, b->view.len, n, itemsize);
        release(b);
        return -1;
    }
    return 0;
}

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
    const uint8_t *bytes = x.data.view.buf;
    const uint32_t *tb = x.taint.view.buf, *twb = x.tw.held && size % 4 == 0 ? x.tw.view.buf : NULL;
    const int64_t *st = x.stamp.view.buf, *mn = x.mine.held ? x.mine.view.buf : NULL;
    uint8_t *o = out.view.buf;
    for (Py_ssize_t i = 0; i < k; i++)
        memcpy(o + i * width, bytes + a[i], (size_t)width);
    if (!tainted && !check) {
        result = PyLong_FromLong(0);
        goto done;
    }
    PyObject *many = PyBytes_FromStringAndSize(NULL, k * 4);
    if (!many)
        goto done;
    uint32_t *t = (uint32_t *)PyBytes_AS_STRING(many);
    int uniform = 1;
    for (Py_ssize_t i = 0; i < k; i++) {
        uint32_t v = 0;
        if (tainted) {
            if (twb && !(width & 3))
                for (Py_ssize_t r = 0; r < width / 4; r++)
                    v |= twb[(a[i] >> 2) + r];
            else
                for (Py_ssize_t j = 0; j < width; j++)
                    v |= tb[a[i] + j];
        }
        if (check)
            for (Py_ssize_t j = 0; j < width; j++) {
                int64_t s = st[where(a[i] + j, by_bytes)];
                if (s > since && s != mn[i]) {
                    v |= TIMING;
                    break;
                }
            }
        t[i] = v;
        uniform &= v == t[0];
    }
    if (uniform) {
        result = PyLong_FromUnsignedLong(k ? t[0] : 0);
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
    uint8_t *bytes = x.data.view.buf;
    uint32_t *tb = x.taint.view.buf, *twb = x.tw.held && size % 4 == 0 ? x.tw.view.buf : NULL;
    int64_t *st = x.stamp.view.buf;
    int16_t *at = x.atomic.view.buf;
    const uint8_t *rw = raw.view.buf;
    const uint32_t *tl = tv.held ? tv.view.buf : NULL;
    const int64_t *mn = x.mine.view.buf;
    Py_ssize_t n = k * width;
    /* per entry: the taint the byte gets (before the timing bit) and the timing bit */
    uint32_t *tt = malloc(sizeof(uint32_t) * 2 * (size_t)(n ? n : 1));
    if (!tt) {
        PyErr_NoMemory();
        goto done;
    }
    uint32_t *extra = tt + n;
    int any_extra = 0;
    /* 1. what the bytes held and who wrote them, before this store */
    for (Py_ssize_t j = 0; j < width; j++)
        for (Py_ssize_t i = 0; i < k; i++) {
            Py_ssize_t e = j * k + i;
            int64_t b = a[i] + j, w = where(b, by_bytes), s = st[w];
            uint32_t lane_t = tl ? tl[i] : t_one;
            int raced = s > since && s != mn[i];
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
        if (shared) {
            if (raced_within(a, rw, mn, k, width, extra) < 0) {
                free(tt);
                goto done;
            }
            any_extra = 0;
            for (Py_ssize_t e = 0; e < n; e++)
                any_extra |= extra[e] != 0;
        }
    }
    /* 4. the bytes' taint, and their words' OR */
    int set = tainted || t_many || t_one || any_extra || atomic_op;
    if (set) {
        for (Py_ssize_t j = 0; j < width; j++)
            for (Py_ssize_t i = 0; i < k; i++)
                tb[a[i] + j] = tt[j * k + i] | extra[j * k + i];
        if (twb) {
            if (width & 3) {
                for (Py_ssize_t i = 0; i < k; i++) {
                    int64_t w = a[i] >> 2;
                    twb[w] = tb[4 * w] | tb[4 * w + 1] | tb[4 * w + 2] | tb[4 * w + 3];
                }
            } else {
                for (Py_ssize_t r = 0; r < width / 4; r++)
                    for (Py_ssize_t i = 0; i < k; i++) {
                        uint32_t v = 0;
                        for (Py_ssize_t q = 0; q < 4; q++)
                            v |= tt[(4 * r + q) * k + i] | extra[(4 * r + q) * k + i];
                        twb[(a[i] >> 2) + r] = v;
                    }
            }
        }
    }
    free(tt);
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

static PyMethodDef methods[] = {
    {"within", within, METH_VARARGS, "Whether every address is inside the memory and aligned to the width."},
    {"rows", rows, METH_VARARGS, "Recorded rows of one shared-memory issue, one per warp."},
    {"read", shared_read, METH_VARARGS, "A shared-memory load of k lanes, with its race check and taint."},
    {"write", shared_write, METH_VARARGS, "A shared-memory store of k lanes, with its race and taint bookkeeping."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_shared",
                                    "Shared memory's loads and stores with their race and taint bookkeeping.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__shared(void) { return PyModule_Create(&module); }
