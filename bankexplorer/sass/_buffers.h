/* Numpy arrays as C buffers, for the compiled hot paths (_shared.c, _alu.c): each array through the
   buffer protocol, C-contiguous, its length checked against what the call expects, released at the
   call's end (``held`` says whether there is anything to release). */

#ifndef BANKEXPLORER_BUFFERS_H
#define BANKEXPLORER_BUFFERS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

#endif
