"""``mtgk log``: a game log, one readable line per event, filtered."""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Sequence
from typing import IO, Any

from mtgk.log.events import Envelope
from mtgk.log.logfile import LogFile, event_tag, write_jsonl
from mtgk.render import Renderer, event_json
from mtgk.rules.engine import STEPS
from mtgk.rules.visibility import visible_header
from mtgk.tools.cli_base import (
    Runner,
    UserError,
    event_index,
    event_types,
    fold_warning,
    json_line,
    known_event_types,
    player,
    read,
    registry,
    stdout,
)
from mtgk.tools.debug import CardIndex, Refs, event_refs, moments

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk log``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = ("Print a log file (binary .mtgk or JSON Lines) one readable line per "
                     "event, or as JSON Lines with --json. Filters combine (an event must pass "
                     "all of them). A torn (cut-off) file is reported and its intact prefix "
                     "printed (exit status 1).")
    p.add_argument("file", metavar="FILE", nargs="?")
    p.add_argument("--types", dest="list_types", action="store_true",
                   help="list every event type (the kernel's, the card sets' and the "
                        "plugins') with the module that defines it, and exit")
    p.add_argument("--json", action="store_true",
                   help="write JSON Lines (a header line, then one line per event)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="show only what PLAYER (name or index) could see: the other hand, "
                        "library contents and order and face-down cards are masked, the "
                        "seed and the other decks left out")
    p.add_argument("--type", dest="types", action="extend", nargs="+", metavar="T",
                   help="only events of these types (e.g. DamageDealt SpellCast)")
    p.add_argument("--card", dest="cards", action="append", metavar="NAME",
                   help="only events involving a card of that name, followed across zone "
                        "changes (abilities count as their source); repeatable")
    p.add_argument("--player", metavar="PLAYER",
                   help="only events involving PLAYER: naming them, their decisions, and "
                        "events about objects they control")
    p.add_argument("--turn", type=int, metavar="T", help="only events of turn T")
    p.add_argument("--step", choices=STEPS, metavar="STEP",
                   help="only events of that step (with --turn: of that turn); one of "
                        + ", ".join(STEPS))
    p.add_argument("--from", dest="start", type=int, metavar="N",
                   help="first event to show (negative: from the end)")
    p.add_argument("--to", dest="stop", type=int, metavar="N",
                   help="last event to show (negative: from the end)")

    def run(args: argparse.Namespace) -> int:
        if args.list_types:
            return _list_event_types(args.json)
        if args.file is None:
            raise UserError("mtgk log: a log FILE is required (or --types)")
        types = event_types(args.types)
        lf = read(args.file, salvage=True)
        envs = lf.envelopes
        viewer = player(args.as_player, lf.header)
        who = player(args.player, lf.header)
        n = len(envs)
        start = 0 if args.start is None else (event_index(args.start, n, "--from") if n else 0)
        stop = n - 1 if args.stop is None else (event_index(args.stop, n, "--to") if n else -1)
        when = _moment_filter(envs, args.turn, args.step)
        wanted = _card_filter(envs, args.cards, _seen_names(envs, viewer) if args.cards else None)
        reg = registry(args)
        out = stdout()
        plain = (types is None and viewer is None and start == 0 and stop == n - 1
                 and when is None and wanted is None and who is None)
        if args.json and plain:
            write_jsonl(out, lf.header, envs)
            return 1 if lf.torn or lf.breaks else 0
        r = Renderer(reg, viewer)
        ix = CardIndex(envs) if wanted is not None else None
        if args.json:
            print(json_line({"header": visible_header(lf.header, viewer)}), file=out)
        for env in envs:
            seq = env.seq
            if not (start <= seq <= stop and (types is None or event_tag(env.event) in types)
                    and (when is None or when[seq])):
                r.advance(env)
                continue
            if wanted is None and who is None:
                if args.json:
                    r.advance(env)  # a viewer's record is made from the folded event
                    print(json_line(event_json(env, r)), file=out)
                else:
                    print(r.render(env), file=out)
                continue
            refs = event_refs(env.event)
            text = "" if args.json else f"{seq} {r.describe(env)}"
            hit_card = wanted is None or _involves_card(r, refs, wanted, ix, env.event)
            hit_player = who is None or _involves_player(r, refs, who, env.event)
            r.advance(env)
            hit_card = hit_card or (wanted is not None and _involves_card(r, refs, wanted, ix))
            hit_player = hit_player or (who is not None
                                        and _involves_player(r, refs, who, env.event))
            if hit_card and hit_player:
                print(json_line(event_json(env, r)) if args.json else text, file=out)
        if lf.breaks and not args.json:
            _show_salvaged(lf, r, types, start == 0 and stop == n - 1 and when is None
                           and wanted is None and who is None, out)
        fold_warning(r)
        return 1 if lf.torn or lf.breaks else 0

    return run


