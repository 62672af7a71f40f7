/* The usual forms of the integer instructions a loop issues most (IMAD, IADD3, VIADD, MOV, LOP3,
   SEL, SHF, ISETP), compiled: one call runs a stretch of them (a trace: consecutive instructions the
   same threads issue in turn), with their guards, operand modifiers and data taint.

   The semantics are the opcode table's (ops/integer.py, ops/move.py), which stay the reference and
   run wherever this module was not built, and for every form not listed here. sass/alu_forms.py
   decides, once per instruction, whether its form is one of these and encodes it; the run hands
   over a trace, or one instruction where the threads of the block do not issue together.
   tests/test_alu_forms.py runs every form, and random traces of them, through both on random
   registers, predicates, guards and taint, and requires the same registers, predicates and taint.
   This file exists for speed only: an ALU issue was 4 to 8 numpy calls on the block's lanes plus
   the operand plumbing around them and the run's loop (about 6 microseconds).

   A source is (kind, value): kind 0 an immediate (the 32-bit pattern), 1 register R[value], 2 the
   lanes of a uniform register (the value-th array the call is given). ``flags`` holds each source's
   -R and ~R (two bits per source, a then b then c: neg, inv), applied as Issue.u applies them
   (negate, then invert). A predicate is index | neg << 3 (index 7: PT); a guard of -1 is none. IADD3
   with carries (ADD3C) writes its carries out to the predicates dst2 and dst3 and adds the carries
   in pred and pred2 (-1: none). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

enum { ADD3 = 1, MAD = 2, LOP3 = 3, SEL = 4, SHF = 5, ISETP = 6, ADD3C = 7 };

/* SHF's flags (bits 8 and up of ``flags``) */
#define SHF_LEFT (1 << 8)
#define SHF_HI (1 << 9)
#define SHF_WRAP (1 << 10)
#define SHF_WIDE (1 << 11)
#define SHF_SIGNED (1 << 12)
#define SHF_S32 (1 << 13)
#define SHF_SHORT (1 << 14) /* a constant shift of 0 to 31 (ops/integer.py's _funnel_short) */

/* ISETP's: the comparison in bits 8-10, unsigned in 11, the combining operator in 12-13 */
enum { EQ, NE, LT, LE, GT, GE, T, F };
#define SETP_UNSIGNED (1 << 11)
enum { AND, OR, XOR };

#define PT 7

#include "_buffers.h"

/* One source: a constant, or a row of the lanes (a register's, or an array's). */
typedef struct {
    const uint32_t *row; /* NULL: the constant */
    uint32_t value;
    Buf buf;
} Source;

static inline uint32_t value_of(const Source *s, Py_ssize_t i, unsigned mods) {
    uint32_t v = s->row ? s->row[i] : s->value;
    if (mods & 1)
        v = 0u - v;
    if (mods & 2)
        v = ~v;
    return v;
}

/* A source as an addend of a sum with carries (ops/integer.py's iadd3): -R as ~R + 1, so that the
   carry is a subtraction's borrow (its ~ not applied); else its value as Issue.u reads it. */
static inline int64_t carry_term(const Source *s, Py_ssize_t i, unsigned mods) {
    uint32_t v = s->row ? s->row[i] : s->value;
    if (mods & 1)
        return (int64_t)(uint32_t)~v + 1;
    return (mods & 2) ? (uint32_t)~v : v;
}

static inline int pred(const uint8_t *P, Py_ssize_t lanes, int spec, Py_ssize_t i) {
    int index = spec & 7, v = index == PT ? 1 : P[index * lanes + i] != 0;
    return (spec & 8) ? !v : v;
}

static inline uint32_t lut3(uint32_t a, uint32_t b, uint32_t c, unsigned lut) {
    uint32_t out = 0;
    for (int k = 0; k < 8; k++)
        if (lut >> k & 1)
            out |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return out;
}

