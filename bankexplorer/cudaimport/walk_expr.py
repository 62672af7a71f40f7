"""Expressions: follow each integer symbolically and write down every shared-memory access.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import tree_sitter as ts

from ..model import expr as E
from ..model.layout import DTYPES
from ..model.pattern import Instruction
from . import types as T
from .result import SourceSpan
from .syntax import field as fld, named_children
from .values import (
    BINARY_PREC, DATA, PREC_ATOM, PREC_TERNARY, PREC_UNARY, ArrayView, Dim3, Group, Int, Ptr, Ref, TypeName, Unknown,
    Value,
)
from .walk_state import (
    _TOO_LONG, ATOMIC_OPS, ATOMICS, BUILTIN_DIMS, CASTS, INT_FUNCS, MAX_CALL_DEPTH, MAX_EXPR_CHARS, MAX_INSTRUCTIONS,
    SYNC, Unsupported, WalkState, _Array, _CallFrame, _ExprTooLong, _strides, _TooLong,
)


#: a PTX instruction on shared memory with its address operand: ``ldmatrix.sync.aligned.m8n8.x4.shared.b16
#: {...}, [%4];``, ``st.shared.v4.b32 [%0+16], {...};``
_PTX_SHARED = re.compile(r"(?P<ins>(?:ldmatrix|stmatrix)\.\S*|(?:ld|st)\.shared\S*)\s[^\[]*"
                         r"\[\s*%(?P<op>\d+)\s*(?:\+\s*(?P<imm>-?(?:0x[0-9a-fA-F]+|\d+)))?\s*\]")


def _descendants(node: ts.Node, kind: str) -> list[ts.Node]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == kind:
            out.append(n)
        stack.extend(reversed(n.children))
    return out


#: asynchronous global -> shared copies (LDGSTS): not counted as shared loads, stores or atomics
ASYNC_COPIES = {"__pipeline_memcpy_async", "memcpy_async", "cp_async", "__cp_async"}


class ExpressionWalk(WalkState):
    """Evaluates expressions to symbolic values; a shared-memory read, write or atomic
    becomes an Instruction (:meth:`emit`)."""


    @staticmethod
    def _row_elems(arr: _Array, given: int) -> int:
        """Elements in one step of the next dimension (1 when all but the last index are given)."""
        if given >= arr.dims.__len__() - 1:
            return 1
        strides = _strides(arr)
        return strides[given]

    def _index_of(self, ref: Ref, node: ts.Node) -> tuple[_Array, list[Int], int | None]:
        p = ref.ptr
        arr = self.arrays[p.array]
        es = DTYPES[arr.dtype]
        if ref.component:
            if ref.component % es:
                raise Unsupported(node, f"this accesses bytes {ref.component}..{ref.component + p.size - 1} inside one "
                                        f"{es}-byte {arr.dtype} element of {arr.name!r}: the model addresses whole "
                                        f"elements, so only .x (or the whole vector) can be imported")
            step = Int.of(ref.component // es)  # ->y of a float4* into a float array: the next element
            p = replace(p, extra=step if p.extra is None else self.add(p.extra, step))
        if not p.size:
            raise Unsupported(node, f"a pointer to a type narrower than the {es}-byte elements of {arr.name!r} "
                                    f"({arr.dtype}) is moved by its own elements: the model addresses whole elements")
        if p.size < es and es % p.size == 0:
            pass  # .x of a vector element (or a narrower cast of it): its first bytes
        elif p.size % es:
            raise Unsupported(node, f"a {p.size}-byte access into {arr.dtype} array {arr.name!r} "
                                    f"({es}-byte elements) is not modelled")
        idx = list(p.index)
        nd = len(arr.dims)
        self._flat = None
        if len(idx) == nd:
            if p.extra is not None:
                if nd > 1 and p.extra.const != 0:
                    self._flat = self._flat_index(arr, idx, p.extra)
                idx[-1] = self.add(idx[-1], p.extra)
        else:
            extra = p.extra if p.extra is not None else Int.of(0)
            strides = _strides(arr)
            for d in range(len(idx), nd):
                part = self.binop("/", extra, Int.of(strides[d])) if strides[d] != 1 else extra
                if d > len(idx):
                    span = strides[d - 1] // strides[d]
                    part = self.binop("%", part, Int.of(span))
                idx.append(part)
        width = p.size if p.size != es else None
        return arr, idx, width

    def _flat_index(self, arr: _Array, idx: list[Int], extra: Int) -> tuple[str, ...]:
        """``&s[i][j] + off`` where ``off`` may run past the end of the row (C allows it: the array
        is one block of memory): the element's index from the flat offset, dimension by dimension.
        Used only when the simple form (``s[i][j + off]``) is out of bounds."""
        strides = _strides(arr)
        flat = extra
        for d in reversed(range(len(idx))):
            term = idx[d] if strides[d] == 1 else self.mul(idx[d], strides[d])
            flat = self.add(term, flat)
        out = []
        for d in range(len(idx)):
            part = flat if strides[d] == 1 else self.binop("/", flat, Int.of(strides[d]))
            if d:
                part = self.binop("%", part, Int.of(strides[d - 1] // strides[d]))
            out.append(part.text)
        return tuple(out)

    def emit(self, kind: str, ref: Ref, node: ts.Node, width_override: int | None = None, op: str = "add",
             matrices: int = 1, trans: bool = False) -> None:
        try:
            arr, idx, width = self._index_of(ref, node)
        except Unsupported as e:
            self.report(e.node, e.message, e.severity)
            return
        if width_override is not None:
            width = width_override
        if kind in ("ldmatrix", "stmatrix"):
            width = None  # eight rows of 16 bytes, each lane giving one row's address
        active = " && ".join(c.wrapped(BINARY_PREC["&&"] + 1) for c in self.active)
        code = " ".join(self.text(node).split())
        if len(code) > 48:
            code = code[:47] + "…"
        line, col = self.src.position(node)
        eline, ecol = self.src.position(node, end=True)
        label = f"L{line} {kind}{f' {width}B' if width else ''} {code}"
        if self.unrolled:
            label += " (" + ", ".join(f"{n}={v}" for n, v in self.unrolled) + ")"
        if len(self.instrs) >= MAX_INSTRUCTIONS:
            raise _TooLong(node, f"the snippet makes more than {MAX_INSTRUCTIONS:,} shared-memory instructions "
                                 f"(unrolled loops?): import stopped here")
        if self._flat is not None:
            self.flat_forms[len(self.instrs)] = self._flat
        self.instrs.append(Instruction(kind=kind, width=width, array=arr.name, index=tuple(i.text for i in idx),
                                       loops=tuple(self.loops), active=active, label=label, op=op,
                                       matrices=matrices, trans=trans))
        self.spans.append(SourceSpan(line, col, eline, ecol, self.text(node), self.calls[0].line if self.calls else 0))

    def rv(self, node: ts.Node) -> Value:
        """The value of ``node`` read as an rvalue: reading a shared location is a load."""
        v = self.ev(node)
        if isinstance(v, Ref):
            self.emit("load", v, node)
            return DATA
        return self.decay(v)

    # ---- expressions -------------------------------------------------------------------------
    def ev(self, node: ts.Node | None) -> Value:
        if node is None:  # a part the parser left out (broken or GNU syntax such as ``a ?: b``)
            return DATA
        t = node.type
        meth = getattr(self, "ev_" + t, None)
        if meth is not None:
            return meth(node)
        if t in ("true",):
            return Int.of(1)
        if t in ("false", "null", "nullptr"):
            return Int.of(0)
        if t in ("string_literal", "char_literal", "concatenated_string", "raw_string_literal", "this"):
            return DATA
        # anything else (initializer lists, lambdas, new, ...): look inside for shared accesses
        for c in named_children(node):
            if c.is_named and c.type not in ("type_descriptor", "primitive_type", "type_identifier"):
                self.rv(c)
        return DATA

    def ev_number_literal(self, node: ts.Node) -> Value:
        s = self.text(node).replace("'", "")
        low = s.lower()
        try:
            if low.startswith(("0x", "0b")):
                v = int(low.rstrip("ul"), 0)
            elif any(ch in low for ch in ".ef") or low.endswith("h"):
                return DATA  # floating point
            else:
                digits = low.rstrip("ul")
                v = int(digits, 8) if len(digits) > 1 and digits.startswith("0") else int(digits)
        except ValueError:
            return DATA
        return Int.of(v)

    def ev_identifier(self, node: ts.Node) -> Value:
        name = self.text(node)
        b = self.lookup(name)
        if b is not None:
            return b.value
        if name == "warpSize":
            return Int("warpSize", PREC_ATOM, self.opts.hardware.warp_size)
        if T.size_of(name) is not None:
            return TypeName(name)
        if name in self.macros:
            return Unknown(f"function-like macro {name!r}, which is not expanded")
        return Unknown(f"{name!r}, which has no value here (a kernel parameter? give it one: -D {name}=VALUE)")

    def ev_type_identifier(self, node: ts.Node) -> Value:
        return TypeName(self.text(node))

    ev_primitive_type = ev_type_identifier
    ev_sized_type_specifier = ev_type_identifier

    def ev_qualified_identifier(self, node: ts.Node) -> Value:
        key = re.sub(r"\s+", "", self.text(node))
        if key in self.static_members:
            return Int.of(self.static_members[key])
        return Unknown(f"{self.text(node)!r}, which the importer does not follow")

    def ev_field_expression(self, node: ts.Node) -> Value:
        arg, f = fld(node, "argument"), fld(node, "field")
        op = fld(node, "operator")
        fname = self.text(f) if f is not None else ""
        if arg is not None and arg.type == "identifier" and self.text(arg) in BUILTIN_DIMS and self.lookup(
                self.text(arg)) is None:
            base = self.text(arg)
            if fname not in ("x", "y", "z"):
                return Unknown(f"{base}.{fname}")
            k = "xyz".index(fname)
            if base == "threadIdx":
                return Int(f"threadIdx.{fname}", PREC_ATOM, 0 if self.block[k] == 1 else None)
            if base == "blockDim":
                return Int(f"blockDim.{fname}", PREC_ATOM, self.block[k])
            # one block's shared memory is the model: the first block of a one-block grid, as the
            # verification launcher runs it (a grid-stride loop then makes one block's passes)
            self.report(f, f"{base}.{fname} taken as {0 if base == 'blockIdx' else 1}: the model is one block's "
                           f"shared memory, the first block of a grid of one", "note")
            return Int.of(0 if base == "blockIdx" else 1)
        v = self.ev(arg) if arg is not None else DATA
        arrow = op is not None and self.text(op) == "->"
        fv = self.struct_field(v, fname) if not arrow else None
        if fv is not None:
            return fv
        if arrow:
            v = self.decay(v)
            v = Ref(v) if isinstance(v, Ptr) else DATA if not isinstance(v, Unknown) else v
        if isinstance(v, Ref) and fname in T.COMPONENTS:
            arr = self.arrays[v.ptr.array]
            n = T.components(arr.dtype) if v.ptr.size == DTYPES[arr.dtype] else max(1, v.ptr.size // DTYPES[arr.dtype])
            if n > 1 and T.COMPONENTS[fname] < n:
                csize = v.ptr.size // n
                return Ref(replace(v.ptr, size=csize), v.component + T.COMPONENTS[fname] * csize)
            return v
        if isinstance(v, Ref):
            self.emit("load", v, arg)
        return DATA

    def _struct_row(self, v: Value):
        """The struct an element of an array of structs holds, if ``v`` is one (``pts[t]``)."""
        if isinstance(v, ArrayView) and v.array in self.struct_of and \
                len(v.index) == len(self.arrays[v.array].dims) - 1:
            return self.struct_of[v.array]
        return None

    def struct_field(self, v: Value, fname: str) -> Ref | Ptr | None:
        """``pts[t].y``: the word(s) of field ``y`` in element ``t``; an array field (``p.x``) is a
        pointer to its first element, as in C."""
        st = self._struct_row(v)
        if st is None or fname not in st.fields:
            return None
        off, size = st.fields[fname]
        if fname in st.counts:
            return Ptr(v.array, v.index, Int.of(off // st.unit), size // st.counts[fname])
        return Ref(Ptr(v.array, v.index + (Int.of(off // st.unit),), None, size))

    def struct_access(self, v: Value, node: ts.Node, kind: str) -> bool:
        """A whole struct read or written (``P p = pts[i]``, ``pts[i] = p``): one access per field, as
        nvcc emits them (it fuses neighbouring ones where alignment allows; the compiled view follows)."""
        st = self._struct_row(v)
        if st is None:
            return False
        for fname in st.fields:
            f = self.struct_field(v, fname)
            if isinstance(f, Ptr):  # an array field: each of its elements
                for i in range(st.counts[fname]):
                    self.emit(kind, Ref(self._ptr_add(f, Int.of(i))), node)
            else:
                self.emit(kind, f, node)
        return True

    def ev_parenthesized_expression(self, node: ts.Node) -> Value:
        kids = named_children(node)
        return self.ev(kids[0]) if kids else DATA

    def ev_comma_expression(self, node: ts.Node) -> Value:
        self.rv(fld(node, "left"))
        return self.ev(fld(node, "right"))

    def ev_parameter_pack_expansion(self, node: ts.Node) -> Value:
        p = fld(node, "pattern")
        return self.ev(p) if p is not None else DATA

    def ev_binary_expression(self, node: ts.Node) -> Value:
        try:
            return self._binary(node)
        except _ExprTooLong:
            return _TOO_LONG

    def _binary(self, node: ts.Node) -> Value:
        op = self.text(fld(node, "operator"))
        a = self.rv(fld(node, "left"))
        b = self.rv(fld(node, "right"))
        if op in ("+", "-") and isinstance(a, Ptr) and isinstance(b, Int):
            return self._ptr_add(a, b if op == "+" else self.binop("-", Int.of(0), b))
        if op == "+" and isinstance(b, Ptr) and isinstance(a, Int):
            return self._ptr_add(b, a)
        if isinstance(a, Int) and isinstance(b, Int) and op in BINARY_PREC:
            return self.binop(op, a, b)
        for v in (a, b):
            if isinstance(v, Unknown):
                return v
        return DATA

    def _ptr_add(self, p: Ptr, k: Int) -> Ptr:
        arr = self.arrays[p.array]
        es = DTYPES[arr.dtype]
        if p.address:  # an integer address: + counts bytes
            step = self.binop("/", k, Int.of(es)) if es > 1 else k
            return replace(p, extra=step if p.extra is None else self.add(p.extra, step))
        if p.size % es:
            return replace(p, extra=None, size=0)  # reported when used
        step = self.mul(k, p.size // es)
        return replace(p, extra=step if p.extra is None else self.add(p.extra, step))

    def ev_unary_expression(self, node: ts.Node) -> Value:
        op = self.text(fld(node, "operator"))
        a = self.rv(fld(node, "argument"))
        if not isinstance(a, Int):
            return a if isinstance(a, Unknown) else DATA
        if op == "+":
            return a
        if op == "!":
            return self.negate(a)
        v = None
        if a.const is not None:
            v = -a.const if op == "-" else ~a.const
        return Int(f"{op}{a.wrapped(PREC_UNARY)}", PREC_UNARY, v)

    def ev_pointer_expression(self, node: ts.Node) -> Value:
        op = self.text(fld(node, "operator"))
        arg = fld(node, "argument")
        v = self.ev(arg)
        if op == "&":
            if isinstance(v, Ref):
                if v.component:
                    raise Unsupported(node, "address of a vector component")
                return v.ptr
            if isinstance(v, ArrayView):
                return self.decay(v)
            return v if isinstance(v, Unknown) else DATA
        v = self.decay(v)
        if isinstance(v, Ptr):
            return Ref(v)
        return v if isinstance(v, Unknown) else DATA

    def ev_subscript_expression(self, node: ts.Node) -> Value:
        base = self.ev(fld(node, "argument"))
        idx_nodes = named_children(fld(node, "indices")) if fld(node, "indices") is not None else []
        if len(idx_nodes) != 1:
            for c in idx_nodes:
                self.rv(c)
            return DATA
        inode = idx_nodes[0]
        i = self.rv(inode)
        if isinstance(base, Ref):  # a[i] on an element: operator[] of a struct, not modelled
            self.emit("load", base, fld(node, "argument"))
            return DATA
        base = base if isinstance(base, ArrayView) else self.decay(base)
        if not isinstance(base, (ArrayView, Ptr)):
            return base if isinstance(base, Unknown) and isinstance(i, Int) else DATA
        try:
            k = self.as_int(i, inode)
        except Unsupported as e:
            name = base.array
            self.report(e.node, f"access to shared array {name!r} not imported: {e.message}")
            return DATA
        if isinstance(base, ArrayView):
            arr = self.arrays[base.array]
            if len(base.index) + 1 < len(arr.dims):
                return ArrayView(base.array, base.index + (k,))
            return Ref(Ptr(base.array, base.index + (k,), None, DTYPES[arr.dtype]))
        return Ref(self._ptr_add(base, k))

    def ev_conditional_expression(self, node: ts.Node) -> Value:
        c = self.rv(fld(node, "condition"))
        cons, alt = fld(node, "consequence"), fld(node, "alternative")
        if isinstance(c, Int):
            self.active.append(c)
            a = self.rv(cons)
            self.active[-1] = self.negate(c)
            b = self.rv(alt)
            self.active.pop()
        else:
            a, b = self.rv(cons), self.rv(alt)
        if isinstance(c, Int) and isinstance(a, Int) and isinstance(b, Int):
            v = None if c.const is None else (a.const if c.const else b.const)
            text = f"{c.wrapped(PREC_TERNARY + 1)} ? {a.wrapped(PREC_TERNARY)} : {b.wrapped(PREC_TERNARY)}"
            return Int(text, PREC_TERNARY, v) if len(text) <= MAX_EXPR_CHARS else _TOO_LONG
        for v in (c, a, b):
            if isinstance(v, Unknown):
                return v
        return DATA

    def _retype(self, v: Value, tnode: ts.Node | None) -> Value:
        """A cast: pointers take the size of the new pointee; integer casts keep the integer."""
        ttext = self.text(tnode) if tnode is not None else ""
        is_ptr = "*" in ttext
        base = T.normalize(ttext)
        if is_ptr:
            v = self.decay(v)
            if isinstance(v, Ptr):
                size = T.size_of(base)
                if base == "void" or size is None:
                    return v if base == "void" else replace(v, size=0)
                return replace(v, size=size)
            return v if isinstance(v, Unknown) else DATA
        if isinstance(v, Ref):
            return v  # the caller decides (rvalue: load)
        v = self.decay(v)
        if base in T.INTEGER_TYPES and (isinstance(v, (Int, Unknown)) or isinstance(v, Ptr) and v.address):
            return v
        return v if isinstance(v, Unknown) else DATA

    def ev_cast_expression(self, node: ts.Node) -> Value:
        v = self.ev(fld(node, "value"))
        tnode = fld(node, "type")
        if isinstance(v, Ref) and "*" not in self.text(tnode):
            self.emit("load", v, fld(node, "value"))
            v = DATA
        return self._retype(v, tnode)

    def ev_sizeof_expression(self, node: ts.Node) -> Value:
        tnode = fld(node, "type")
        if tnode is not None:
            s = T.size_of(self.text(tnode))
            return Int.of(s) if s else Unknown(f"sizeof({self.text(tnode)})")
        vnode = fld(node, "value")
        v = self.ev(vnode) if vnode is not None else DATA
        if isinstance(v, TypeName) and T.size_of(v.name):
            return Int.of(T.size_of(v.name))
        if isinstance(v, Ref):
            return Int.of(v.ptr.size)
        if isinstance(v, ArrayView):
            arr = self.arrays[v.array]
            return Int.of(DTYPES[arr.dtype] * int(np.prod(arr.dims[len(v.index):])))
        return Unknown(f"{self.text(node)!r}")

    def _func_name(self, fn: ts.Node) -> tuple[str, ts.Node | None]:
        """Name of a called function, and the type argument of a template call (casts)."""
        if fn.type == "template_function":
            args = fld(fn, "arguments")
            targ = named_children(args)[0] if args is not None and named_children(args) else None
            return self.text(fld(fn, "name")), targ
        if fn.type == "qualified_identifier":
            inner = fld(fn, "name")
            if inner is not None and inner.type in ("template_function", "qualified_identifier"):
                return self._func_name(inner)  # cg::tiled_partition<32>
            return self.text(fn).split("::")[-1].strip(), None
        return self.text(fn), None

    def ev_call_expression(self, node: ts.Node) -> Value:
        fn = fld(node, "function")
        args_node = fld(node, "arguments")
        args = named_children(args_node) if args_node is not None else []
        launch = next((c for c in node.children if c.type == "kernel_call_syntax"), None)
        if launch is not None:
            self._launch(launch)
            for a in args:
                self.rv(a)
            return DATA
        name, targ = self._func_name(fn) if fn is not None else ("", None)
        group = self._cooperative_groups(fn, name, targ, args)
        if group is not None:
            return group
        if name in ("__cvta_generic_to_shared", "cvta_to_shared_u32", "__cvta_generic_to_shared_u32") and args:
            v = self.decay(self.ev(args[0]))
            if isinstance(v, Ptr):
                return replace(v, address=True)
            return v if isinstance(v, Unknown) else DATA
        if name in CASTS and len(args) == 1:
            v = self.ev(args[0])
            if isinstance(v, Ref) and (targ is None or "*" not in self.text(targ)):
                self.emit("load", v, args[0])
                v = DATA
            return self._retype(v, targ)
        if name == "dim3" or self.text(fn) == "dim3":
            dims = [self.const_int(self.rv(a), a, "a block dimension") for a in args[:3]]
            return Dim3(tuple(dims + [1] * (3 - len(dims))))  # type: ignore[arg-type]
        base = name.split("_block")[0].split("_system")[0]
        if base in ATOMICS and args:
            vals = [self.rv(a) for a in args[1:]]
            del vals
            p = self.decay(self.ev(args[0]))
            if isinstance(p, Ptr):
                self.emit("atomic", Ref(p), args[0], op=ATOMIC_OPS[base])
            return DATA
        if name in INT_FUNCS or name in ("__mul24", "__umul24"):
            vals = [self.rv(a) for a in args]
            if all(isinstance(v, Int) for v in vals):
                if name in ("__mul24", "__umul24") and len(vals) == 2:
                    return self.binop("*", vals[0], vals[1])
                fn_name = INT_FUNCS[name]
                if len(vals) == E.FUNCTIONS[fn_name]:
                    consts = [v.const for v in vals]
                    text = f"{fn_name}({', '.join(v.text for v in vals)})"
                    c = self._fold(f"{fn_name}({', '.join(map(str, consts))})") if None not in consts else None
                    return Int(text, PREC_ATOM, c)
            for v in vals:
                if isinstance(v, Unknown):
                    return v
            return DATA
        if name in SYNC:
            for a in args:  # __syncthreads_or(flags[t]): the argument is read before the barrier
                v = self.ev(a)
                if isinstance(v, Ref):
                    self.emit("load", v, a)
            self.barriers.append(len(self.instrs))
            return DATA
        if name in self.functions and name in self.called:
            return self._inline(name, node, args, fn)
        if name in self.lambdas and fn is not None and fn.type == "identifier":
            return self._inline(name, node, args, fn, self.lambdas[name])
        if name in ("load_matrix_sync", "store_matrix_sync"):
            return self.wmma_call(name, node, args)
        if name in ("__shfl_sync", "__shfl_xor_sync") and len(args) >= 3:
            return self._shuffle(name, args)
        if name in ASYNC_COPIES:
            for a in args:
                self.ev(a)
            self.report(node, f"{name}() copies global memory into shared memory asynchronously (cp.async, "
                              f"LDGSTS): its writes are not shared loads, stores or atomics (their wavefront "
                              f"counters measure 0 for it: kernels/extra5/cp_async_transpose), so none are imported",
                        "note")
            return DATA
        shared_args = []
        for a in args:
            v = self.ev(a)
            if isinstance(v, Ref):
                self.emit("load", v, a)
            elif isinstance(v, (Ptr, ArrayView)):
                shared_args.append(a)
        for a in shared_args:
            self.report(a, f"a pointer into shared memory is passed to {name}(): what {name}() does with it "
                           f"is not modelled (write its accesses in the snippet)")
        return Unknown(f"the result of {name}(), which the importer does not follow")

    def ev_gnu_asm_expression(self, node: ts.Node) -> Value:
        """Inline PTX: ``ldmatrix``/``stmatrix`` and ``ld.shared``/``st.shared`` on an address
        operand (``"r"(addr)``, ``addr`` from ``__cvta_generic_to_shared``) become instructions."""
        code_node = fld(node, "assembly_code")
        code = "".join(self.text(c) for c in _descendants(code_node, "string_content")) if code_node else ""
        code = code.replace("\\n", "\n").replace("\\t", " ")
        operands: list[ts.Node] = []
        for lst in ("output_operands", "input_operands"):
            ops = fld(node, lst)
            for o in named_children(ops) if ops is not None else []:
                v = fld(o, "value")
                if v is not None:
                    operands.append(v)
        used: set[int] = set()
        for stmt in re.split(r"[;\n]", code):
            m = _PTX_SHARED.search(stmt)
            if not m or int(m.group("op")) >= len(operands):
                continue
            k = int(m.group("op"))
            target = self.decay(self.ev(operands[k]))
            used.add(k)
            if not isinstance(target, Ptr):
                self.report(operands[k], f"the address of '{m.group('ins')}' is not a shared array the importer "
                                         f"follows (give it __cvta_generic_to_shared(&array[...]))")
                continue
            if m.group("imm"):
                target = self._ptr_add(replace(target, address=True), Int.of(int(m.group("imm"), 0)))
            ins = m.group("ins")
            if ins.startswith(("ldmatrix", "stmatrix")):
                x = re.search(r"\.x([124])\b", ins)
                self.emit(ins[:8], Ref(target), node, matrices=int(x.group(1)) if x else 1, trans=".trans" in ins)
            else:
                bits = re.search(r"\.[busf](8|16|32|64)\b", ins)
                vec = re.search(r"\.v([24])\b", ins)
                width = (int(bits.group(1)) // 8 if bits else 4) * (int(vec.group(1)) if vec else 1)
                self.emit("load" if ins.startswith("ld") else "store", Ref(target), node, width_override=width)
        for k, v in enumerate(operands):
            if k not in used:
                self.rv(v)
        return DATA

    def _shuffle(self, name: str, args: list[ts.Node]) -> Value:
        """``__shfl_sync(mask, v, 0)`` (a warp's broadcast of lane 0's value) and ``__shfl_xor_sync(mask,
        v, m)`` of an integer of the thread: ``v`` as the source lane has it. Followed in a block whose
        x size is a whole number of warps (a lane's neighbours differ in threadIdx.x only)."""
        for a in args[:1] + args[3:]:
            self.rv(a)
        v, k = self.rv(args[1]), self.rv(args[2])
        width = 32
        if len(args) > 3:
            w = self.rv(args[3])
            width = w.const if isinstance(w, Int) and w.const else 0
        if not isinstance(v, Int) or not isinstance(k, Int) or k.const is None or width != 32:
            return v if isinstance(v, Unknown) else Unknown(f"the result of {name}(), which the importer does not follow")
        if v.const is not None:
            return v  # the same in every lane
        if self.block[0] % 32:
            return Unknown(f"the result of {name}() in a block whose x size ({self.block[0]}) is not a whole number "
                           f"of warps, which the importer does not follow")
        src = str(k.const) if name == "__shfl_sync" else None
        m = k.const

        def lane_of(text: str) -> str:  # the source lane, from this lane's own expression for its lane
            return f"({src})" if src is not None else f"(({text}) ^ {m})"

        out = re.sub(r"(?<![\w.])(threadIdx\.x|tid|lane|laneid)(?![\w.])",
                     lambda mm: lane_of(mm.group(1)) if mm.group(1) in ("lane", "laneid") else
                     (f"({mm.group(1)} / 32 * 32 + {src})" if src is not None else f"({mm.group(1)} ^ {m})"),
                     v.text)
        return Int(f"({out})", PREC_ATOM, None)

    def _thread_rank(self) -> Int:
        """The thread's index in its block, x fastest (cooperative groups' ``thread_rank()``)."""
        bx, by, _bz = self.block
        t = Int("threadIdx.x", PREC_ATOM, 0 if bx == 1 else None)
        if by > 1:
            t = self.add(t, self.mul(Int("threadIdx.y", PREC_ATOM, None), bx))
        if self.block[2] > 1:
            t = self.add(t, self.mul(Int("threadIdx.z", PREC_ATOM, None), bx * by))
        return t

    def _cooperative_groups(self, fn: ts.Node | None, name: str, targ: ts.Node | None,
                            args: list[ts.Node]) -> Value | None:
        """``cg::this_thread_block()``, ``cg::tiled_partition<32>(block)`` and their ``thread_rank()``,
        ``size()``, ``meta_group_rank()``, ``sync()``: the integers they stand for. None: not one."""
        if name == "this_thread_block" and not args:
            return Group(None)
        if name == "tiled_partition" and args:
            size_node = targ if targ is not None else (args[1] if len(args) > 1 else None)
            v = self.rv(size_node) if size_node is not None else None
            if isinstance(v, Int) and v.const and v.const > 0:
                return Group(v.const)
            return None
        if fn is None or fn.type != "field_expression":
            return None
        g = self.ev(fld(fn, "argument"))
        if not isinstance(g, Group):
            return None
        method = self.text(fld(fn, "field"))
        n = self.block[0] * self.block[1] * self.block[2]
        size = g.size or n
        rank = self._thread_rank()
        if method in ("sync", "barrier_wait", "barrier_arrive"):
            return DATA
        if method in ("size", "num_threads"):
            return Int.of(size)
        if method == "thread_rank":
            return rank if g.size is None else self.binop("%", rank, Int.of(size))
        if method in ("meta_group_rank",) and g.size:
            return self.binop("/", rank, Int.of(size))
        if method in ("meta_group_size",) and g.size:
            return Int.of(-(-n // size))
        return Unknown(f"the result of {self.text(fn)}(), which the importer does not follow")

    def _template_values(self, fdef: ts.Node, fn: ts.Node | None) -> list[tuple[str, Value]]:
        """The values of a function template's parameters at a call (``warpReduce<256>(...)``, or the
        parameter's default): compile-time constants, as nvcc instantiates it."""
        decl = fdef.parent
        if decl is None or decl.type != "template_declaration":
            return []
        while fn is not None and fn.type == "qualified_identifier":
            fn = fld(fn, "name")
        targs = fld(fn, "arguments") if fn is not None and fn.type == "template_function" else None
        given = named_children(targs) if targs is not None else []
        params = fld(decl, "parameters")
        out: list[tuple[str, Value]] = []
        for i, p in enumerate(named_children(params) if params is not None else []):
            d = fld(p, "declarator")
            if d is None or d.type != "identifier":
                continue  # a type parameter (typename T) names no number
            value_node = given[i] if i < len(given) else fld(p, "default_value")
            v = self.rv(value_node) if value_node is not None and value_node.type != "type_descriptor" else None
            out.append((self.text(d), v if isinstance(v, Int) and v.const is not None else Unknown(
                f"template parameter {self.text(d)!r} of {self._function_name(fdef)}(), which has no value at "
                f"this call")))
        return out

    def _inline(self, name: str, node: ts.Node, args: list[ts.Node], fn: ts.Node | None = None,
                lam: ts.Node | None = None) -> Value:
        """A call of a function defined in the text: walk its body here with the arguments bound to
        its parameters (a pointer into shared memory stays one), as nvcc inlines it. The result is
        its return value when it returns once, on every lane."""
        if name in (c.name for c in self.calls) or len(self.calls) >= MAX_CALL_DEPTH:
            self.report(node, f"{name}() calls itself (or calls nest more than {MAX_CALL_DEPTH} deep): "
                              f"this call is not followed")
            for a in args:
                self.rv(a)
            return Unknown(f"the result of {name}(), a recursive call the importer does not follow")
        fdef = lam if lam is not None else self.functions[name]
        params = self._parameters(fdef)
        templated = self._template_values(fdef, fn) if lam is None else []
        values: list[Value] = []
        for a, (_pname, ref) in zip(args, params + [("", False)] * len(args)):
            v = self.ev(a)
            values.append(v if ref and isinstance(v, Ref) else self.rv(a) if isinstance(v, Ref) else self.decay(v))
        frame = _CallFrame(name, self.src.position(node)[0], len(self.active), len(self.frames), len(self.unrolled))
        floor = self.scope_floor
        self.calls.append(frame)
        self.scopes.append({})
        if lam is None:  # a function sees its parameters and the file; a lambda also what it captures
            self.scope_floor = len(self.scopes) - 1
        try:
            for tname, v in templated:
                if isinstance(v, Int):
                    self.bind(tname, Int.of(v.const), is_const=True)
                else:
                    self.bind(tname, v)
            for (pname, _ref), v in zip(params, values):
                if pname:
                    self.bind(pname, v)
            for pname, _ref in params[len(values):]:
                if pname:
                    self.bind(pname, Unknown(f"{pname!r}, a parameter of {name}() with a default value (not followed)"))
            body = fld(fdef, "body")
            if body is not None:
                self.statements(named_children(body))
        finally:
            self.scopes.pop()
            self.scope_floor = floor
            self.calls.pop()
        if len(frame.returns) == 1 and frame.returns[0] is not None:
            return frame.returns[0]
        if frame.returns:
            return Unknown(f"the result of {name}(), which returns in more than one place or under a condition "
                           f"(not followed)")
        return DATA

    def ev_assignment_expression(self, node: ts.Node) -> Value:
        op = self.text(fld(node, "operator"))
        left, right = fld(node, "left"), fld(node, "right")
        r = self.rv(right)
        if left.type == "identifier" and not isinstance(self.ev(left), (Ref, ArrayView)):
            name = self.text(left)
            b = self.lookup(name)
            if b is None:
                return r
            new = r
            if op != "=":
                bop = op[:-1]
                old = b.value
                try:
                    new = self._compound(bop, old, r)
                except _ExprTooLong:
                    new = _TOO_LONG
            if isinstance(b.value, Ptr) and isinstance(new, Ptr):
                new = replace(new, size=b.value.size)
            try:
                self.rebind(name, new, node)
            except _ExprTooLong:
                self.rebind(name, _TOO_LONG, node)
            return new
        lv = self.ev(left)
        if isinstance(lv, Ref):
            if op != "=":
                self.emit("load", lv, left)
            self.emit("store", lv, left)
            return DATA
        if op == "=":
            self.struct_access(lv, left, "store")
        return DATA

    def _compound(self, bop: str, old: Value, r: Value) -> Value:
        """``old bop= r`` for a local."""
        if isinstance(old, Int) and isinstance(r, Int) and bop in BINARY_PREC:
            return self.binop(bop, old, r)
        if isinstance(old, Unknown):
            return old
        if isinstance(r, Unknown):
            return r
        if isinstance(old, Ptr) and isinstance(r, Int) and bop == "+":
            return self._ptr_add(old, r)
        return DATA

    def ev_update_expression(self, node: ts.Node) -> Value:
        arg = fld(node, "argument")
        op = self.text(fld(node, "operator"))
        v = self.ev(arg)
        if isinstance(v, Ref):
            self.emit("load", v, arg)
            self.emit("store", v, arg)
            return DATA
        if arg.type == "identifier" and self.lookup(self.text(arg)) is not None:
            one = Int.of(1)
            v = self.decay(v)
            if isinstance(v, Int):
                try:
                    new: Value = self.binop("+" if op == "++" else "-", v, one)
                except _ExprTooLong:
                    new = _TOO_LONG
            elif isinstance(v, Ptr):
                new = self._ptr_add(v, one if op == "++" else Int.of(-1))
            else:
                new = v if isinstance(v, Unknown) else DATA
            self.rebind(self.text(arg), new, node)
        return DATA

    # ---- launches ----------------------------------------------------------------------------
    def _launch(self, node: ts.Node) -> None:
        args = named_children(node)
        block = smem = None
        line = self.src.position(node)[0]
        if len(args) >= 2:
            try:
                v = self.rv(args[1])
                if isinstance(v, Dim3):
                    block = v.dims
                else:
                    block = (self.const_int(v, args[1], "the launch's block size"), 1, 1)
            except Unsupported as e:
                self.report(e.node, f"block size of the launch not understood: {e.message}", "note")
        if len(args) >= 3:
            try:
                smem = self.const_int(self.rv(args[2]), args[2], "the launch's shared-memory size")
            except Unsupported as e:
                self.report(e.node, f"dynamic shared-memory size not understood: {e.message}", "note")
        self.launches.append((block, smem, line))
