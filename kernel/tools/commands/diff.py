"""``mtgk diff``: what changed between two events of a log, or where two logs part."""

from __future__ import annotations

import argparse
import os
from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogFile
from mtgk.render import Renderer, clean, event_json, mask_state
from mtgk.rules.state import State
from mtgk.rules.visibility import visible_header
from mtgk.tools.cli_base import (
    Runner,
    UserError,
    event_index,
    fold_warning,
    json_line,
    player,
    read,
    registry,
    stdout,
)
from mtgk.tools.debug import diff_logs, diff_states

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk diff``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = ("`mtgk diff LOG A B`: what changed in the game state from right after "
                     "event A to right after event B: objects that appeared, vanished or "
                     "changed (followed across zone changes; field by field, characteristics "
                     "after layers included), players' fields, the stack, effects and combat. "
                     "`mtgk diff LOG1 LOG2`: how the headers differ and the first event where "
                     "the two logs part, shown from both. Exit status 0 when there is no "
                     "difference, 1 when there is one.")
    p.add_argument("file", metavar="LOG")
    p.add_argument("a", metavar="A|LOG2", help="an event of LOG, or a second log")
    p.add_argument("b", nargs="?", metavar="B", help="a later (or earlier) event of LOG")
    p.add_argument("--context", type=int, default=3, metavar="K",
                   help="with two logs: show the K events before the first difference "
                        "(default: %(default)s)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="compare only what PLAYER (name or index) could see")
    p.add_argument("--json", action="store_true", help="print the differences as JSON")

    def run(args: argparse.Namespace) -> int:
        if args.b is None:
            if _is_int(args.a) and not os.path.exists(args.a):
                raise UserError("give two events (mtgk diff LOG A B) or two logs "
                                "(mtgk diff LOG1 LOG2)")
            return _diff_logs(args)
        return _diff_events(args)

    return run


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _diff_events(args: argparse.Namespace) -> int:
    if not (_is_int(args.a) and _is_int(args.b)):
        raise UserError(f"expected two event numbers, got {args.a!r} and {args.b!r}")
    lf = read(args.file)
    envs = lf.envelopes
    a = event_index(int(args.a), len(envs), "A")
    b = event_index(int(args.b), len(envs), "B")
    viewer = player(args.as_player, lf.header)
    reg = registry(args)
    r = Renderer(None, viewer)
    states: dict[int, State] = {}
    for env in envs[: max(a, b) + 1]:
        r.advance(env)
        if env.seq in (a, b):
            states[env.seq] = mask_state(r.state, viewer, r.seen)
    fold_warning(r)
    sa, sb = states[a], states[b]
    d = diff_states(sa, sb, reg)
    out = stdout()
    if args.json:
        print(json_line({"from": a, "to": b, **d.to_json()}), file=out)
    else:
        print(clean(f"From after event {a} ({_where(sa)}) to after event {b} ({_where(sb)}):"),
              file=out)
        for line in d.lines():
            print(clean(f"  {line}"), file=out)
    if lf.torn:
        return 1
    return 0 if d.empty else 1


def _where(s: Any) -> str:
    if not s.players or not s.turn:
        return "before the first turn"
    who = s.players[s.active].name if 0 <= s.active < len(s.players) else f"player {s.active}"
    return f"turn {s.turn}, {who}'s {s.step.replace('_', ' ')} step"


def _diff_logs(args: argparse.Namespace) -> int:
    la = read(args.file)
    lb = read(args.a)
    reg = registry(args)
    viewer = player(args.as_player, la.header)
    if viewer is not None:
        player(args.as_player, lb.header)  # the player must be in both games
        return _diff_views(args, la, lb, viewer, reg)
    d = diff_logs(la.header, la.envelopes, lb.header, lb.envelopes)
    out = stdout()
    ctx = max(0, args.context)
    ra, rb = Renderer(reg), Renderer(reg)
    first = d.first if d.first is not None else 0
    for env in la.envelopes[: max(0, first - ctx)]:
        ra.advance(env)
    for env in lb.envelopes[: max(0, first - ctx)]:
        rb.advance(env)
    context = [ra.render(env) for env in la.envelopes[max(0, first - ctx): first]]
    for env in lb.envelopes[max(0, first - ctx): first]:
        rb.advance(env)
    line_a = f"{d.a.seq} {ra.describe(d.a)}" if d.a is not None else "(the log has ended)"
    line_b = f"{d.b.seq} {rb.describe(d.b)}" if d.b is not None else "(the log has ended)"
    if args.json:
        print(json_line({
            "header": {k: list(v) for k, v in d.header.items()},
            "common": d.common, "first": d.first, "reason": d.reason,
            "a": _env_json(d.a, line_a), "b": _env_json(d.b, line_b),
            "events": list(d.sizes)}), file=out)
        return 0 if d.same else 1
    return _print_log_diff(args, d.header, d.common, d.first, d.reason, context, line_a,
                           line_b, d.sizes)


def _print_log_diff(args: argparse.Namespace, header: dict[str, tuple[Any, Any]], common: int,
                    first: int | None, reason: str, context: list[str], line_a: str,
                    line_b: str, sizes: tuple[int, int]) -> int:
    out = stdout()
    if header:
        print("headers differ:", file=out)
        for k, (va, vb) in header.items():
            print(f"  {k}: {json_line(va)}", file=out)
            print(f"  {' ' * len(k)}  {json_line(vb)}", file=out)
    else:
        print("headers: the same", file=out)
    if first is None:
        print(f"events: the same ({sizes[0]} events)", file=out)
        return 1 if header else 0
    same = (f"the same up to event {common - 1} ({common} events)" if common
            else "none the same")
    print(clean(f"events: {same}; first difference at event {first}: {reason}"), file=out)
    for line in context:
        print(clean(f"    {line}"), file=out)
    print(clean(f"  {args.file}: {line_a}"), file=out)
    print(clean(f"  {args.a}: {line_b}"), file=out)
    print(clean(f"{args.file} has {sizes[0]} events, {args.a} has {sizes[1]}"), file=out)
    return 1


def _view_records(lf: LogFile, viewer: int, reg: Registry) -> tuple[list[dict[str, Any]],
                                                                    list[str]]:
    """Every event of ``lf`` as ``viewer`` sees it: JSON records and text lines."""
    r = Renderer(reg, viewer)
    recs: list[dict[str, Any]] = []
    lines: list[str] = []
    for env in lf.envelopes:
        lines.append(f"{env.seq} {r.describe(env)}")
        r.advance(env)
        recs.append(event_json(env, r))
    return recs, lines


def _diff_views(args: argparse.Namespace, la: LogFile, lb: LogFile, viewer: int,
                reg: Registry) -> int:
    """``mtgk diff LOG1 LOG2 --as PLAYER``: where the two games part as PLAYER saw them
    (headers and events as in ``log --as PLAYER --json``)."""
    ha, hb = visible_header(la.header, viewer), visible_header(lb.header, viewer)
    header: dict[str, tuple[Any, Any]] = {}
    for k in sorted(set(ha) | set(hb)):
        if k == "meta":
            ma, mb = ha.get(k) or {}, hb.get(k) or {}
            for m in sorted(set(ma) | set(mb)):
                if ma.get(m) != mb.get(m):
                    header[f"meta.{m}"] = (ma.get(m), mb.get(m))
        elif ha.get(k) != hb.get(k):
            header[k] = (ha.get(k), hb.get(k))
    ra, ta = _view_records(la, viewer, reg)
    rb, tb = _view_records(lb, viewer, reg)
    n = min(len(ra), len(rb))
    first = next((i for i in range(n) if json_line(ra[i]) != json_line(rb[i])), None)
    if first is None and len(ra) != len(rb):
        first = n
    reason = ""
    if first is not None:
        if first == n:
            longer = "first" if len(ra) > len(rb) else "second"
            shorter = "second" if longer == "first" else "first"
            reason = f"the {shorter} log ends after {n} events; the {longer} goes on"
        elif ra[first]["type"] != rb[first]["type"]:
            reason = f"different events: {ra[first]['type']} vs {rb[first]['type']}"
        else:
            fa, fb = ra[first]["event"], rb[first]["event"]
            diff = [k for k in fa if json_line(fa[k]) != json_line(fb.get(k))]
            what = ", ".join(diff) or ("its cause" if ra[first]["cause"] != rb[first]["cause"]
                                       else "what it shows")
            reason = f"{ra[first]['type']} differs in {what}"
    common = n if first is None else first
    line_a = ta[first] if first is not None and first < len(ta) else "(the log has ended)"
    line_b = tb[first] if first is not None and first < len(tb) else "(the log has ended)"
    at = common if first is None else first
    context = ta[max(0, at - max(0, args.context)): at] if first is not None else []
    if args.json:
        def rec(recs: list[dict[str, Any]], text: str) -> dict[str, Any] | None:
            if first is None or first >= len(recs):
                return None
            return {**recs[first], "text": text.partition(" ")[2]}
        print(json_line({"header": {k: list(v) for k, v in header.items()}, "common": common,
                          "first": first, "reason": reason, "a": rec(ra, line_a),
                          "b": rec(rb, line_b), "events": [len(ra), len(rb)]}), file=stdout())
        return 0 if first is None and not header else 1
    return _print_log_diff(args, header, common, first, reason, context, line_a, line_b,
                           (len(ra), len(rb)))


def _env_json(env: Envelope | None, text: str) -> dict[str, Any] | None:
    if env is None:
        return None
    return {**event_json(env), "text": text.partition(" ")[2]}