def _list_event_types(as_json: bool) -> int:
    known = known_event_types()
    out = stdout()
    if as_json:
        for tag, module in known.items():
            print(json_line({"type": tag, "module": module}), file=out)
        return 0
    width = max(map(len, known))
    for tag, module in known.items():
        print(f"{tag:<{width}}  {module}", file=out)
    return 0


def _moment_filter(envs: Sequence[Envelope], turn: int | None, step: str | None
                   ) -> list[bool] | None:
    """For each event, whether it is in turn ``turn`` (and step ``step``)."""
    if turn is None and step is None:
        return None
    ms = moments(envs)
    if turn is not None and not any(m.turn == turn for m in ms):
        turns = sorted({m.turn for m in ms if m.turn})
        have = f"turns {turns[0]} to {turns[-1]}" if turns else "no turns"
        raise UserError(f"--turn {turn}: the log has {have}")
    return [(turn is None or m.turn == turn) and (step is None or m.step == step) for m in ms]


def _seen_names(envs: Sequence[Envelope], viewer: int | None) -> list[str] | None:
    """Every card name ``viewer`` is shown in the log (``None`` for everyone's view)."""
    if viewer is None:
        return None
    r = Renderer(None, viewer)
    for env in envs:
        r.advance(env)
    return sorted(r.seen.names)


def _card_filter(envs: Sequence[Envelope], names: Sequence[str] | None,
                 seen: Sequence[str] | None = None) -> set[int] | None:
    """The card ids of the cards named (``--card``), or ``None`` for no filter.

    ``seen`` (for a perspective view) is every card name the viewer is shown: a name
    outside it is not in the log as far as the viewer can tell, and gets the same
    answer as a name that is in no event at all (the suggestions come from ``seen``).
    """
    if not names:
        return None
    ix = CardIndex(envs)
    shown = None if seen is None else {n.casefold() for n in seen}
    wanted: set[int] = set()
    for name in names:
        found = ix.matching(name) if shown is None or name.casefold() in shown else set()
        if not found:
            if seen is None:
                close = ix.suggest(name)
            else:
                folded = {n.casefold(): n for n in seen}
                close = [folded[c] for c in difflib.get_close_matches(
                    name.casefold(), list(folded), n=3, cutoff=0.6)]
            hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
            raise UserError(f"--card: no card named {name!r} appears in this log{hint}")
        wanted |= found
    return wanted


def _involves_card(r: Renderer, refs: Refs, wanted: set[int], ix: CardIndex | None,
                   e: Any = None) -> bool:
    """Whether the event ``e`` names an object of a wanted card that the viewer can see
    (in the renderer's current state: call before and after folding the event), or
    that the event names to them (a card played, cast, discarded ...)."""
    assert ix is not None
    public = r.named_by(e) if e is not None and r.viewer is not None else set()
    for oid in refs.objects:
        if ix.card_of(oid) not in wanted:
            continue
        if r.viewer is None:
            return True
        o = r.state.objects.get(oid)
        if o is None:
            if any(it.id == oid for it in r.state.stack + r.state.pending):
                return True  # an ability on the stack: public
            continue
        if r.sees(o) or oid in public:
            return True
    return False


def _involves_player(r: Renderer, refs: Refs, who: int, e: Any) -> bool:
    """Whether the event names player ``who`` or an object ``who`` controls."""
    if who in refs.players:
        return True
    s = r.state
    for oid in refs.objects:
        o = s.objects.get(oid)
        if o is not None and o.controller == who:
            return True
        for it in s.stack + s.pending:
            if it.id == oid and it.controller == who:
                return True
    return False


def _show_salvaged(lf: LogFile, r: Renderer, types: set[str] | None, show: bool,
                   out: IO[str]) -> None:
    """After the intact events of a damaged log: each break, and (if ``show``: no filter
    but ``--type``/``--as``) the records read after it, numbered ``~N`` when the number
    is a guess.  They are folded only to name things; no state is computed from them."""
    for brk in lf.breaks:
        n = len(brk.envelopes)
        print(f"--- damaged: {brk}; the log is broken here; {n} record"
              f"{'' if n == 1 else 's'} read after it"
              + (f", numbered as if {brk.record} were the only record lost" if not brk.exact
                 else "") + (" ---" if show or not n else
                             " (not shown with these filters) ---"), file=out)
        for env in brk.envelopes if show else ():
            if types is None or event_tag(env.event) in types:
                print(f"{'' if brk.exact else '~'}{r.render(env)}", file=out)
            else:
                r.advance(env)