/* ops/integer.py's _funnel: the low or high word of (c:a) shifted by sh (any amount). */
static inline uint32_t funnel(uint32_t a, uint32_t sh32, uint32_t c, unsigned f) {
    int wide = (f & SHF_WIDE) != 0;
    int64_t sh = sh32;
    if (f & SHF_WRAP)
        sh &= wide ? 63 : 31;
    else if (sh > (wide ? 64 : 32))
        sh = wide ? 64 : 32;
    uint64_t v = (uint64_t)a | (uint64_t)c << 32, res;
    int64_t s63 = sh < 63 ? sh : 63;
    if (f & SHF_LEFT) {
        res = sh >= 64 ? 0 : v << s63;
    } else if (f & SHF_SIGNED) {
        int64_t sv = (int64_t)v;
        if (f & SHF_S32)
            sv = (int64_t)((uint64_t)(int64_t)(int32_t)c << 32 | (uint64_t)a);
        res = (uint64_t)(sv >> s63);
    } else {
        res = sh >= 64 ? 0 : v >> s63;
    }
    return (uint32_t)((f & SHF_HI) ? res >> 32 : res);
}

/* ops/integer.py's _funnel_short: a constant shift of 0 to 31. */
static inline uint32_t funnel_short(uint32_t a, uint32_t c, unsigned sh, unsigned f) {
    int hi = (f & SHF_HI) != 0;
    if (sh == 0)
        return hi ? c : a;
    if (f & SHF_LEFT)
        return hi ? (c << sh) | (a >> (32 - sh)) : a << sh;
    if (hi)
        return (f & SHF_SIGNED) ? (uint32_t)((int32_t)c >> sh) : c >> sh;
    return (a >> sh) | (c << (32 - sh));
}

static inline int compare(uint32_t a, uint32_t b, unsigned f) {
    int cmp = (f >> 8) & 7;
    if (cmp == T)
        return 1;
    if (cmp == F)
        return 0;
    int lt, eq = a == b;
    if (f & SETP_UNSIGNED)
        lt = a < b;
    else
        lt = (int32_t)a < (int32_t)b;
    switch (cmp) {
    case EQ: return eq;
    case NE: return !eq;
    case LT: return lt;
    case LE: return lt || eq;
    case GT: return !lt && !eq;
    default: return !lt; /* GE */
    }
}

static inline int combine(int v, int p, unsigned f) {
    switch ((f >> 12) & 3) {
    case OR: return v || p;
    case XOR: return v != p;
    default: return v && p;
    }
}

/* ------------------------------------------------------------------ data taint
   As issue.py carries it: each register (predicate) has a flag (``tainted``: a Python list of bools,
   False while its taint is zero in every lane) and either one number for every lane (``ones``: a
   Python list, an int) or, where that is None, a row of RT (PTT) with each lane's. An instruction's
   taint is the OR of what it reads (the guard, the register and predicate sources): one number
   while every part is one (Issue._with), else a row. Writing it is Issue.write's _clean and
   _write_taint, step for step. */

typedef struct {
    uint32_t one;
    int has_row;
    uint32_t *row; /* the lanes' (has_row), a buffer of the caller's */
} Taint;

typedef struct {
    PyObject *tainted, *ones; /* lists */
    uint32_t *rows;           /* (count, lanes) */
    Py_ssize_t count;
} TaintFile;

static int taint_file(TaintFile *f, PyObject *tainted, PyObject *ones, Buf *rows, Py_ssize_t count) {
    if (!PyList_Check(tainted) || !PyList_Check(ones) || PyList_GET_SIZE(tainted) != count ||
        PyList_GET_SIZE(ones) != count) {
        PyErr_SetString(PyExc_ValueError, "taint flags and numbers: lists of one per register");
        return -1;
    }
    f->tainted = tainted;
    f->ones = ones;
    f->rows = (uint32_t *)rows->view.buf;
    f->count = count;
    return 0;
}

