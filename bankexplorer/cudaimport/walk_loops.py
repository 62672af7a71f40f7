"""Loops: constant-bound loops become Loops, loops that change outer variables are unrolled.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np
import tree_sitter as ts

from ..model import expr as E
from ..model.errors import BankExplorerError
from ..model.pattern import MAX_LOOP_ITERATIONS, MAX_REPEAT, RESERVED_NAMES, Loop, Pattern
from .syntax import field as fld, named_children
from .values import PREC_ATOM, Int, Unknown
from .walk_state import (MAX_UNROLL, ONCE, ONCE_FIRST, Unsupported, WalkState, _arith, _BreakLoop, _compare,
                         _LoopFrame, _NeedsUnroll)


class LoopWalk(WalkState):
    """for / while / do: trip counts, symbolic loops, unrolling, folding long loops."""


    def st_for_statement(self, n: ts.Node) -> None:
        self.scopes.append({})
        self._loop_start = None
        try:
            self._for(n)
        except Unsupported as e:  # raised before the body was walked: walk it once
            start, self._loop_start = self._loop_start, None
            if start is not None:  # the first iteration: the variable has its start value
                self.report(e.node if e.node is not None else n, f"{e.message}; {ONCE_FIRST}", e.severity)
                self.bind(start[0], start[1])
                self._walk_once(fld(n, "body"))
                return
            self.report(e.node if e.node is not None else n, f"{e.message}; {ONCE}", e.severity)
            init = fld(n, "initializer")
            names: list[str] = []
            if init is not None and init.type == "declaration":
                for d in init.children_by_field_name("declarator"):
                    d = fld(d, "declarator") if d.type == "init_declarator" else d
                    if d is not None and d.type == "identifier":
                        names.append(self.text(d))
            elif init is not None and init.type == "assignment_expression" and fld(init, "left").type == "identifier":
                names.append(self.text(fld(init, "left")))
            line = self.src.position(n)[0]
            for nm in names:
                self.bind(nm, Unknown(f"{nm!r}, the variable of the loop at line {line}, which is not modelled"))
            self._walk_once(fld(n, "body"))
        finally:
            self.scopes.pop()

    def st_while_statement(self, n: ts.Node) -> None:
        if not self._loop_by_values(n) and not self._while_counting(n):
            self._loop_once(n, "a while loop")

    def _while_counting(self, n: ts.Node) -> bool:
        """``int i = threadIdx.x; while (i < N) { ...; i += blockDim.x; }``: the for loop it is
        (a start of the thread, a constant bound and step, the step the body's last statement).
        False (nothing walked) for any other shape."""
        cond, body = fld(n, "condition"), fld(n, "body")
        value = fld(cond, "value") if cond is not None and cond.type == "condition_clause" else cond
        if value is None or body is None or body.type != "compound_statement" or value.type != "binary_expression":
            return False
        stmts = named_children(body)
        last = stmts[-1] if stmts else None
        if last is None or last.type != "expression_statement" or not named_children(last):
            return False
        upd = named_children(last)[0]
        left = fld(value, "left")
        var = self.text(left) if left is not None and left.type == "identifier" else None
        b = self.lookup(var) if var else None
        if b is None or not isinstance(b.value, Int) or b.value.const is not None:
            return False
        snap = self._snapshot()
        try:
            stop_op, stop, _flipped = self._loop_cond(n, value, var)
            upd_op, step = self._loop_update(n, upd, var)
        except Unsupported:
            self._restore(snap)
            return False
        s = step if upd_op == "+" else -step if upd_op == "-" else 0
        if s == 0 or not ((s > 0 and stop_op in ("<", "<=")) or (s < 0 and stop_op in (">", ">="))):
            self._restore(snap)
            return False
        start = b.value
        try:
            count = self._most_passes(start, stop_op, stop, s, n)
        except Unsupported:
            self._restore(snap)
            return False
        if count > MAX_LOOP_ITERATIONS:
            self._restore(snap)
            return False
        self.scopes.append({})
        self.skip_nodes.add((last.start_byte, last.end_byte))  # the update is the loop's own
        try:
            it = self._loop_var_name(var + "_it")
            self._run_loop(n, var, body, range(count), (it, start, s, stop_op, stop))
        finally:
            self.skip_nodes.discard((last.start_byte, last.end_byte))
            self.scopes.pop()
        line = self.src.position(n)[0]
        try:
            self.rebind(var, Unknown(f"{var!r} after the loop at line {line}, which ends at a different value in "
                                     f"each thread"), n)
        except Unsupported:
            pass
        return True

    def st_do_statement(self, n: ts.Node) -> None:
        if not self._loop_by_values(n):
            self._loop_once(n, "a do-while loop")

    def _loop_by_values(self, n: ts.Node) -> bool:
        """A while or do loop whose condition has one value for every thread before each pass
        (``int stride = blockDim.x / 2; while (stride > 0) { ...; stride >>= 1; }``): walked pass by
        pass, as nvcc unrolls it. False (nothing walked) when the condition depends on the thread or
        the data, or the loop runs past MAX_UNROLL passes."""
        cond, body = fld(n, "condition"), fld(n, "body")
        value = fld(cond, "value") if cond is not None and cond.type == "condition_clause" else cond
        if value is None or body is None or value.type.endswith(("declaration", "statement")):
            return False
        names = [self.text(c) for c in _identifiers(value)]
        var = next((nm for nm in names if (b := self.lookup(nm)) is not None and isinstance(b.value, Int)
                    and b.value.const is not None), None)
        if var is None:
            return False
        snap = self._snapshot()
        is_do = n.type == "do_statement"
        passes = 0
        while True:
            if passes or not is_do:
                try:
                    c = self.as_int(self.rv(value), value, "the loop condition")
                except Unsupported:
                    c = Int("?", PREC_ATOM, None)
                if c.const is None or passes > MAX_UNROLL:
                    self._restore(snap)
                    return False
                if not c.const:
                    return True
            b = self.lookup(var)
            self.unrolled.append((var, b.value.const if b is not None and isinstance(b.value, Int) else passes))
            self.loop_kinds.append(True)
            try:
                self.statements(named_children(body) if body.type == "compound_statement" else [body])
            except _BreakLoop:
                return True
            finally:
                self.loop_kinds.pop()
                self.unrolled.pop()
            passes += 1

    def _loop_once(self, n: ts.Node, what: str) -> None:
        """A loop with no constant bounds: its accesses are what matters for bank conflicts, so
        its body is imported once (and said so) rather than dropped."""
        self.report(n, f"{what} is not modelled (only for loops with constant bounds are); {ONCE}")
        cond = fld(n, "condition")
        body = fld(n, "body")
        order = [body, cond] if n.type == "do_statement" else [cond, body]
        self.scopes.append({})
        try:
            for part in order:
                if part is None:
                    continue
                if part is cond:
                    value = fld(cond, "value") if cond.type == "condition_clause" else cond
                    for c in [value] if value is not None else named_children(cond):
                        self.statement(c) if c.type.endswith("statement") else self._quiet_rv(c)
                else:
                    self._walk_once(part)
        finally:
            self.scopes.pop()

    def _walk_once(self, body: ts.Node) -> None:
        """A loop body walked once for a loop that is not modelled: its breaks are not the model's."""
        self.loop_kinds.append(False)
        try:
            self.statement(body)
        finally:
            self.loop_kinds.pop()

    def _quiet_rv(self, node: ts.Node) -> None:
        """Evaluate for its shared-memory accesses only (a loop condition nobody models)."""
        try:
            self.rv(node)
        except Unsupported:
            pass

    def _for(self, n: ts.Node) -> None:
        init, cond, upd, body = fld(n, "initializer"), fld(n, "condition"), fld(n, "update"), fld(n, "body")
        var, start = self._loop_init(n, init, cond)
        self._loop_start = (var, start)  # what the body sees if the rest of the header is not modelled
        stop_op, stop, _flipped = self._loop_cond(n, cond, var)
        upd, after = self._split_update(upd, var)
        upd_op, step = self._loop_update(n, upd, var)
        if start.const is not None:
            trips = self._trips(n, start.const, stop_op, stop, upd_op, step)
            self._run_loop(n, var, body, trips, None, after)
            return
        # start depends on the thread (for (i = tid; i < N; i += blockDim.x)): count the most
        # iterations any thread makes; lanes past their own end are inactive
        if upd_op not in ("+", "-"):
            raise Unsupported(upd, "a loop whose start depends on the thread must step by a constant (k += STEP)")
        s = step if upd_op == "+" else -step
        if s == 0:
            raise Unsupported(upd, "loop step is 0: the loop never ends")
        if not ((s > 0 and stop_op in ("<", "<=")) or (s < 0 and stop_op in (">", ">="))):
            raise Unsupported(cond, f"loop condition {self.text(cond)!r} with a start that depends on the thread: "
                                    f"write k < STOP (counting up) or k > STOP (counting down)")
        count = self._most_passes(start, stop_op, stop, s, n)
        if count > MAX_LOOP_ITERATIONS:
            raise Unsupported(n, f"loop of up to {count:,} iterations per thread whose start depends on the thread: "
                                 f"at most {MAX_LOOP_ITERATIONS:,} can be modelled")
        it = self._loop_var_name(var + "_it")
        self._run_loop(n, var, body, range(count), (it, start, s, stop_op, stop), after)

    def _split_update(self, upd: ts.Node | None, var: str) -> tuple[ts.Node | None, list[ts.Node]]:
        """``i += p, tile++``: the loop variable's own step, and the other updates (run after each pass)."""
        if upd is None or upd.type != "comma_expression":
            return upd, []
        parts: list[ts.Node] = []
        stack = [upd]
        while stack:
            x = stack.pop()
            if x.type == "comma_expression":
                stack += [fld(x, "right"), fld(x, "left")]
            elif x is not None:
                parts.append(x)
        own = [x for x in parts if var in {self.text(c) for c in _identifiers(x)}]
        if len(own) != 1:
            return upd, []
        return own[0], [x for x in parts if x is not own[0]]

    def _most_passes(self, start: Int, stop_op: str, stop: int, step: int, node: ts.Node) -> int:
        """The most passes any thread makes of ``k = start; k STOP_OP stop; k += step`` (start of the thread)."""
        starts = self._per_thread(start, node)
        inclusive = 1 if stop_op in ("<=", ">=") else 0
        span = (stop - starts) if step > 0 else (starts - stop)
        return int(np.maximum(0, (span + inclusive + abs(step) - 1) // abs(step)).max(initial=0))

    def _per_thread(self, v: Int, node: ts.Node) -> np.ndarray:
        from ..model.analysis import thread_variables

        p = Pattern(block=self.block, constants=tuple(self.consts.items()), hardware=self.opts.hardware)
        try:
            out = E.parse(v.text).evaluate(thread_variables(p), (p.warps * p.hardware.warp_size,))
        except BankExplorerError as e:
            raise Unsupported(node, f"loop start not understood: {e.message}")
        return np.asarray(out, dtype=np.int64)[: p.threads]

    def _loop_init(self, n: ts.Node, init: ts.Node | None, cond: ts.Node | None = None) -> tuple[str, Int]:
        if init is None:
            raise Unsupported(n, "for loop without an initializer is not modelled")
        if init.type == "declaration" and len(init.children_by_field_name("declarator")) > 1 and cond is not None:
            # for (int i = 0, tile = 0; i < N; ...): the variable the condition tests is the loop's;
            # the others are locals of the loop (declared here, updated after each pass)
            in_cond = {self.text(c) for c in _identifiers(cond)}
            ds = init.children_by_field_name("declarator")
            mine = [d for d in ds if d.type == "init_declarator" and fld(d, "declarator").type == "identifier"
                    and self.text(fld(d, "declarator")) in in_cond]
            if len(mine) == 1:
                tnode = fld(init, "type")
                for d in ds:
                    if d != mine[0]:
                        self.local(d, self.text(tnode) if tnode is not None else "int", False)
                name = self.text(fld(mine[0], "declarator"))
                return name, self.as_int(self.rv(fld(mine[0], "value")), fld(mine[0], "value"), "the loop start")
        if init.type == "declaration":
            ds = init.children_by_field_name("declarator")
            if len(ds) == 1 and ds[0].type == "init_declarator" and fld(ds[0], "declarator").type == "identifier":
                name = self.text(fld(ds[0], "declarator"))
                return name, self.as_int(self.rv(fld(ds[0], "value")), fld(ds[0], "value"), "the loop start")
        if init.type == "assignment_expression" and fld(init, "left").type == "identifier" and \
                self.text(fld(init, "operator")) == "=":
            return self.text(fld(init, "left")), self.as_int(self.rv(fld(init, "right")), fld(init, "right"),
                                                             "the loop start")
        raise Unsupported(init, f"loop initializer {self.text(init)!r} not understood (write: int k = START)")

    def _loop_cond(self, n: ts.Node, cond: ts.Node | None, var: str) -> tuple[str, int, bool]:
        if cond is None or cond.type != "binary_expression":
            raise Unsupported(cond or n, "loop condition not understood (write: k < STOP with a constant STOP)")
        op = self.text(fld(cond, "operator"))
        left, right = fld(cond, "left"), fld(cond, "right")
        flip = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!="}
        if op not in flip:
            raise Unsupported(cond, f"loop condition {self.text(cond)!r} not understood")
        if left.type == "identifier" and self.text(left) == var:
            bound, flipped = right, False
        elif right.type == "identifier" and self.text(right) == var:
            bound, flipped, op = left, True, flip[op]
        else:
            raise Unsupported(cond, f"loop condition {self.text(cond)!r} does not compare {var!r} with a bound")
        stop = self.const_int(self.rv(bound), bound, "the loop bound")
        return op, stop, flipped

    def _loop_update(self, n: ts.Node, upd: ts.Node | None, var: str) -> tuple[str, int]:
        if upd is None:
            raise Unsupported(n, "for loop without an update is not modelled")
        if upd.type == "update_expression" and self.text(fld(upd, "argument")) == var:
            return ("+" if self.text(fld(upd, "operator")) == "++" else "-"), 1
        if upd.type == "assignment_expression" and self.text(fld(upd, "left")) == var:
            op = self.text(fld(upd, "operator"))
            right = fld(upd, "right")
            if op == "=" and right.type == "binary_expression" and self.text(fld(right, "left")) == var:
                op = self.text(fld(right, "operator")) + "="
                right = fld(right, "right")
            if op in ("+=", "-=", "*=", "/=", "<<=", ">>="):
                return op[:-1], self.const_int(self.rv(right), right, "the loop step")
        raise Unsupported(upd, f"loop update {self.text(upd)!r} not understood (write: k += STEP)")

    def _trips(self, n: ts.Node, start: int, cop: str, stop: int, uop: str, step: int) -> Sequence[int]:
        """The values the loop variable takes, worked out from the bounds (nothing is run): a
        ``range`` for k += STEP loops, a short list for k *= / <<= / /= / >>= loops."""
        if uop in ("+", "-"):
            d = step if uop == "+" else -step
            if not _compare(cop, start, stop):
                return range(0)
            if d == 0:
                raise Unsupported(n, "loop never ends (its variable does not change)")
            if cop == "!=":
                if (stop - start) % d or (stop - start) // d < 0:
                    raise Unsupported(n, f"loop never reaches {stop} (write k < STOP)")
                count = (stop - start) // d
            elif (d > 0) != (cop in ("<", "<=")):
                raise Unsupported(n, "loop never ends (its variable moves away from the bound)")
            else:
                inclusive = 1 if cop in ("<=", ">=") else 0
                count = (abs(stop - start) + inclusive + abs(d) - 1) // abs(d)
            if count > MAX_REPEAT:
                raise Unsupported(n, f"loop of {count:,} iterations is too long to model")
            return range(start, start + count * d, d)
        out: list[int] = []
        v = start
        while _compare(cop, v, stop):
            out.append(v)
            if len(out) > MAX_UNROLL:
                raise Unsupported(n, f"loop runs more than {MAX_UNROLL:,} iterations with a step that is not "
                                     f"constant (or forever)")
            if uop == "/":
                if step == 0:
                    raise Unsupported(n, "loop divides by 0")
                nv = abs(v) // abs(step) * (1 if (v >= 0) == (step > 0) else -1)  # C: toward zero
            elif uop in ("<<", ">>"):
                if not 0 <= step < 64:
                    raise Unsupported(n, f"shift by {step} is not defined in C")
                nv = v << step if uop == "<<" else v >> step
            else:
                nv = v * step
            if nv == v or abs(nv) > (1 << 62):
                raise Unsupported(n, "loop never ends (its variable stops changing or overflows)")
            v = nv
        return out

    def _loop_var_name(self, base: str) -> str:
        used = set(self.consts) | {lp.var for lp in self.loops} | RESERVED_NAMES
        name, k = base, 2
        while name in used or not name.isidentifier():
            name, k = f"{base}_{k}", k + 1
        return name

    def _snapshot(self):
        return (len(self.instrs), len(self.spans), len(self.diags), [dict(s) for s in self.scopes],
                dict(self.consts), dict(self.arrays), list(self.launches), set(self.macros))

    def _restore(self, snap) -> None:
        ni, ns, nd, scopes, consts, arrays, launches, macros = snap
        del self.instrs[ni:], self.spans[ns:], self.diags[nd:]
        self.scopes[:] = scopes
        self.consts, self.arrays, self.launches, self.macros = consts, arrays, launches, macros

    def _guard_condition(self, guard: tuple[str, Int, int, str, int], k: Int) -> tuple[Int, Int]:
        """For a loop whose start depends on the thread: the variable's value at iteration ``k``
        and the condition under which a lane still runs it."""
        _it, start, s, op, stop = guard
        if s > 0:
            value = self.add(start, k if s == 1 else self.mul(k, s))
        else:
            value = self.binop("-", start, k if s == -1 else self.mul(k, -s))
        return value, self.binop(op, value, Int.of(stop))

    def _run_loop(self, n: ts.Node, var: str, body: ts.Node, values: Sequence[int],
                  guard: tuple[str, Int, int, str, int] | None, after: Sequence[ts.Node] = ()) -> None:
        """Import the body once as a Loop when the values are a range and the body changes no
        outer variable; else once per value (unrolled). ``after``: other updates of the header
        (``tile++``), run after each pass, which makes the loop unrolled."""
        if not len(values):
            return
        arith = _arith(values) if not after else None
        if arith is not None:
            snap = self._snapshot()
            pv = guard[0] if guard else self._loop_var_name(var)
            lp = Loop(pv, *arith)
            symbol = Int(pv, PREC_ATOM, None)
            cond = None
            if guard:
                value, cond = self._guard_condition(guard, symbol)
            else:
                value = symbol
            self.bind(var, value)
            self.loop_vars.append(self.scopes[-1][var])
            self.loops.append(lp)
            self.frames.append(_LoopFrame(pv, self.depth))
            if cond is not None:
                self.active.append(cond)
            first = len(self.instrs)
            self.loop_kinds.append(True)
            try:
                self.statement(body)
            except (_NeedsUnroll, _BreakLoop):  # walk it pass by pass
                self._restore(snap)
                first = -1
            finally:
                self.loop_kinds.pop()
                self.loops.pop()
                self.frames.pop()
                self.loop_vars.pop()
                if cond is not None:
                    self.active.pop()
            if first >= 0:
                self._fold_long_loop(lp, first)
                return
        if len(values) > MAX_UNROLL:
            self.report(n, f"this loop must be unrolled (its body changes a variable declared before it, or its "
                           f"steps are not evenly spaced) but has {len(values):,} iterations (at most {MAX_UNROLL:,}): "
                           f"not imported")
            return
        for v in values:
            cond = None
            if guard:
                value, cond = self._guard_condition(guard, Int.of(v))
                self.active.append(cond)
            else:
                value = Int.of(v)
            self.bind(var, value)
            self.loop_vars.append(self.scopes[-1][var])
            self.unrolled.append((var, v))
            self.loop_kinds.append(True)
            try:
                self.statement(body)
                for x in after:
                    self.rv(x)
            except _BreakLoop:
                return  # the finally below still unwinds this pass
            finally:
                self.loop_kinds.pop()
                self.unrolled.pop()
                self.loop_vars.pop()
                if cond is not None:
                    self.active.pop()

    def _fold_long_loop(self, lp: Loop, first: int) -> None:
        """Loops too long for one instruction per iteration, whose variable an access does not
        use, are the same instruction repeated: keep them as ``repeat`` (what the kernel totals
        need). What is still too long is reported when the pattern is checked."""
        for k in range(first, len(self.instrs)):
            ins = self.instrs[k]
            if ins.iterations() <= MAX_LOOP_ITERATIONS or lp not in ins.loops:
                continue
            names: set[str] = set()
            for t in ins.index + ((ins.active,) if ins.active else ()):
                try:
                    names |= E.parse(t).names
                except BankExplorerError:
                    pass
            if lp.var in names:
                continue
            loops = tuple(x for x in ins.loops if x is not lp)
            self.instrs[k] = replace(ins, loops=loops, repeat=min(ins.repeat * len(lp.values()), MAX_REPEAT + 1))


def _identifiers(node: ts.Node) -> list[ts.Node]:
    out, stack = [], [node]
    while stack:
        x = stack.pop()
        if x.type == "identifier":
            out.append(x)
        stack.extend(reversed(x.children))
    return out
