/* The usual forms of the integer instructions a loop issues most (IMAD, IADD3, VIADD, MOV, LOP3,
   SEL, SHF, ISETP), compiled: one call per issue writes the destination's lanes.

   The semantics are the opcode table's (ops/integer.py, ops/move.py), which stay the reference and
   run wherever this module was not built, and for every form not listed here. sass/alu_forms.py
   decides, once per instruction, whether its form is one of these and hands each issue over;
   tests/test_alu_forms.py runs every form through both on random registers, guards and operand
   modifiers and requires the same registers and predicates. This file exists for speed only: an
   ALU issue was 4 to 8 numpy calls on the block's lanes plus the operand plumbing around them
   (about 5 microseconds), where one call here takes under one.

   A source is a Python int, (kind << 32) | value: kind 0 an immediate (the 32-bit pattern), kind 1
   register R[value]; or a uint32 array of the block's lanes (a uniform register spread to them).
   ``mods`` holds each source's -R and ~R (two bits per source, a then b then c: neg, inv), applied
   as Issue.u applies them (negate, then invert). A predicate source is index | neg << 3 (index 7:
   PT). Only lanes where ``on`` holds are written. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

enum { ADD3 = 1, MAD = 2, LOP3 = 3, SEL = 4, SHF = 5, ISETP = 6 };

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

static int get(PyObject *obj, Buf *b, Py_ssize_t len, int writable, const char *what) {
    b->held = 0;
    if (PyObject_GetBuffer(obj, &b->view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    b->held = 1;
    if (b->view.len != len) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", what, b->view.len, len);
        release(b);
        return -1;
    }
    return 0;
}

/* One source: a constant, or a row of the lanes (a register's, or an array's). */
typedef struct {
    const uint32_t *row; /* NULL: the constant */
    uint32_t value;
    Buf buf;
} Source;

static int source(PyObject *obj, Source *s, const uint32_t *R, Py_ssize_t lanes) {
    s->buf.held = 0;
    s->row = NULL;
    if (PyLong_Check(obj)) {
        unsigned long long v = PyLong_AsUnsignedLongLong(obj);
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            return -1;
        unsigned kind = (unsigned)(v >> 32);
        if (kind == 0) {
            s->value = (uint32_t)v;
        } else if (kind == 1 && (v & 0xFFFFFFFFu) < 256) {
            s->row = R + (v & 0xFFFFFFFFu) * lanes;
        } else {
            PyErr_SetString(PyExc_ValueError, "a source is an immediate or one of R0..R255");
            return -1;
        }
        return 0;
    }
    if (get(obj, &s->buf, lanes * 4, 0, "a source's lanes") < 0)
        return -1;
    s->row = (const uint32_t *)s->buf.view.buf;
    return 0;
}

static inline uint32_t value_of(const Source *s, Py_ssize_t i, unsigned mods) {
    uint32_t v = s->row ? s->row[i] : s->value;
    if (mods & 1)
        v = 0u - v;
    if (mods & 2)
        v = ~v;
    return v;
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

/* run(code, flags, R, P, on, dst, dst2, a, b, c, p): one issue of a form. ``flags``: the sources'
   modifiers (bits 0-5), LOP3's truth table (16-23), SHF's and ISETP's modes (8 and up). ``dst``: the
   register written (ISETP: the first predicate; -1: none), ``dst2``: ISETP's second predicate (-1:
   none). */
static PyObject *run(PyObject *self, PyObject *args) {
    int code, dst, dst2, p;
    unsigned flags;
    PyObject *Ro, *Po, *ono, *ao, *bo, *co;
    if (!PyArg_ParseTuple(args, "iIOOOiiOOOi", &code, &flags, &Ro, &Po, &ono, &dst, &dst2, &ao, &bo, &co, &p))
        return NULL;
    Buf on = {0}, Rb = {0}, Pb = {0};
    Source a = {0}, b = {0}, c = {0};
    PyObject *result = NULL;
    if (PyObject_GetBuffer(ono, &on.view, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    on.held = 1;
    Py_ssize_t lanes = on.view.len;
    if (get(Ro, &Rb, 256 * lanes * 4, code != ISETP, "R") < 0 || get(Po, &Pb, 8 * lanes, code == ISETP, "P") < 0)
        goto done;
    uint32_t *R = (uint32_t *)Rb.view.buf;
    uint8_t *P = (uint8_t *)Pb.view.buf;
    const uint8_t *m = (const uint8_t *)on.view.buf;
    if (source(ao, &a, R, lanes) < 0 || source(bo, &b, R, lanes) < 0 || source(co, &c, R, lanes) < 0)
        goto done;
    if (code == ISETP ? (dst >= PT || dst2 >= PT) : (dst < 0 || dst >= 255)) {
        PyErr_SetString(PyExc_ValueError, "no such destination");
        goto done;
    }
    unsigned ma = flags & 3, mb = flags >> 2 & 3, mc = flags >> 4 & 3;
    uint32_t *out = code == ISETP ? NULL : R + (Py_ssize_t)dst * lanes;
    switch (code) {
    case ADD3:
        for (Py_ssize_t i = 0; i < lanes; i++)
            if (m[i])
                out[i] = value_of(&a, i, ma) + value_of(&b, i, mb) + value_of(&c, i, mc);
        break;
    case MAD:
        for (Py_ssize_t i = 0; i < lanes; i++)
            if (m[i])
                out[i] = value_of(&a, i, ma) * value_of(&b, i, mb) + value_of(&c, i, mc);
        break;
    case LOP3:
        for (Py_ssize_t i = 0; i < lanes; i++)
            if (m[i])
                out[i] = lut3(value_of(&a, i, ma), value_of(&b, i, mb), value_of(&c, i, mc), flags >> 16 & 0xFF);
        break;
    case SEL:
        for (Py_ssize_t i = 0; i < lanes; i++)
            if (m[i])
                out[i] = pred(P, lanes, p, i) ? value_of(&a, i, ma) : value_of(&b, i, mb);
        break;
    case SHF:
        for (Py_ssize_t i = 0; i < lanes; i++)
            if (m[i]) {
                uint32_t x = value_of(&a, i, ma), s = value_of(&b, i, mb), y = value_of(&c, i, mc);
                out[i] = (flags & SHF_SHORT) ? funnel_short(x, y, s, flags) : funnel(x, s, y, flags);
            }
        break;
    case ISETP:
        for (Py_ssize_t i = 0; i < lanes; i++)
            if (m[i]) {
                int r = compare(value_of(&a, i, ma), value_of(&b, i, mb), flags), pc = pred(P, lanes, p, i);
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
    result = Py_None;
    Py_INCREF(result);
done:
    release(&on);
    release(&Rb);
    release(&Pb);
    release(&a.buf);
    release(&b.buf);
    release(&c.buf);
    return result;
}

static PyMethodDef methods[] = {
    {"run", run, METH_VARARGS, "One issue of a compiled integer form: the destination's lanes where on."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_alu",
                                    "The usual forms of the integer instructions, compiled.", -1, methods, NULL,
                                    NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__alu(void) { return PyModule_Create(&module); }