static int set_item(PyObject *list, Py_ssize_t i, PyObject *v) { /* v: a new reference */
    if (v == NULL)
        return -1;
    return PyList_SetItem(list, i, v); /* (steals v) */
}

static int set_flag(TaintFile *f, Py_ssize_t i, int v) {
    PyObject *b = v ? Py_True : Py_False;
    Py_INCREF(b);
    return set_item(f->tainted, i, b);
}

/* The taint of register ``i`` ORed into ``t`` (Issue._with), where it is flagged. */
static int taint_read(TaintFile *f, Py_ssize_t i, Taint *t, Py_ssize_t lanes) {
    if (PyList_GET_ITEM(f->tainted, i) != Py_True)
        return 0;
    PyObject *one = PyList_GET_ITEM(f->ones, i);
    if (one != Py_None) {
        unsigned long v = PyLong_AsUnsignedLong(one);
        if (v == (unsigned long)-1 && PyErr_Occurred())
            return -1;
        t->one |= (uint32_t)v;
        return 0;
    }
    const uint32_t *row = f->rows + i * lanes;
    if (!t->has_row) {
        memcpy(t->row, row, (size_t)lanes * 4);
        t->has_row = 1;
    } else {
        for (Py_ssize_t k = 0; k < lanes; k++)
            t->row[k] |= row[k];
    }
    return 0;
}

/* ``t`` written to register ``d`` where ``on`` (``count`` lanes of ``lanes``; the block has ``n``
   threads): Issue.write's _clean, then _write_taint. */
static int taint_write(TaintFile *f, Py_ssize_t d, const Taint *t, const uint8_t *on, Py_ssize_t count,
                       Py_ssize_t lanes, Py_ssize_t n) {
    int row = t->has_row;
    uint32_t one = t->one;
    if (PyList_GET_ITEM(f->tainted, d) != Py_True) { /* _clean */
        int nonzero = one != 0;
        if (row && !nonzero)
            for (Py_ssize_t k = 0; k < lanes && !nonzero; k++)
                nonzero = t->row[k] != 0;
        if (!nonzero)
            return 0;
        if (set_flag(f, d, 1) < 0)
            return -1;
    }
    uint32_t *dst = f->rows + d * lanes;
    PyObject *have = PyList_GET_ITEM(f->ones, d);
    if (count == lanes) { /* every lane */
        if (!row) {
            if (set_item(f->ones, d, PyLong_FromUnsignedLong(one)) < 0)
                return -1;
            return set_flag(f, d, one != 0);
        }
        int nonzero = 0;
        for (Py_ssize_t k = 0; k < lanes; k++) {
            dst[k] = t->row[k] | one;
            nonzero |= dst[k] != 0;
        }
        Py_INCREF(Py_None);
        if (set_item(f->ones, d, Py_None) < 0)
            return -1;
        return nonzero ? 0 : set_flag(f, d, 0);
    }
    if (!row && one == 0 && count == n) { /* every thread (lanes past a partial last warp hold none) */
        if (set_item(f->ones, d, PyLong_FromLong(0)) < 0)
            return -1;
        return set_flag(f, d, 0);
    }
    if (have != Py_None) {
        unsigned long v = PyLong_AsUnsignedLong(have);
        if (v == (unsigned long)-1 && PyErr_Occurred())
            return -1;
        if (!row && (uint32_t)v == one)
            return 0; /* the lanes written get the taint every lane has */
        for (Py_ssize_t k = 0; k < lanes; k++)
            dst[k] = (uint32_t)v;
        Py_INCREF(Py_None);
        if (set_item(f->ones, d, Py_None) < 0)
            return -1;
    }
    for (Py_ssize_t k = 0; k < lanes; k++)
        if (on[k])
            dst[k] = row ? t->row[k] | one : one;
    return 0;
}

