"""Statements and declarations: scopes, branches on the thread, shared arrays, locals.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
import tree_sitter as ts

from ..model import expr as E
from ..model.errors import BankExplorerError
from ..model.layout import DTYPES, MAX_DIMS
from . import types as T
from .options import KERNEL_INT_PARAMETER
from .walk_wmma import fragment_type
from .syntax import field as fld, named_children
from ..model.pattern import Instruction
from .values import BINARY_PREC, DATA, PREC_ATOM, ArrayView, Dim3, Group, Int, Ptr, Ref, Unknown
from .walk_state import (
    _TOO_LONG, DEFAULT_EXTERN_BYTES, MAX_STEPS, Unsupported, WalkState, _Array, _BreakLoop, _ExprTooLong, _NeedsUnroll,
    _Struct, _TooLong,
)


class StatementWalk(WalkState):
    """Walks statements in order; ``if`` on the thread narrows the active lanes."""


    # ---- statements --------------------------------------------------------------------------
    def run(self, root: ts.Node) -> None:
        self._collect_functions(root)
        self.statements(named_children(root), new_scope=False)

    # ---- functions -----------------------------------------------------------------------------
    def _collect_functions(self, root: ts.Node) -> None:
        """Every function defined in the text, by name, and which of them another function calls:
        those are walked where they are called (inlined, as nvcc does), not on their own."""
        stack = [(root, None)]
        calls: list[tuple[str, ts.Node]] = []
        while stack:
            node, owner = stack.pop()
            if node.type == "struct_specifier" and fld(node, "body") is not None:
                self._struct(node)
            if node.type == "function_definition":
                name = self._function_name(node)
                if name and name not in self.functions:
                    self.functions[name] = node
                owner = node
            elif node.type == "call_expression" and owner is not None and not any(
                    c.type == "kernel_call_syntax" for c in node.children):
                fn = fld(node, "function")
                if fn is not None:
                    calls.append((self.text(fn).split("<")[0].strip(), owner))
            stack.extend((c, owner) for c in node.children)
        self.called = {name for name, owner in calls if name in self.functions
                       and self.functions[name] is not owner}

    def _struct(self, n: ts.Node) -> None:
        """``struct P { float x, y, z; };`` (or a typedef of one): its layout, when every field has a
        type the model knows (scalars, vectors, and one-dimensional arrays of them, ``float x[128]``:
        a struct of arrays; no nested structs)."""
        name_node = fld(n, "name")
        names = [self.text(name_node)] if name_node is not None else []
        if n.parent is not None and n.parent.type == "type_definition":
            names += [self.text(d) for d in n.parent.children_by_field_name("declarator")
                      if d.type == "type_identifier"]
        self._static_members(n, names)
        fields: dict[str, tuple[int, int]] = {}
        counts: dict[str, int] = {}
        types: list[str] = []
        off = align = 0
        for f in named_children(fld(n, "body")):
            if f.type != "field_declaration" or self._is_static(f):
                continue
            tnode = fld(f, "type")
            size = T.size_of(self.text(tnode)) if tnode is not None else None
            decls = f.children_by_field_name("declarator")
            if size is None or not decls:
                return
            a = size if size in (1, 2, 4, 8, 16) else 4
            for d in decls:
                count = 1
                if d.type == "array_declarator" and fld(d, "declarator") is not None and \
                        fld(d, "declarator").type == "field_identifier" and fld(d, "size") is not None:
                    try:
                        count = self.const_int(self.rv(fld(d, "size")), d, "an array field's size")
                    except Unsupported:
                        return
                    d = fld(d, "declarator")
                    if count < 1:
                        return
                    counts[self.text(d)] = count
                elif d.type != "field_identifier":
                    return
                off = -(-off // a) * a
                fields[self.text(d)] = (off, size * count)
                types.append(T.dtype_of(self.text(tnode)) or "")
                off += size * count
            align = max(align, a)
        if not fields or not names:
            return
        size = -(-off // align) * align
        unit = math.gcd(size, *[o for o, _ in fields.values()],
                        *[z // counts.get(f, 1) for f, (_, z) in fields.items()])
        unit = min(unit, 8)
        floats = all(t in ("float", "float2", "float4", "double", "double2") for t in types)
        dtype = {1: "uint8", 2: "short", 4: "float" if floats else "int", 8: "double" if floats else "int64"}.get(unit)
        if dtype is None or dtype not in DTYPES:
            return
        for nm in names:
            self.structs[nm] = _Struct(nm, fields, size, dtype, counts)

    def _is_static(self, f: ts.Node) -> bool:
        return any(c.type == "storage_class_specifier" and self.text(c) == "static" for c in f.children)

    def _static_members(self, n: ts.Node, names: list[str]) -> None:
        """``struct Cfg { static constexpr int TILE = 32, PER = TILE / 8; };``: ``Cfg::TILE`` is 32
        (members see the ones before them by their short names, as in C++)."""
        statics = [f for f in named_children(fld(n, "body")) if f.type == "field_declaration" and self._is_static(f)]
        if not statics or not names:
            return
        self.scopes.append({})
        try:
            for f in statics:
                d, v = fld(f, "declarator"), fld(f, "default_value")
                if d is None or v is None or d.type != "field_identifier":
                    continue
                try:
                    value = self.const_int(self.rv(v), v, "a static member")
                except Unsupported:
                    continue
                for sname in names:
                    self.static_members[f"{sname}::{self.text(d)}"] = value
                self.bind(self.text(d), Int.of(value), is_const=True)
        finally:
            self.scopes.pop()

    def _function_name(self, n: ts.Node) -> str:
        decl = self._function_declarator(n)
        return self.text(fld(decl, "declarator")) if decl is not None and fld(decl, "declarator") else ""

    @staticmethod
    def _function_declarator(n: ts.Node) -> ts.Node | None:
        decl = fld(n, "declarator")
        while decl is not None and decl.type != "function_declarator" and fld(decl, "declarator") is not None:
            decl = fld(decl, "declarator")
        return decl

    def _integer_parameter(self, p: ts.Node) -> bool:
        """A parameter passed by value with an integer type (``int n``, ``const unsigned k``)."""
        t = fld(p, "type")
        return t is not None and self.text(t).replace("const", "").strip() in T.INTEGER_TYPES

    def _parameters(self, n: ts.Node) -> list[tuple[str, bool]]:
        """(name, is a reference) of each parameter of a function definition (or a lambda)."""
        if n.type == "lambda_expression":
            decl = fld(n, "declarator")
            params = next((c for c in named_children(decl) if c.type == "parameter_list"), None) if decl else None
        else:
            decl = self._function_declarator(n)
            params = fld(decl, "parameters") if decl is not None else None
        out = []
        for p in named_children(params) if params is not None else []:
            d = fld(p, "declarator")
            ref = False
            while d is not None and d.type != "identifier":
                ref = ref or d.type == "reference_declarator"
                d = fld(d, "declarator") if fld(d, "declarator") is not None else (
                    named_children(d)[-1] if named_children(d) else None)
            out.append((self.text(d) if d is not None and d.type == "identifier" else "", ref))
        return out

    def statements(self, nodes: list[ts.Node], new_scope: bool = True) -> None:
        if new_scope:
            self.scopes.append({})
        pushed = 0
        try:
            for n in nodes:
                if (n.start_byte, n.end_byte) in self.skip_nodes:
                    continue
                if self._breaks_here(n):
                    continue  # a break whose condition is false in this pass
                cond = self._exit_condition(n)
                if cond is not None:
                    if (self.frames or self.unrolled) and cond.const is None and self._returns(n):
                        self.report(n, "a return inside a loop ends the rest of this loop body for those lanes; "
                                       "after the loop they are counted as active again", "note")
                    self.active.append(self.negate(cond))
                    pushed += 1
                    continue
                self.statement(n)
        finally:
            for _ in range(pushed):
                self.active.pop()
            if new_scope:
                self.scopes.pop()

    @staticmethod
    def _returns(n: ts.Node) -> bool:
        cons = n.child_by_field_name("consequence")
        body = named_children(cons) if cons.type == "compound_statement" else [cons]
        return bool(body) and body[0].type == "return_statement"

    def st_switch_statement(self, n: ts.Node) -> None:
        """``switch (MODE)`` on a value every thread shares (a constant, a template parameter): the
        matching case (or default) and what falls through after it, up to its ``break``."""
        cond = fld(n, "condition")
        value = fld(cond, "value") if cond is not None and cond.type == "condition_clause" else cond
        body = fld(n, "body")
        c = None
        if value is not None and not value.type.endswith("declaration"):
            try:
                c = self.as_int(self.rv(value), value, "the switch value")
            except Unsupported:
                c = None
        if c is None or c.const is None or body is None:
            self.report(n, "a switch on a value of the thread or of the data is not modelled: its shared-memory "
                           "accesses were not imported")
            return
        cases = [x for x in named_children(body) if x.type == "case_statement"]
        start = None
        for i, case in enumerate(cases):
            v = fld(case, "value")
            if v is None:
                continue
            try:
                if self.const_int(self.rv(v), v, "a case label") == c.const:
                    start = i
                    break
            except Unsupported:
                continue
        if start is None:
            start = next((i for i, case in enumerate(cases) if fld(case, "value") is None), None)
        if start is None:
            return  # no case matches and there is no default: nothing runs
        run: list[ts.Node] = []
        for case in cases[start:]:
            v = fld(case, "value")
            stmts = [x for x in named_children(case) if v is None or x != v]
            ends = next((k for k, x in enumerate(stmts) if x.type == "break_statement"), None)
            run += stmts[:ends]
            if ends is not None:
                break
        self.loop_kinds.append(False)  # a break in here ends the switch, not a loop around it
        try:
            self.statements(run)
        finally:
            self.loop_kinds.pop()

    def _breaks_here(self, n: ts.Node) -> bool:
        """``if (cond) break;`` in a loop, on a condition with one value in this pass (``k == 6``
        in unrolled code): raises _BreakLoop when it holds, True (skip it) when it does not. In a
        loop imported as a pattern Loop, where ``k`` has no value, asks for the loop to be unrolled.
        False for anything else (a break on a condition of the thread is reported as before)."""
        if n.type != "if_statement" or fld(n, "alternative") is not None or not self.loop_kinds or \
                not self.loop_kinds[-1]:
            return False
        cons = fld(n, "consequence")
        body = named_children(cons) if cons.type == "compound_statement" else [cons]
        if len(body) != 1 or body[0].type != "break_statement":
            return False
        cond_node = fld(fld(n, "condition"), "value") or fld(n, "condition")
        try:
            c = self.as_int(self.rv(cond_node), cond_node, "the condition")
        except Unsupported:
            return False
        if c.const is None:
            if self.frames and self._names_loop_var(c):
                raise _NeedsUnroll()
            return False
        if c.const:
            raise _BreakLoop()
        return True

    def _names_loop_var(self, c: Int) -> bool:
        """Whether an expression uses the innermost pattern Loop's variable (and nothing of the thread)."""
        names = set(re.findall(r"[A-Za-z_][\w.]*", c.text))
        return self.frames[-1].var in names and not any(x.startswith(("threadIdx", "lane", "warp", "tid"))
                                                        for x in names)

    def _exit_condition(self, n: ts.Node) -> Int | None:
        """``if (cond) return;`` (or ``continue;`` in a loop): the rest runs where !cond."""
        if n.type != "if_statement" or fld(n, "alternative") is not None:
            return None
        cons = fld(n, "consequence")
        body = named_children(cons) if cons.type == "compound_statement" else [cons]
        if len(body) != 1 or body[0].type not in ("return_statement", "continue_statement"):
            return None
        if body[0].type == "return_statement" and named_children(body[0]):
            return None
        cond_node = fld(fld(n, "condition"), "value") or fld(n, "condition")
        try:
            c = self.as_int(self.rv(cond_node), cond_node, "the condition")
        except Unsupported as e:
            self.report(e.node, f"{e.message}; the code after it is imported with every lane active")
            return Int.of(0)
        return c

    def statement(self, n: ts.Node) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _TooLong(n, f"the snippet takes more than {MAX_STEPS:,} statements to walk (unrolled loops?): "
                              f"import stopped here")
        try:
            meth = getattr(self, "st_" + n.type, None)
            if meth is not None:
                meth(n)
            elif n.type in IGNORED_STATEMENTS:
                pass
            elif n.type in UNSUPPORTED_STATEMENTS:
                self.report(n, f"{UNSUPPORTED_STATEMENTS[n.type]} is not modelled: its shared-memory accesses "
                               f"were not imported")
            elif n.type.endswith("_expression") or n.type in ("identifier", "number_literal"):
                self.rv(n)
            else:
                self.report(n, f"{n.type.replace('_', ' ')} not understood: skipped")
        except Unsupported as e:
            self.report(e.node if e.node is not None else n, e.message, e.severity)
        except _ExprTooLong:
            self.report(n, _TOO_LONG.why[0].upper() + _TOO_LONG.why[1:] + ": statement skipped")
        except (AttributeError, TypeError, ValueError, KeyError, IndexError, ZeroDivisionError) as e:
            # a shape of syntax tree the walker does not expect (broken code): skip this statement,
            # say so, and import the rest rather than fail the whole text
            self.report(n, f"this statement could not be followed ({type(e).__name__}: {e}): skipped")

    def st_compound_statement(self, n: ts.Node) -> None:
        self.statements(named_children(n))

    def st_declaration_list(self, n: ts.Node) -> None:
        self.statements(named_children(n), new_scope=False)

    def st_translation_unit(self, n: ts.Node) -> None:
        self.statements(named_children(n), new_scope=False)

    def st_expression_statement(self, n: ts.Node) -> None:
        for c in named_children(n):
            self.rv(c)

    def st_return_statement(self, n: ts.Node) -> None:
        vals = [self.rv(c) for c in named_children(n)]
        if self.calls and vals:  # the value of an inlined function: one return, on every lane of the call
            frame = self.calls[-1]
            conditional = (len(self.active) > frame.active or len(self.frames) > frame.frames
                           or len(self.unrolled) > frame.unrolled)
            frame.returns.append(vals[-1] if not conditional else None)

    def st_namespace_definition(self, n: ts.Node) -> None:
        body = fld(n, "body")
        if body is not None:
            self.statements(named_children(body), new_scope=False)

    st_linkage_specification = st_namespace_definition

    def st_preproc_ifdef(self, n: ts.Node) -> None:
        kids = [c for c in named_children(n) if c != fld(n, "name") and c.type not in ("preproc_else", "preproc_elif")]
        self.statements(kids, new_scope=False)

    def st_preproc_if(self, n: ts.Node) -> None:
        kids = [c for c in named_children(n) if c != fld(n, "condition") and c.type not in ("preproc_else", "preproc_elif")]
        self.statements(kids, new_scope=False)

    def st_preproc_def(self, n: ts.Node) -> None:
        name = self.text(fld(n, "name"))
        vnode = fld(n, "value")
        if vnode is None:
            return
        text = self.text(vnode).strip()
        try:
            e = E.parse(text)
        except BankExplorerError:
            self.bind(name, Unknown(f"macro {name!r} ({text!r}), which is not an integer expression"))
            return
        known = {k for k in ("threadIdx.x", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y",
                             "blockDim.z", "warpSize")}
        values: dict[str, Int] = {}
        for nm in e.names:
            b = self.lookup(nm)
            if b is not None and isinstance(b.value, Int):
                values[nm] = b.value
            elif nm not in known:
                self.bind(name, Unknown(f"macro {name!r}, which uses {nm!r} (not an integer the importer knows)"))
                return
        if all(v.const is not None for v in values.values()) and not (e.names & known):
            c = self._fold_with(e, {k: v.const for k, v in values.items()})
            if c is not None:
                self._bind_const(name, c)
                return
        if any(values[k].text != k for k in values):
            self.bind(name, Unknown(f"macro {name!r}, which uses local variables"))
            return
        self.bind(name, Int(f"({text})", PREC_ATOM, None), is_const=True)

    @staticmethod
    def _fold_with(e: E.Expr, values: dict[str, int]) -> int | None:
        try:
            return int(e.evaluate({k: np.int64(v) for k, v in values.items()}))
        except BankExplorerError:
            return None

    def st_preproc_function_def(self, n: ts.Node) -> None:
        self.macros.add(self.text(fld(n, "name")))

    def st_template_declaration(self, n: ts.Node) -> None:
        self.scopes.append({})
        params = fld(n, "parameters")
        for p in named_children(params) if params is not None else []:
            d = fld(p, "declarator")
            if d is not None and d.type == "identifier":
                nm = self.text(d)
                if nm not in self.opts.defines:
                    self.bind(nm, Unknown(f"template parameter {nm!r}, which has no value here "
                                          f"(give it one: -D {nm}=VALUE)"))
        for c in named_children(n):
            if c.type in ("function_definition", "declaration", "template_declaration", "struct_specifier",
                          "class_specifier"):
                self.statement(c)
        self.scopes.pop()

    def st_function_definition(self, n: ts.Node) -> None:
        decl = self._function_declarator(n)
        fname = self._function_name(n) or "?"
        if fname in self.called:
            return  # walked where it is called
        for c in n.children:
            if c.type == "launch_bounds":
                nums = named_children(c)
                if nums:
                    try:
                        lb = self.const_int(self.rv(nums[0]), nums[0], "__launch_bounds__")
                        self.launch_bounds = (lb, self.src.position(c)[0])
                    except Unsupported:
                        pass
        kernel = any(c.type != "compound_statement" and "__global__" in self.text(c) for c in n.children)
        self.scopes.append({})
        params = fld(decl, "parameters") if decl is not None else None
        for p in named_children(params) if params is not None else []:
            d = fld(p, "declarator")
            while d is not None and d.type != "identifier":
                d = fld(d, "declarator") if fld(d, "declarator") is not None else (
                    named_children(d)[-1] if named_children(d) else None)
            if d is not None and d.type == "identifier":
                nm = self.text(d)
                runtime_int = kernel and fld(p, "declarator").type == "identifier" and self._integer_parameter(p)
                if runtime_int:
                    self.runtime_names.add(nm)
                if nm in self.opts.defines:
                    continue
                if runtime_int:
                    # a launch passes a number: take the one the measured launches pass, and say so
                    self._bind_const(nm, KERNEL_INT_PARAMETER)
                    self.report(d, f"kernel parameter {nm!r} has no value given: taken as {KERNEL_INT_PARAMETER}, "
                                   f"as the verification launcher passes it (give another: -D {nm}=VALUE)", "note")
                    continue
                self.bind(nm, Unknown(f"{nm!r}, a parameter of {fname}() whose value is not known here "
                                      f"(give it one: -D {nm}=VALUE)"))
        body = fld(n, "body")
        if body is not None:
            self.statements(named_children(body))
        self.scopes.pop()

    # declarations -------------------------------------------------------------------------------
    def st_declaration(self, n: ts.Node) -> None:
        quals = {self.text(c) for c in n.children if c.type in ("type_qualifier", "storage_class_specifier")}
        tnode = fld(n, "type")
        ttext = self.text(tnode) if tnode is not None else "int"
        frag = fragment_type(ttext) if "fragment" in ttext else None
        for d in n.children_by_field_name("declarator"):
            if frag is not None and d.type == "identifier":
                self.fragments[self.text(d)] = frag
            try:
                if "__shared__" in quals:
                    self.shared_array(d, tnode, ttext, "extern" in quals)
                else:
                    self.local(d, ttext, bool(quals & {"const", "constexpr"}))
            except Unsupported as e:
                self.report(e.node if e.node is not None else d, e.message, e.severity)

    def shared_array(self, d: ts.Node, tnode: ts.Node | None, ttext: str, extern: bool) -> None:
        dtype = T.dtype_of(ttext)
        struct = self.structs.get(T.normalize(ttext)) if dtype is None else None
        if struct is not None:
            dtype = struct.dtype
        if d.type == "init_declarator":
            raise Unsupported(d, "a __shared__ variable cannot have an initializer")
        sizes: list[ts.Node | None] = []
        node = d
        while node.type == "array_declarator":
            sizes.insert(0, fld(node, "size"))
            node = fld(node, "declarator")
        if node.type != "identifier":
            raise Unsupported(node, f"__shared__ declaration {self.text(d)!r} not understood (a pointer?)")
        cname = self.text(node)
        if dtype is None:
            known = ", ".join(sorted(DTYPES))
            raise Unsupported(tnode, f"element type {T.normalize(ttext)!r} of shared array {cname!r} is not known "
                                     f"(known: {known})")
        if len(sizes) > MAX_DIMS:
            raise Unsupported(d, f"shared array {cname!r} has {len(sizes)} dimensions (at most {MAX_DIMS})")
        dims: list[int] = []
        padding = 0
        es = DTYPES[dtype] if struct is None else struct.size
        for k, s in enumerate(sizes):
            if s is None:
                dims.append(-1)
                continue
            v = self.const_int(self.rv(s), s, f"size of dimension {k} of {cname!r}")
            if v < 1:
                raise Unsupported(s, f"size of dimension {k} of {cname!r} must be positive, got {v}")
            if k == len(sizes) - 1 and k > 0 and s.type == "binary_expression" and \
                    self.text(fld(s, "operator")) == "+":
                pad_v = self.rv(fld(s, "right"))
                pad = pad_v.const if isinstance(pad_v, Int) and pad_v.const is not None else 0
                if 0 < pad < v:
                    padding = pad  # tile[N][N + 1]: the +1 is padding, shown as such
                    v -= pad
            dims.append(v)
        if not sizes:
            dims = [1]
        if -1 in dims:
            if dims.index(-1) != 0 or dims.count(-1) > 1:
                raise Unsupported(d, f"only the first dimension of {cname!r} can be left out")
            nbytes = self.extern_bytes
            if nbytes is None:
                nbytes = DEFAULT_EXTERN_BYTES
                self.extern_default_used = d
            rest = int(np.prod(dims[1:])) if len(dims) > 1 else 1
            rest = rest // dims[-1] * (dims[-1] + padding) if len(dims) > 1 else rest
            dims[0] = max(1, nbytes // (es * rest))
        if struct is not None:  # P pts[N] -> words pts[N][size / unit]
            dims = [dims[0]] if not sizes else dims
            if padding:
                dims[-1], padding = dims[-1] + padding, 0
            if len(dims) + 1 > MAX_DIMS:
                raise Unsupported(d, f"shared array {cname!r} of {struct.name} has {len(dims)} dimensions (at most "
                                     f"{MAX_DIMS - 1} for an array of structs)")
            dims.append(struct.size // struct.unit)
        name = cname
        k = 2
        while name in self.arrays:
            name, k = f"{cname}_{k}", k + 1
        self.arrays[name] = _Array(name, dtype, tuple(dims), padding, extern, d)
        if struct is not None:
            self.struct_of[name] = struct
            self.bind(cname, ArrayView(name) if sizes else ArrayView(name, (Int.of(0),)))
            return
        if sizes:
            self.bind(cname, ArrayView(name))
        else:
            self.bind(cname, Ref(Ptr(name, (Int.of(0),), None, es)))

    def local(self, d: ts.Node, ttext: str, const: bool) -> None:
        tname = T.normalize(ttext)
        value_node = None
        node = d
        if node.type == "init_declarator":
            value_node = fld(node, "value")
            node = fld(node, "declarator")
        kind = "value"
        while node.type in ("pointer_declarator", "reference_declarator", "array_declarator"):
            kind = {"pointer_declarator": "pointer", "reference_declarator": "reference",
                    "array_declarator": "array"}[node.type] if kind == "value" else kind
            inner = fld(node, "declarator")
            node = inner if inner is not None else named_children(node)[-1]
        if node.type != "identifier":
            if node.type == "function_declarator":
                return  # a prototype
            raise Unsupported(d, f"declaration {self.text(d)!r} not understood")
        name = self.text(node)
        if value_node is not None and value_node.type == "lambda_expression":
            # auto idx = [&](int r, int c) { return r * 33 + c; }: inlined where it is called
            self.lambdas[name] = value_node
            self.bind(name, DATA)
            return
        if tname == "dim3":
            dims = [1, 1, 1]
            if value_node is not None:
                v = self.rv(value_node) if value_node.type != "argument_list" else None
                if isinstance(v, Dim3):
                    dims = list(v.dims)
                else:
                    args = named_children(value_node) if value_node.type in ("argument_list", "initializer_list") \
                        else [value_node]
                    try:
                        for k, a in enumerate(args[:3]):
                            dims[k] = self.const_int(self.rv(a), a, "a dim3 size")
                    except Unsupported as e:  # a grid size, usually: only a problem if used as the block
                        self.bind(name, Unknown(f"dim3 {name!r}, whose sizes are not all constants "
                                                f"({self._where(e.node)}: {e.message})"))
                        return
            self.bind(name, Dim3(tuple(dims)))  # type: ignore[arg-type]
            return
        if value_node is None:
            self.bind(name, Unknown(f"{name!r}, which is declared without a value") if tname in T.INTEGER_TYPES
                      and kind == "value" else DATA)
            return
        if value_node.type in ("argument_list", "initializer_list"):
            kids = named_children(value_node)
            if kind == "array" or len(kids) != 1:
                for c in kids:
                    self.rv(c)
                self.bind(name, DATA)
                return
            value_node = kids[0]
        if kind == "reference":
            v = self.ev(value_node)
            self.bind(name, v if isinstance(v, Ref) else self.decay(v))
            return
        if kind == "array":
            self.rv(value_node)
            self.bind(name, DATA)
            return
        if kind == "pointer":
            v = self.decay(self.ev(value_node))
            if isinstance(v, Ptr):
                size = T.size_of(tname)
                if size is not None:
                    v = replace(v, size=size)
            self.bind(name, v)
            return
        if tname in self.structs:  # P p = pts[i]: each field is loaded
            v = self.ev(value_node)
            if not self.struct_access(v, value_node, "load"):
                self.rv(value_node) if not isinstance(v, Ref) else self.emit("load", v, value_node)
            self.bind(name, DATA)
            return
        v = self.rv(value_node)
        if isinstance(v, Group):  # cg::thread_block block = cg::this_thread_block();
            self.bind(name, v)
            return
        if tname in T.INTEGER_TYPES or tname == "" or isinstance(v, Ptr):
            if isinstance(v, Int) and const and v.const is not None and self.depth == 0 or (
                    isinstance(v, Int) and const and v.const is not None and v.text.lstrip("(-").isdigit()):
                self._bind_const(name, v.const) if self.depth == 0 else self.bind(name, Int.of(v.const), True)
                return
            if isinstance(v, Int) or isinstance(v, Ptr):
                self.bind(name, self._builtin_alias(name, v) if isinstance(v, Int) else v, is_const=const)
                return
            if isinstance(v, Unknown):
                self.bind(name, v)
                return
            self.bind(name, Unknown(f"{name!r} (line {self.src.position(node)[0]}), which is computed from data the "
                                    f"importer does not follow"))
            return
        self.bind(name, DATA)

    def _builtin_alias(self, name: str, v: Int) -> Int:
        """``int lane = threadIdx.x % 32`` in a one-dimensional block is the model's own ``lane``
        (likewise ``warp``, ``tid``): keep the short name, so indices read as people wrote them."""
        if self.block[1] * self.block[2] != 1 or self.opts.hardware.warp_size != 32:
            return v
        same = {
            "lane": {"threadIdx.x % 32", "threadIdx.x & 31", "threadIdx.x % warpSize"},
            "laneid": {"threadIdx.x % 32", "threadIdx.x & 31", "threadIdx.x % warpSize"},
            "warp": {"threadIdx.x / 32", "threadIdx.x >> 5", "threadIdx.x / warpSize"},
            "tid": {"threadIdx.x"},
        }
        return Int(name, PREC_ATOM, None) if v.text in same.get(name, ()) else v

    # control flow -------------------------------------------------------------------------------
    def st_if_statement(self, n: ts.Node) -> None:
        cond_node = fld(fld(n, "condition"), "value") or fld(n, "condition")
        cons, alt = fld(n, "consequence"), fld(n, "alternative")
        if alt is not None and alt.type == "else_clause":
            kids = named_children(alt)
            alt = kids[0] if kids else None
        try:
            c = self.as_int(self.rv(cond_node), cond_node, "the condition")
        except Unsupported as e:
            self.report(e.node, f"{e.message}; both branches imported with every lane active")
            self.statement(cons)
            if alt is not None:
                self.statement(alt)
            return
        if c.const is not None:
            taken = cons if c.const else alt
            if taken is not None:
                self.statement(taken)
            return
        outer = self._active_text()
        self.active.append(c)
        n0 = len(self.instrs)
        try:
            self.statement(cons)
            n1 = len(self.instrs)
            if alt is not None:
                then_active = self._active_text()
                self.active[-1] = self.negate(c)
                self.statement(alt)
                self._pair_twins(n0, n1, then_active, self._active_text(), outer)
        finally:
            self.active.pop()

    def _active_text(self) -> str:
        return " && ".join(c.wrapped(BINARY_PREC["&&"] + 1) for c in self.active)

    def _pair_twins(self, n0: int, n1: int, then_active: str, else_active: str, outer: str) -> None:
        """The same access (kind, width, address, loops) made at the top of both branches of an ``if``
        on the thread: nvcc hoists or sinks it out of the branches and makes it once for all lanes."""
        def key(ins: Instruction):
            return replace(ins, active="", label="")

        taken: set[int] = set()
        for j in range(n1, len(self.instrs)):
            if self.instrs[j].active != else_active:
                continue
            for i in range(n0, n1):
                if i not in taken and self.instrs[i].active == then_active and \
                        key(self.instrs[i]) == key(self.instrs[j]):
                    taken.add(i)
                    self.twins.append((i, j, outer))
                    break


IGNORED_STATEMENTS = {
    "comment", "preproc_call", "preproc_include", "type_definition", "struct_specifier", "class_specifier",
    "enum_specifier", "union_specifier", "alias_declaration", "using_declaration", "static_assert_declaration",
    "empty_statement", "concept_definition", "friend_declaration", "field_declaration", "ERROR",
    "namespace_alias_definition", "using_directive",
}
UNSUPPORTED_STATEMENTS = {
    "goto_statement": "goto",
    "labeled_statement": "a labeled statement",
    "break_statement": "break (other than 'if (cond) break;' on a condition with one value in each pass)",
    "continue_statement": "continue (other than 'if (cond) continue;' at the top of a loop body)",
    "for_range_loop": "a range-based for loop",
    "try_statement": "try",
    "co_return_statement": "co_return",
}