/* ------------------------------------------------------------------ a trace
   run(code, R, P, RT, PTT, tainted_R, ones_R, tainted_P, ones_P, S, n, uniform): consecutive forms
   issued in turn by the threads ``S`` (bool, the block's lanes). ``code``: int32 (m, FIELDS), one row
   an instruction (alu_forms.encode); ``uniform``: a tuple of the uniform registers' lanes its sources
   name (kind 2). Returns the list of each instruction's threads predicated on. */

enum { F_CODE, F_FLAGS, F_DST, F_DST2, F_PRED, F_GUARD, F_A, F_B = F_A + 2, F_C = F_B + 2, F_DST3 = F_C + 2, F_PRED2,
       FIELDS };
enum { K_IMM, K_REG, K_UNIFORM };
#define MAX_LANES 1024

static int trace_source(const int32_t *f, Source *s, const uint32_t *R, Py_ssize_t lanes, PyObject *uniform,
                        TaintFile *rt, Taint *t) {
    s->buf.held = 0;
    s->row = NULL;
    s->value = (uint32_t)f[1];
    if (f[0] == K_IMM)
        return 0;
    if (f[0] == K_REG) {
        if (f[1] < 0 || f[1] >= 255) {
            PyErr_SetString(PyExc_ValueError, "a source register is one of R0..R254");
            return -1;
        }
        s->row = R + (Py_ssize_t)f[1] * lanes;
        return taint_read(rt, f[1], t, lanes);
    }
    if (f[0] != K_UNIFORM || !PyTuple_Check(uniform) || f[1] < 0 || f[1] >= PyTuple_GET_SIZE(uniform)) {
        PyErr_SetString(PyExc_ValueError, "a source's kind");
        return -1;
    }
    if (get(PyTuple_GET_ITEM(uniform, f[1]), &s->buf, 1, lanes * 4, 0, 0, "a uniform register's lanes") < 0)
        return -1;
    s->row = (const uint32_t *)s->buf.view.buf;
    return 0;
}

static PyObject *trace(PyObject *self, PyObject *args) {
    PyObject *codeo, *Ro, *Po, *RTo, *PTTo, *tr, *onesr, *tp, *onesp, *So, *uniform;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOnO", &codeo, &Ro, &Po, &RTo, &PTTo, &tr, &onesr, &tp, &onesp, &So, &n,
                          &uniform))
        return NULL;
    Buf code = {0}, Sb = {0}, Rb = {0}, Pb = {0}, RTb = {0}, PTTb = {0};
    Source src[3] = {{0}};
    PyObject *result = NULL, *counts = NULL;
    if (PyObject_GetBuffer(So, &Sb.view, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    Sb.held = 1;
    Py_ssize_t lanes = Sb.view.len;
    if (lanes > MAX_LANES || lanes % 32) {
        PyErr_SetString(PyExc_ValueError, "a block's lanes: a multiple of 32, at most 1024");
        goto done;
    }
    if (PyObject_GetBuffer(codeo, &code.view, PyBUF_C_CONTIGUOUS) < 0)
        goto done;
    code.held = 1;
    if (code.view.len % (FIELDS * 4) || code.view.itemsize != 4) {
        PyErr_SetString(PyExc_ValueError, "a trace: int32 rows of the fields");
        goto done;
    }
    if (get(Ro, &Rb, 1, 256 * lanes * 4, 1, 0, "R") < 0 || get(Po, &Pb, 1, 8 * lanes, 1, 0, "P") < 0 ||
        get(RTo, &RTb, 1, 256 * lanes * 4, 1, 0, "RT") < 0 || get(PTTo, &PTTb, 1, 8 * lanes * 4, 1, 0, "PTT") < 0)
        goto done;
    TaintFile rt, pt;
    if (taint_file(&rt, tr, onesr, &RTb, 256) < 0 || taint_file(&pt, tp, onesp, &PTTb, 8) < 0)
        goto done;
    Py_ssize_t m = code.view.len / (FIELDS * 4);
    counts = PyList_New(m);
    if (counts == NULL)
        goto done;
    for (Py_ssize_t j = 0; j < m; j++) { /* every row checked before any runs: a refusal changes nothing */
        const int32_t *f = (const int32_t *)code.view.buf + j * FIELDS;
        int op = f[F_CODE], ok = op >= ADD3 && op <= ADD3C && f[F_GUARD] >= -1 && f[F_GUARD] < 16 &&
                                 f[F_PRED] >= -1 && f[F_PRED] < 16 && f[F_PRED2] >= -1 && f[F_PRED2] < 16;
        ok &= op == ISETP ? f[F_DST] >= -1 && f[F_DST] < PT && f[F_DST2] >= -1 && f[F_DST2] < PT
                          : f[F_DST] >= 0 && f[F_DST] < 255;
        if (op == ADD3C)
            ok &= f[F_DST2] >= -1 && f[F_DST2] < PT && f[F_DST3] >= -1 && f[F_DST3] < PT;
        for (int k = 0; k < 3; k++) {
            int kind = f[F_A + 2 * k], v = f[F_A + 2 * k + 1];
            ok &= kind == K_IMM || (kind == K_REG && v >= 0 && v < 255) ||
                  (kind == K_UNIFORM && PyTuple_Check(uniform) && v >= 0 && v < PyTuple_GET_SIZE(uniform));
        }
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "row %zd of the trace is not a form", j);
            goto done;
        }
    }
    uint32_t *R = (uint32_t *)Rb.view.buf;
    uint8_t *P = (uint8_t *)Pb.view.buf;
    const uint8_t *S = (const uint8_t *)Sb.view.buf;
    uint8_t m_on[MAX_LANES];
    uint32_t row[MAX_LANES];
    for (Py_ssize_t j = 0; j < m; j++) {
        const int32_t *f = (const int32_t *)code.view.buf + j * FIELDS;
        int op = f[F_CODE], dst = f[F_DST], dst2 = f[F_DST2], dst3 = f[F_DST3], p = f[F_PRED], p2 = f[F_PRED2],
            g = f[F_GUARD];
        unsigned flags = (unsigned)f[F_FLAGS];
        Taint t = {0, 0, row};
        /* the threads whose guard holds (Issue.again), and the guard's taint */
        Py_ssize_t count = 0;
        for (Py_ssize_t i = 0; i < lanes; i++) {
            m_on[i] = S[i] && (g < 0 || pred(P, lanes, g, i));
            count += m_on[i];
        }
        if (g >= 0 && (g & 7) != PT && taint_read(&pt, g & 7, &t, lanes) < 0)
            goto done;
        for (int k = 0; k < 3; k++)
            if (trace_source(f + F_A + 2 * k, &src[k], R, lanes, uniform, &rt, &t) < 0)
                goto done;
        if ((op == SEL || op == ISETP || op == ADD3C) && p >= 0 && (p & 7) != PT && taint_read(&pt, p & 7, &t, lanes) < 0)
            goto done;
        if (op == ADD3C && p2 >= 0 && (p2 & 7) != PT && taint_read(&pt, p2 & 7, &t, lanes) < 0)
            goto done;
        if (op == ISETP ? (dst >= PT || dst2 >= PT) : (dst < 0 || dst >= 255)) {
            PyErr_SetString(PyExc_ValueError, "no such destination");
            goto done;
        }
        const uint8_t *on = m_on;
        Source *a = &src[0], *b = &src[1], *c = &src[2];
        unsigned ma = flags & 3, mb = flags >> 2 & 3, mc = flags >> 4 & 3;
        uint32_t *out = op == ISETP ? NULL : R + (Py_ssize_t)dst * lanes;
        switch (op) {
        case ADD3:
            for (Py_ssize_t i = 0; i < lanes; i++)
                if (on[i])
                    out[i] = value_of(a, i, ma) + value_of(b, i, mb) + value_of(c, i, mc);
            break;
        case MAD:
            for (Py_ssize_t i = 0; i < lanes; i++)
                if (on[i])
                    out[i] = value_of(a, i, ma) * value_of(b, i, mb) + value_of(c, i, mc);
            break;
        case LOP3:
            for (Py_ssize_t i = 0; i < lanes; i++)
                if (on[i])
                    out[i] = lut3(value_of(a, i, ma), value_of(b, i, mb), value_of(c, i, mc), flags >> 16 & 0xFF);
            break;
        case SEL:
            for (Py_ssize_t i = 0; i < lanes; i++)
                if (on[i])
                    out[i] = pred(P, lanes, p, i) ? value_of(a, i, ma) : value_of(b, i, mb);
            break;
        case SHF:
            for (Py_ssize_t i = 0; i < lanes; i++)
                if (on[i]) {
                    uint32_t x = value_of(a, i, ma), s = value_of(b, i, mb), y = value_of(c, i, mc);
                    out[i] = (flags & SHF_SHORT) ? funnel_short(x, y, s, flags) : funnel(x, s, y, flags);
                }
            break;
        case ADD3C: /* with carries: -R adds ~R + 1 (a subtraction's borrow), the carries in add 1 each */
            for (Py_ssize_t i = 0; i < lanes; i++)
                if (on[i]) {
                    int64_t total = (p >= 0 ? pred(P, lanes, p, i) : 0) + (p2 >= 0 ? pred(P, lanes, p2, i) : 0);
                    total += carry_term(a, i, ma) + carry_term(b, i, mb) + carry_term(c, i, mc);
                    out[i] = (uint32_t)total;
                    if (dst2 >= 0)
                        P[dst2 * lanes + i] = (total >> 32) > 0;
                    if (dst3 >= 0)
                        P[dst3 * lanes + i] = (total >> 32) > 1;
                }
            break;
        case ISETP:
            for (Py_ssize_t i = 0; i < lanes; i++)
                if (on[i]) {
                    int r = compare(value_of(a, i, ma), value_of(b, i, mb), flags), pc = pred(P, lanes, p, i);
                    if (dst >= 0)
                        P[dst * lanes + i] = (uint8_t)combine(r, pc, flags);
                    if (dst2 >= 0)
                        P[dst2 * lanes + i] = (uint8_t)combine(!r, pc, flags);
                }
            break;
        default:
            PyErr_SetString(PyExc_ValueError, "no such form");
            goto done;
        }
        for (int k = 0; k < 3; k++)
            release(&src[k].buf);
        if (op == ISETP) {
            if ((dst >= 0 && taint_write(&pt, dst, &t, on, count, lanes, n) < 0) ||
                (dst2 >= 0 && taint_write(&pt, dst2, &t, on, count, lanes, n) < 0))
                goto done;
        } else if (taint_write(&rt, dst, &t, on, count, lanes, n) < 0) {
            goto done;
        } else if (op == ADD3C && ((dst2 >= 0 && taint_write(&pt, dst2, &t, on, count, lanes, n) < 0) ||
                                   (dst3 >= 0 && taint_write(&pt, dst3, &t, on, count, lanes, n) < 0))) {
            goto done;
        }
        PyObject *c_obj = PyLong_FromSsize_t(count);
        if (c_obj == NULL)
            goto done;
        PyList_SET_ITEM(counts, j, c_obj);
    }
    result = counts;
    counts = NULL;
done:
    Py_XDECREF(counts);
    release(&code);
    release(&Sb);
    release(&Rb);
    release(&Pb);
    release(&RTb);
    release(&PTTb);
    for (int k = 0; k < 3; k++)
        release(&src[k].buf);
    return result;
}

static PyMethodDef methods[] = {
    {"run", trace, METH_VARARGS, "Consecutive integer forms issued in turn: registers, predicates and data taint."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_alu",
                                    "The usual forms of the integer instructions, compiled.", -1, methods, NULL,
                                    NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__alu(void) { return PyModule_Create(&module); }
