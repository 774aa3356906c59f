"""The ``mtgk`` command line.

::

    mtgk play    [--seed N] [--out FILE] [--decks A [B ...]] [--agents KIND ...] [--max-turns N]
                 [--players N | --players NAME ...] [--variant two-headed-giant]
    mtgk serve   [--port N] [--host ADDR] [--open] [--decks A [B ...]] [--opponent KIND]
                 [--players ... | --variant ...] [--log PATH]   (play in the browser)
    mtgk log     FILE [--json] [--as PLAYER] [--type T ...] [--card NAME] [--player P]
                 [--turn T] [--step S] [--from N] [--to N]
    mtgk replay  FILE (--at N | --turn T [--step S]) [--as PLAYER] [--json]
    mtgk verify  FILE [--repair]
    mtgk explain FILE N [--depth D] [--as PLAYER] [--json]
    mtgk diff    FILE A B [--as PLAYER] [--json]      (two moments of one game)
    mtgk diff    FILE1 FILE2 [--context K] [--json]   (where two logs part)
    mtgk branch  FILE --at N [--choice JSON | --agent KIND] [--seed S] [--out FILE]
    mtgk upgrade OLD [--out NEW] [--agent KIND] [--seed S] [--json]
    mtgk scenario export FILE (--at N | --turn T [--step S]) [--out FILE] [--check]
    mtgk scenario ...            (the scenario runner, mtgk.scenario.runner)

A FILE (LOG) may also be ``LIBRARY:ID``, game ID of a game library (``games.db:14``); a
file that exists by that name is read as a file.

Debugging saved logs is described in docs/debugging.md.

Global options (before or after the command): ``-v`` (more diagnostics;
``-vv`` for debug), ``--log-json`` (diagnostics as JSON lines), ``--strict``
(a card set or plugin that fails to load is an error).  Results go to
standard output, diagnostics and errors to standard error.

Exit status: 0 success; 1 the check failed (``verify``), the log is damaged
(a torn tail: the readable prefix is still shown) or the engine failed; 2 bad
input (unknown options, files, decks, players, event numbers; unreadable
logs); ``verify`` also 3 (incomplete) and 4 (intact, written by other rules).

A subcommand is one function decorated with :func:`command`: it adds its
arguments to the parser it is given and returns the function that runs it.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import functools
import importlib
import io
import os
import secrets
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

import msgspec
import structlog

from mtgk.cards.catalog import remember
from mtgk.cards.decks import DeckError, builtin_decks, deck_lines, load_deck
from mtgk.cards.definitions import Registry
from mtgk.cards.errors import CardError
from mtgk.cards.loading import PluginError
from mtgk.games.replay import VerifyReport, new_header, verify
from mtgk.log.events import Envelope
from mtgk.log.logfile import (
    ForeignFileError,
    LogError,
    LogFile,
    LogHeader,
    LogWriter,
    NewerVersionError,
    event_tag,
    repair_log,
    write_jsonl,
    write_log,
)
from mtgk.rules.engine import STEPS, Game
from mtgk.rules.state import State
from mtgk.rules.visibility import visible_header
from mtgk.search import AGENTS
from mtgk.stepper import Stepper
from mtgk.tools import diag
from mtgk.tools.cli_base import (
    COMMANDS as _COMMANDS,
)
from mtgk.tools.cli_base import (
    PASSTHROUGH as _PASSTHROUGH,
)
from mtgk.tools.cli_base import (
    PEOPLE,
    Runner,
    UserError,
    command,
    void,
)
from mtgk.tools.cli_base import (
    add_game_args as _add_game_args,
)
from mtgk.tools.cli_base import (
    after_damage as _after_damage,
)
from mtgk.tools.cli_base import (
    err as _err,
)
from mtgk.tools.cli_base import (
    event_index as _event_index,
)
from mtgk.tools.cli_base import (
    event_types as _event_types,
)
from mtgk.tools.cli_base import (
    game_decks as _game_decks,
)
from mtgk.tools.cli_base import (
    import_plugins as _import_plugins,
)
from mtgk.tools.cli_base import (
    json_line as _json_line,
)
from mtgk.tools.cli_base import (
    known_event_types as _known_event_types,
)
from mtgk.tools.cli_base import (
    library_game as _library_game,
)
from mtgk.tools.cli_base import (
    load as _load,
)
from mtgk.tools.cli_base import (
    log_error_message as _log_error_message,
)
from mtgk.tools.cli_base import (
    log_stem as _log_stem,
)
from mtgk.tools.cli_base import (
    out as _out,
)
from mtgk.tools.cli_base import (
    player as _player,
)
from mtgk.tools.cli_base import (
    read as _read,
)
from mtgk.tools.cli_base import (
    registry as _registry,
)
from mtgk.tools.debug import (
    BranchError,
    BranchRefused,
    CardIndex,
    Refs,
    branch,
    diff_logs,
    diff_states,
    event_refs,
    explain,
    find_moment,
    moments,
)
from mtgk.tools.export import ExportError, check_export, export_scenario, priority_point
from mtgk.tools.installed import print_version
from mtgk.tools.render import (
    Renderer,
    clean,
    event_json,
    fold_note,
    mask_state,
    render_state,
    state_json,
)

__all__ = ["AGENTS", "UserError", "command", "main"]

log = structlog.get_logger("mtgk.tools.cli")

# --------------------------------------------------------------------------
# mtgk play


@command("play", "play one game between two decks and write its log")
def _play(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Play one game between two decks (built-in decks by name, or deck "
                     "files) with computer agents, write its event log, and print a summary. "
                     "Without --decks the first two built-in decks are used.")
    p.add_argument("--seed", type=int, default=None,
                   help="game seed (default: a random one, printed in the summary)")
    p.add_argument("--out", "-o", default="game.mtgk", metavar="FILE",
                   help="where to write the log (default: %(default)s)")
    _add_game_args(p, decks_help="one deck per player: built-in deck names or deck files, "
                                 "dealt round the seats (one deck: every player uses it)",
                   people=True)
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.sim import GameTimeout, TimeLimit
        from mtgk.tools.store import BUDGET_REASON, budget_error

        reg, names, decks = _game_decks(args)
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        given = list(args.agents or ["heuristic"])
        seats = len(args.players)
        kinds = [given[i % len(given)] for i in range(seats)]  # dealt round the seats
        agent_seeds = [seed * 2 + i for i in range(seats)]
        agents = [{**AGENTS, **PEOPLE}[k](s) for k, s in zip(kinds, agent_seeds, strict=True)]
        meta = {"agents": [{"kind": k, "seed": s} for k, s in zip(kinds, agent_seeds,
                                                                    strict=True)],
                "deck_names": names, "max_turns": args.max_turns,
                "max_events": args.max_events, **args.attack_meta}
        header = new_header(reg, args.players, [deck_lines(d) for d in decks], seed, meta=meta,
                            variant=args.variant, teams=args.teams)
        if "human" in kinds:
            return _play_human(args, reg, header, kinds, agent_seeds)
        try:
            writer = LogWriter(args.out, header)
        except OSError as exc:
            raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        game_ref: list[Game] = []
        # every event before a decision is on the file as it is asked (a killed game
        # loses at most the events since its last decision)
        agents = [Checkpointing(a, writer) for a in agents]

        def watch(game: Game) -> None:
            game_ref.append(game)
            diag.track(game)
            for env in game.log:
                writer.append(env)
            game.listeners.append(lambda env: void(limit.call(writer.append, env)))

        log.info("playing", seed=seed, decks=names, agents=kinds)
        limit = TimeLimit(args.timeout)
        try:
            with limit:  # (the stepper asks the seats' agents: mtgk.stepper)
                game = Stepper(reg, header, agents, watch=watch).game
        except GameTimeout as exc:
            _err(f"mtgk: error: {exc}; the log so far is in {args.out}")
            return 1
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - engine failures (and a card
            # calling sys.exit) are reported, the log kept
            n = len(game_ref[0].log) if game_ref else 0
            what = str(exc) if isinstance(exc, CardError) else f"{type(exc).__name__}: {exc}"
            _err(f"mtgk: error: the game stopped after {n} events: {what}")
            _err(f"mtgk: the log so far is in {args.out}")
            if args.verbose:
                traceback.print_exc(file=sys.stderr)
            return 1
        finally:
            writer.close()
        if game.log and getattr(game.log[-1].event, "reason", "") == BUDGET_REASON:
            _err(f"mtgk: error: {budget_error(len(game.log) - 1)}; the log is in {args.out}")
            return 1
        size = os.path.getsize(args.out)
        if args.json:
            print(_json_line(_summary_json(game, header, args.out, size)), file=_out())
        elif not args.quiet:
            _summary(game, header, args.out, size)
        return 0

    return run


class Checkpointing:
    """An agent that puts the log on its file before each decision it answers
    (:meth:`~mtgk.log.logfile.LogWriter.checkpoint`), then lets ``agent`` answer."""

    def __init__(self, agent: Any, writer: LogWriter) -> None:
        self.agent = agent
        self.writer = writer

    def __repr__(self) -> str:
        return f"Checkpointing({self.agent!r})"

    def decide(self, game: Game, d: Any) -> Any:
        self.writer.checkpoint()
        return self.agent.decide(game, d)

    def __getattr__(self, name: str) -> Any:  # the agent's other hooks (refused, ...)
        return getattr(self.agent, name)


def _play_human(args: argparse.Namespace, reg: Registry, header: LogHeader, kinds: list[str],
                agent_seeds: list[int]) -> int:
    """``mtgk play`` with a person at a seat (:func:`mtgk.tools.human.play`)."""
    from mtgk.tools import human

    makers = [functools.partial({**AGENTS, **PEOPLE}[k], s)
              for k, s in zip(kinds, agent_seeds, strict=True)]
    seats = [i for i, k in enumerate(kinds) if k == "human"]
    try:
        res = human.play(reg, header, makers, seats, args.out)
    except OSError as exc:
        raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    size = os.path.getsize(args.out)
    if res.quit:
        print(f"stopped: {res.header.meta['stopped']}; the log so far is in {args.out}",
              file=_out())
        return 0
    _summary(res.game, res.header, args.out, size)
    return 0


def _summary_json(game: Game, header: LogHeader, path: str, size: int) -> dict[str, Any]:
    s = game.state
    ended = next((env.event for env in reversed(game.log)
                  if env.event.TAG == "GameEnded"), None)
    won = s.winner is not None and s.winner >= 0
    return {"players": list(header.players),
            "agents": [a.get("kind") for a in header.meta.get("agents", [])],
            "decks": header.meta.get("deck_names", []), "seed": header.seed,
            "winner": s.players[s.winner].name if won and s.winner is not None else None,
            "result": "win" if won else ("draw" if ended is not None else "unfinished"),
            "reason": getattr(ended, "reason", "") if ended is not None else "",
            "turns": s.turn, "events": len(game.log), "log": path, "bytes": size,
            **({"variant": s.variant.replace("_", "-"),
                "teams": [[s.players[p].name for p in t] for t in s.teams]}
               if s.variant else {})}


def _summary(game: Game, header: LogHeader, path: str, size: int) -> None:
    s = game.state
    out = _out()
    agents = header.meta.get("agents", [])
    who = [f"{name} ({agents[i]['kind']}, {header.meta['deck_names'][i]})"
           if i < len(agents) else name for i, name in enumerate(header.players)]
    teams = header.meta.get("teams") or []
    if teams:  # Two-Headed Giant: the teams
        print(f"{' vs '.join(' & '.join(who[p] for p in t) for t in teams)}, "
              f"seed {header.seed} (Two-Headed Giant)", file=out)
    else:
        print(f"{' vs '.join(who)}, seed {header.seed}", file=out)
    if s.winner is None or s.winner < 0:
        print(f"result: a draw after {s.turn} turns", file=out)
    elif teams:
        team = next((t for t in teams if s.winner in t), [s.winner])
        print(f"winners: {' & '.join(s.players[p].name for p in team)}", file=out)
    else:
        print(f"winner: {s.players[s.winner].name}", file=out)
    n = len(game.log)
    print(f"turns: {s.turn}", file=out)
    print(f"events: {n}", file=out)
    per = size / n if n else 0.0
    print(f"log: {path} ({size} bytes, {per:.1f} bytes/event)", file=out)


# --------------------------------------------------------------------------
# mtgk log


@command("log", "print a game log, one readable line per event")
def _log(p: argparse.ArgumentParser) -> Runner:
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
        types = _event_types(args.types)
        lf = _read(args.file, salvage=True)
        envs = lf.envelopes
        viewer = _player(args.as_player, lf.header)
        who = _player(args.player, lf.header)
        n = len(envs)
        start = 0 if args.start is None else (_event_index(args.start, n, "--from") if n else 0)
        stop = n - 1 if args.stop is None else (_event_index(args.stop, n, "--to") if n else -1)
        when = _moment_filter(envs, args.turn, args.step)
        wanted = _card_filter(envs, args.cards, _seen_names(envs, viewer) if args.cards else None)
        reg = _registry(args)
        out = _out()
        plain = (types is None and viewer is None and start == 0 and stop == n - 1
                 and when is None and wanted is None and who is None)
        if args.json and plain:
            write_jsonl(out, lf.header, envs)
            return 1 if lf.torn or lf.breaks else 0
        r = Renderer(reg, viewer)
        ix = CardIndex(envs) if wanted is not None else None
        if args.json:
            print(_json_line({"header": visible_header(lf.header, viewer)}), file=out)
        for env in envs:
            seq = env.seq
            if not (start <= seq <= stop and (types is None or event_tag(env.event) in types)
                    and (when is None or when[seq])):
                r.advance(env)
                continue
            if wanted is None and who is None:
                if args.json:
                    r.advance(env)  # a viewer's record is made from the folded event
                    print(_json_line(event_json(env, r)), file=out)
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
                print(_json_line(event_json(env, r)) if args.json else text, file=out)
        if lf.breaks and not args.json:
            _show_salvaged(lf, r, types, start == 0 and stop == n - 1 and when is None
                           and wanted is None and who is None, out)
        _fold_warning(r)
        return 1 if lf.torn or lf.breaks else 0

    return run


def _list_event_types(as_json: bool) -> int:
    known = _known_event_types()
    out = _out()
    if as_json:
        for tag, module in known.items():
            print(_json_line({"type": tag, "module": module}), file=out)
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


def _fold_warning(r: Renderer) -> None:
    if r.fold_errors:
        _err(_fold_message(r.fold_errors))


def _fold_message(errors: Sequence[tuple[int, str]]) -> str:
    return f"mtgk: warning: {fold_note(errors)}"


# --------------------------------------------------------------------------
# mtgk replay


@command("replay", "show the whole game state right after an event, or as a step began")
def _replay(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Show the state of a logged game right after event N (--at), or as a "
                     "turn or one of its steps began (--turn T [--step S]): players, hands, "
                     "battlefield (each permanent's characteristics after continuous effects: "
                     "types, power/toughness, loyalty, keywords; counters, damage, "
                     "attachments), exile, the stack, pending triggers, combat, continuous "
                     "effects and the next decision.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--at", type=int, metavar="N",
                   help="the event number (negative: from the end; -1 = the last event)")
    p.add_argument("--turn", type=int, metavar="T",
                   help="the state when turn T began (with --step: when that step began)")
    p.add_argument("--step", choices=STEPS, metavar="STEP",
                   help="with --turn: the step (" + ", ".join(STEPS) + ")")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="show only what PLAYER (name or index) could see")
    p.add_argument("--json", action="store_true", help="print the state as JSON")

    def run(args: argparse.Namespace) -> int:
        lf = _read(args.file, salvage=True)
        envs = lf.envelopes
        at = _moment_arg(args, envs, broken=_broken_at(lf))
        viewer = _player(args.as_player, lf.header)
        reg = _registry(args)
        r = Renderer(reg, viewer)
        for env in envs[:at]:
            r.advance(env)
        line = r.describe(envs[at])
        r.advance(envs[at])
        _fold_warning(r)
        state = r.state
        out = _out()
        if args.json:
            print(state_json(state, viewer, r.seen), file=out)
            return 1 if lf.torn or lf.breaks else 0
        print(f"After {at} {line}", file=out)
        print(render_state(state, reg, viewer, after=envs[at + 1:], names=r.names,
                           seen=r.seen), file=out)
        return 1 if lf.torn or lf.breaks else 0

    return run


def _moment_arg(args: argparse.Namespace, envs: Sequence[Envelope], what: str = "--at",
                broken: str = "") -> int:
    """The event ``--at N`` or ``--turn T [--step S]`` designates (exactly one is needed).

    ``broken``: the log is damaged or torn after its events ``envs`` (what happened, for
    the message); a moment past them is then the damaged file's failure (exit status 1),
    not bad usage."""
    if args.turn is None and args.step is not None:
        raise UserError("--step needs --turn")
    if (args.at is None) == (args.turn is None):
        raise UserError(f"give either {what} N or --turn T [--step S]")
    if args.at is not None:
        if broken and args.at >= len(envs):
            raise UserError(f"{what} {args.at}: the log is {broken} before event {args.at}: "
                            f"only events 0 to {len(envs) - 1} are the log in sequence",
                            status=1)
        return _event_index(args.at, len(envs), what)
    try:
        return find_moment(envs, args.turn, args.step)
    except LookupError as exc:
        if broken:
            raise UserError(f"{exc} (the log is {broken} after event {len(envs) - 1}; the "
                            "moment may be in what was lost)", status=1) from None
        raise UserError(str(exc)) from None


def _broken_at(lf: LogFile) -> str:
    """How a log read with salvage stops before its end: ``damaged at record N``, ``torn``
    or ``""`` (it doesn't)."""
    if lf.breaks:
        return f"damaged at record {lf.breaks[0].record}"
    return "torn" if lf.torn else ""


# --------------------------------------------------------------------------
# mtgk verify


@command("verify", "check a log: integrity, and a re-run of the engine against it")
def _verify(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Check a game log: its integrity (checksums, sequence), then re-run the "
                     "engine from its header with the recorded decisions and compare every "
                     "event; then check that folding the log gives the engine's final state. "
                     "Scenario logs re-run from their recorded setup (their header and setup "
                     "are checked to be a scenario's).")
    p.epilog = ("exit status: 0 the log verified from its start to the game's end (or the "
                "scenario's); 3 every event verified, but the log stops before the end "
                "(INCOMPLETE: cut off, or repaired after a crash); 4 the log is intact but "
                "was written by other rules (OTHER RULES: another rules revision or card set "
                "version, and the re-run differs: `mtgk upgrade` re-plays it under these); 1 it "
                "did not verify (FAILED: damage, a torn last record, a divergence from a log "
                "claiming these very rules; NOT VERIFIED: a kind of log this kernel cannot "
                "re-run); 2 bad usage, or not a log at all.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--repair", action="store_true",
                   help="first cut a torn (crash-interrupted) last record off the file, "
                        "keeping a copy of the original as FILE.orig (never anything else: "
                        "a log damaged in the middle is left as it is)")
    p.add_argument("--json", action="store_true",
                   help='print the result as one JSON object: {"file", "result" (verified, '
                        'incomplete, other-rules, failed, not-verified), "exit", "lines"} where '
                        '"lines" are the lines printed without --json; once the log could be '
                        're-run also "written_by" and "running" (kernel, rules_revision, '
                        'cardsets), "rules_differ" and "divergence" ({"seq", "reason"})')

    def run(args: argparse.Namespace) -> int:
        if not args.json:
            return _verify_run(args, _out())
        buf = io.StringIO()
        reports: list[VerifyReport] = []
        code = _verify_run(args, buf, reports)
        lines = buf.getvalue().splitlines()
        result = {0: "verified", 3: "incomplete", 4: "other-rules"}.get(code, "failed")
        if code == 1 and any(line.startswith("NOT VERIFIED") for line in lines):
            result = "not-verified"
        obj: dict[str, Any] = {"file": args.file, "result": result, "exit": code,
                               "lines": lines}
        if reports:
            rj = reports[0].as_json()
            obj.update({k: rj[k] for k in ("written_by", "running", "rules_differ",
                                           "divergence")})
        print(_json_line(obj), file=_out())
        return code

    return run


def _verify_run(args: argparse.Namespace, out: IO[str],
                reports: list[VerifyReport] | None = None) -> int:
    """``mtgk verify``: print the report to ``out``; return the exit status (the report,
    once there is one, is appended to ``reports``)."""
    path = args.file
    if args.repair and _library_game(path) is not None:
        raise UserError(f"{path}: --repair mends a log file; a library keeps its games whole "
                        "(`mtgk db export` writes one to a file)")
    if _library_game(path) is None:
        if not os.path.exists(path):
            raise UserError(f"{path}: no such file")
        if os.path.isdir(path):
            raise UserError(f"{path} is a directory, not a log file")
    _import_plugins()
    importlib.import_module("mtgk.scenario.runner")  # it re-runs scenario logs' kinds
    if args.repair:
        try:
            repaired = repair_log(path)
        except (ForeignFileError, NewerVersionError) as exc:
            raise UserError(_log_error_message(exc, path)) from None
        except LogError as exc:
            print(f"FAILED: cannot repair: {_log_error_message(exc, path)}", file=out)
            if exc.log is not None and exc.log.breaks:
                _repair_advice(exc.log, path, out)
            return 1
        except OSError as exc:
            raise UserError(f"cannot repair {path}: {exc.strerror or exc} (the file is "
                            "unchanged)") from None
        if repaired is None:
            print("repair: nothing to do, the log has no torn tail", file=out)
        else:
            print(f"repaired: {repaired.problem}; the file now ends at byte "
                  f"{repaired.size}; the original is kept in {repaired.backup}", file=out)
    try:
        lf = _load(path, salvage=True)
    except (ForeignFileError, NewerVersionError) as exc:
        raise UserError(_log_error_message(exc, path)) from None
    except LogError as exc:
        print(f"FAILED: {_log_error_message(exc, path)}", file=out)
        return 1
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror or exc}") from None
    if lf.breaks:
        brk = lf.breaks[0]
        print(f"FAILED: {path} is damaged at byte {brk.offset}, record {brk.record}: "
              f"{brk.detail}{_after_damage(brk, path)}; nothing from record {brk.record} "
              "on is verified", file=out)
        if len(lf.breaks) > 1:
            print(f"  and damaged again at {len(lf.breaks) - 1} more place(s), the next "
                  f"at byte {lf.breaks[1].offset}", file=out)
        print(f"  `mtgk verify --repair` does not cut a log damaged in the middle; see "
              f"`mtgk log {path}` for what can be read", file=out)
        return 1
    for pr in lf.problems:
        if pr.kind != "torn":
            print(f"warning: {pr}", file=out)
    reg = _registry(args)
    report = verify(lf.header, lf.envelopes, reg)
    if reports is not None:
        reports.append(report)
    for note in report.notes:
        print(f"note: {note}", file=out)
    if report.divergence is not None and not lf.torn:
        print(report.summary(), file=out)
        if report.other_rules and report.written is not None and report.now is not None:
            print(f"  written by: {report.written.describe()}", file=out)
            print(f"  running:    {report.now.describe()}", file=out)
        _show_divergence(report.divergence, lf.envelopes, reg, out)
        if report.other_rules:
            print(f"  `mtgk upgrade {path} --out NEW` re-plays its decisions under these "
                  "rules and says where the two games part", file=out)
        return report.exit_status
    if lf.torn:
        torn = next(pr for pr in lf.problems if pr.kind == "torn")
        print(f"FAILED: {torn}", file=out)
        if report.ok:
            print(f"  the {report.events} intact events before it verify; the log stops "
                  "before the game's end", file=out)
        else:
            print(f"  the {report.events} intact events before it: {report.summary()}",
                  file=out)
        print(f"  run `mtgk verify --repair {path}` to cut the torn tail off (a copy of "
              "the file is kept)", file=out)
        return 1
    print(report.summary(), file=out)
    for text in report.problems[1:]:
        print(f"  {text}", file=out)
    return report.exit_status


def _repair_advice(lf: LogFile, path: str, out: IO[str]) -> None:
    """What a user can do with a log damaged in the middle (which repair leaves alone)."""
    brk = lf.breaks[0]
    n = lf.salvaged
    if n:
        print(f"  repair only cuts a torn tail; this damage is followed by {n} readable "
              f"record{'' if n == 1 else 's'}, and cutting the file would delete them: {path} "
              "is left unchanged", file=out)
    else:
        print(f"  repair only cuts a torn tail, what a crash leaves, and this is damage: "
              f"{path} is left unchanged", file=out)
    print(f"  you can: restore {path} from a copy; read everything that can be read with "
          f"`mtgk log {path}`; or keep the {brk.record} intact events before the damage as a "
          f"log of their own with `mtgk log {path} --json > intact.jsonl` (it verifies as "
          "far as it goes)", file=out)


def _show_divergence(div: Any, envs: list[Envelope], reg: Registry, out: IO[str]) -> None:
    r = Renderer(reg)
    for env in envs[: div.seq]:
        r.advance(env)
    log = _line(r, div.expected) if div.expected is not None else "(ends here)"
    rerun = _line(r, div.got) if div.got is not None else "(no such event)"
    if log == rerun and div.expected is not None and div.got is not None:  # causes differ
        log += f"  ({_cause_text(div.expected.cause)})"
        rerun += f"  ({_cause_text(div.got.cause)})"
    print(f"  log:    {log}", file=out)
    print(f"  re-run: {rerun}", file=out)


def _cause_text(cause: int) -> str:
    return "no cause" if cause < 0 else f"caused by event {cause}"


def _line(r: Renderer, env: Envelope) -> str:
    return f"{env.seq} {r.describe(env)}"


# --------------------------------------------------------------------------
# mtgk explain


@command("explain", "why did an event happen? its chain of causes, and its consequences")
def _explain(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Walk the cause links of event N back to the player's decision (or the "
                     "rule of the game) that started it, e.g. \"CounterRemoved ← DamageDealt ← "
                     "DamageRedirected ← SpellCast ← cast Shock targeting Bob by Alice at event "
                     "811\", listing each event readably; then list its consequences (the "
                     "events whose cause is N).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("event", type=int, metavar="N", help="the event (negative: from the end)")
    p.add_argument("--depth", type=int, default=1, metavar="D",
                   help="list consequences D levels deep (default: %(default)s)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="describe events as PLAYER (name or index) saw them")
    p.add_argument("--json", action="store_true", help="print the explanation as JSON")

    def run(args: argparse.Namespace) -> int:
        if args.depth < 0:
            raise UserError("--depth must be at least 0")
        lf = _read(args.file)
        n = _event_index(args.event, len(lf.envelopes), "event")
        viewer = _player(args.as_player, lf.header)
        reg = _registry(args)
        x = explain(lf.envelopes, n, reg, viewer, depth=args.depth)
        out = _out()
        if args.json:
            print(_json_line(x.to_json()), file=out)
        else:
            print("\n".join(clean(line) for line in x.lines()), file=out)
        if x.fold_errors:
            _err(_fold_message(x.fold_errors))
        return 1 if lf.torn else 0

    return run


# --------------------------------------------------------------------------
# mtgk diff


@command("diff", "what changed between two events of a log, or where two logs part")
def _diff(p: argparse.ArgumentParser) -> Runner:
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


@contextlib.contextmanager
def _folding() -> Iterator[None]:
    """Report a log that cannot be folded (events this kernel can't read left objects
    out) as an error (exit status 1), not a traceback."""
    try:
        yield
    except (KeyError, IndexError, ValueError, AttributeError) as exc:
        raise UserError(f"the game state cannot be computed from this log: "
                        f"{type(exc).__name__}: {exc} (does it hold events this kernel "
                        "cannot read?)", status=1) from None


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _diff_events(args: argparse.Namespace) -> int:
    if not (_is_int(args.a) and _is_int(args.b)):
        raise UserError(f"expected two event numbers, got {args.a!r} and {args.b!r}")
    lf = _read(args.file)
    envs = lf.envelopes
    a = _event_index(int(args.a), len(envs), "A")
    b = _event_index(int(args.b), len(envs), "B")
    viewer = _player(args.as_player, lf.header)
    reg = _registry(args)
    r = Renderer(None, viewer)
    states: dict[int, State] = {}
    for env in envs[: max(a, b) + 1]:
        r.advance(env)
        if env.seq in (a, b):
            states[env.seq] = mask_state(r.state, viewer, r.seen)
    _fold_warning(r)
    sa, sb = states[a], states[b]
    d = diff_states(sa, sb, reg)
    out = _out()
    if args.json:
        print(_json_line({"from": a, "to": b, **d.to_json()}), file=out)
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
    la = _read(args.file)
    lb = _read(args.a)
    reg = _registry(args)
    viewer = _player(args.as_player, la.header)
    if viewer is not None:
        _player(args.as_player, lb.header)  # the player must be in both games
        return _diff_views(args, la, lb, viewer, reg)
    d = diff_logs(la.header, la.envelopes, lb.header, lb.envelopes)
    out = _out()
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
        print(_json_line({
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
    out = _out()
    if header:
        print("headers differ:", file=out)
        for k, (va, vb) in header.items():
            print(f"  {k}: {_json_line(va)}", file=out)
            print(f"  {' ' * len(k)}  {_json_line(vb)}", file=out)
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
    first = next((i for i in range(n) if _json_line(ra[i]) != _json_line(rb[i])), None)
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
            diff = [k for k in fa if _json_line(fa[k]) != _json_line(fb.get(k))]
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
        print(_json_line({"header": {k: list(v) for k, v in header.items()}, "common": common,
                          "first": first, "reason": reason, "a": rec(ra, line_a),
                          "b": rec(rb, line_b), "events": [len(ra), len(rb)]}), file=_out())
        return 0 if first is None and not header else 1
    return _print_log_diff(args, header, common, first, reason, context, line_a, line_b,
                           (len(ra), len(rb)))


def _env_json(env: Envelope | None, text: str) -> dict[str, Any] | None:
    if env is None:
        return None
    return {**event_json(env), "text": text.partition(" ")[2]}


# --------------------------------------------------------------------------
# mtgk branch


@command("branch", "what if? replay a game to a decision, change it, and play on")
def _branch(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Start a new game from the decision at event N (a DecisionMade): the "
                     "engine re-runs the log up to it, the decision is answered with --choice "
                     "(checked by the engine like any answer: an illegal one is refused with "
                     "the rule, exit status 2) or by an --agent, and agents play on to the "
                     "end. The new log's header records meta.branched_from = {file, event, "
                     "original, choice}.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--at", type=int, required=True, metavar="N",
                   help="the decision to change (negative: from the end)")
    p.add_argument("--choice", metavar="JSON",
                   help="the new answer, as JSON in the form the log records choices (see "
                        "`mtgk log FILE --json --from N --to N`), e.g. '[\"pass\"]'")
    p.add_argument("--agent", choices=sorted(AGENTS),
                   help="who plays on (and chooses at N without --choice): one of "
                        "%(choices)s (default: the game's agents if recorded, else heuristic)")
    p.add_argument("--seed", type=int, metavar="S",
                   help="seed for the agents that play on (default: the game's seed)")
    p.add_argument("--out", "-o", metavar="FILE",
                   help="where to write the new log (default: FILE.branch-N.mtgk)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")

    def run(args: argparse.Namespace) -> int:
        choice: Any = None
        if args.choice is not None:
            try:
                choice = msgspec.json.decode(args.choice)
            except msgspec.DecodeError as exc:
                raise UserError(f"--choice is not valid JSON ({exc}): write it as the log "
                                "records choices, e.g. '[\"pass\"]' or "
                                "'[\"cast\", 57, [-2], [], 0, \"\"]'") from None
        lf = _read(args.file)
        envs = lf.envelopes
        at = _event_index(args.at, len(envs))
        reg = _registry(args)
        header = lf.header
        recorded = [a.get("kind") for a in header.meta.get("agents", [])
                    if isinstance(a, dict)]
        seats = max(2, len(header.players))  # (one agent per player)
        kinds = [args.agent] * seats if args.agent else (
            [k if k in AGENTS else "heuristic" for k in recorded] if len(recorded) == seats
            else ["heuristic"] * seats)
        seed = header.seed if args.seed is None else args.seed
        seeds = [seed * 2 + i for i in range(seats)]
        agents = [AGENTS[k](s) for k, s in zip(kinds, seeds, strict=True)]
        outp = args.out or _branch_name(args.file, at)
        meta = {"agents": [{"kind": k, "seed": s} for k, s in zip(kinds, seeds, strict=True)]}
        kwargs: dict[str, Any] = {} if args.choice is None else {"choice": choice}
        made: list[Game] = []
        try:
            res = branch(reg, header, envs, at, agents=agents, meta=meta,
                         watch=made.append, **kwargs)
        except BranchRefused as exc:
            raise UserError(f"event {at}: {exc}") from None
        except BranchError as exc:
            raise UserError(str(exc)) from None
        except DeckError as exc:  # a card of the header's decks no installed set has
            raise UserError(f"{args.file}: bad deck in the header: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - an engine failure after the branch point
            if made and len(made[0].log) > at:
                write_log(outp, header, made[0].log)
                _err(f"mtgk: error: the engine failed after {len(made[0].log)} events: "
                     f"{type(exc).__name__}: {exc}")
                _err(f"mtgk: the log so far is in {outp}")
                return 1
            raise
        res.header.meta["branched_from"]["file"] = args.file
        try:
            size = write_log(outp, res.header, res.game.log)
        except OSError as exc:
            raise UserError(f"cannot write {outp}: {exc.strerror or exc}") from None
        if args.json:
            s = res.game.state
            print(_json_line({"file": args.file, "event": at, "kind": res.kind,
                              "player": res.player, "original": res.original,
                              "choice": res.choice,
                              "agents": res.header.meta["agents"],
                              "winner": s.winner, "over": s.over, "turns": s.turn,
                              "events": len(res.game.log), "log": outp, "bytes": size}),
                  file=_out())
        elif not args.quiet:
            _branch_summary(res, args.file, outp, size, kinds, seeds, reg, envs)
        return 0

    return run


def _branch_name(path: str, at: int) -> str:
    if _library_game(path) is not None:
        return f"{_log_stem(path)}.branch-{at}.mtgk"
    base, ext = os.path.splitext(path)
    return f"{base}.branch-{at}{ext or '.mtgk'}"


def _branch_summary(res: Any, src: str, path: str, size: int, kinds: list[str],
                    seeds: list[int], reg: Registry, envs: Sequence[Envelope]) -> None:
    out = _out()
    r = Renderer(reg)
    for env in envs[: res.at]:
        r.advance(env)
    who = r.player(res.player)
    print(f"branched from {src} at event {res.at}: {who}'s {res.kind} decision", file=out)
    print(f"  original: {r.choice(res.kind, res.original)}  {_json_line(res.original)}", file=out)
    print(f"  new:      {r.choice(res.kind, res.choice)}  {_json_line(res.choice)}", file=out)
    print(f"played on by {kinds[0]} (seed {seeds[0]}) and {kinds[1]} (seed {seeds[1]}) agents",
          file=out)
    s = res.game.state
    if s.winner is None or s.winner < 0:
        print(f"result: {'a draw' if s.over else 'unfinished'} after {s.turn} turns", file=out)
    else:
        print(f"winner: {s.players[s.winner].name}", file=out)
    n = len(res.game.log)
    print(f"events: {n} ({res.at} replayed, {n - res.at} new)", file=out)
    print(f"log: {path} ({size} bytes)", file=out)


# --------------------------------------------------------------------------
# mtgk upgrade


@command("upgrade", "re-run an old log's decisions under today's rules and write a new "
         "log, saying where the two games part")
def _upgrade(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Re-run the game of an old log (written by other rules: another rules "
                     "revision or card set version, see `mtgk verify`) under the rules "
                     "running now, answering every decision with the old log's, in order, "
                     "and write the new game's log. Where a recorded decision no longer "
                     "applies (the engine asks someone else, or for something else, or "
                     "refuses the recorded answer), agents play on, as `mtgk branch` does; a "
                     "scenario's log stops where its decisions end. Prints where the two "
                     "games' events first differ and which decisions no longer applied. The "
                     "new log's header records meta.upgraded_from.")
    p.add_argument("file", metavar="OLD")
    p.add_argument("--out", "-o", metavar="NEW",
                   help="where to write the new log (default: OLD.upgraded.mtgk)")
    p.add_argument("--agent", choices=sorted(AGENTS),
                   help="who plays on once a recorded decision no longer applies: one of "
                        "%(choices)s (default: the game's agents if recorded, else heuristic)")
    p.add_argument("--seed", type=int, metavar="S",
                   help="seed for the agents that play on (default: the game's seed)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.upgrade import UpgradeError, upgrade

        lf = _read(args.file)
        envs = lf.envelopes
        reg = _registry(args)
        header = lf.header
        recorded = [a.get("kind") for a in header.meta.get("agents", [])
                    if isinstance(a, dict)]
        seats = max(2, len(header.players))
        kinds = [args.agent] * seats if args.agent else (
            [k if k in AGENTS else "heuristic" for k in recorded] if len(recorded) == seats
            else ["heuristic"] * seats)
        seed = header.seed if args.seed is None else args.seed
        seeds = [seed * 2 + i for i in range(seats)]
        agents = [AGENTS[k](s) for k, s in zip(kinds, seeds, strict=True)]
        outp = args.out or _upgrade_name(args.file)
        try:
            res = upgrade(reg, header, envs, agents=agents)
        except UpgradeError as exc:
            raise UserError(f"{args.file}: {exc}") from None
        except DeckError as exc:
            raise UserError(f"{args.file}: bad deck in the header: {exc}") from None
        res.header.meta["upgraded_from"]["file"] = args.file
        try:
            size = write_log(outp, res.header, res.game.log)
        except OSError as exc:
            raise UserError(f"cannot write {outp}: {exc.strerror or exc}") from None
        new = res.game.log
        if args.json:
            div = res.divergence
            drop = res.dropped
            print(_json_line({
                "file": args.file, "log": outp, "bytes": size,
                "written_by": res.written.as_json(), "running": res.now.as_json(),
                "first_difference": None if div is None else {"seq": div.seq,
                                                              "reason": div.reason},
                "decisions": res.recorded, "applied": res.applied,
                "dropped": None if drop is None else {"event": drop.seq, "at": drop.at,
                                                      "why": drop.why},
                "events": len(new), "old_events": len(envs),
                "winner": res.game.state.winner}), file=_out())
        elif not args.quiet:
            _upgrade_summary(res, args.file, outp, size, kinds, seeds, reg, envs)
        return 0

    return run


def _upgrade_name(path: str) -> str:
    if _library_game(path) is not None:
        return f"{_log_stem(path)}.upgraded.mtgk"
    base, _ = os.path.splitext(path)
    return f"{base}.upgraded.mtgk"


def _upgrade_summary(res: Any, src: str, path: str, size: int, kinds: list[str],
                     seeds: list[int], reg: Registry, old: Sequence[Envelope]) -> None:
    out = _out()
    new = res.game.log
    print(f"upgraded {src} to the rules running now", file=out)
    print(f"  written by: {res.written.describe()}", file=out)
    print(f"  running:    {res.now.describe()}", file=out)
    div = res.divergence
    if div is None:
        print(f"the two games are the same: all {len(new)} events", file=out)
    else:
        print(f"the two games first differ at event {div.seq}: {div.reason}", file=out)
        ro, rn = Renderer(reg), Renderer(reg)
        for env in old[: div.seq]:
            ro.advance(env)
        for env in new[: div.seq]:
            rn.advance(env)
        o = _line(ro, old[div.seq]) if div.seq < len(old) else "(ends here)"
        n = _line(rn, new[div.seq]) if div.seq < len(new) else "(ends here)"
        if o == n:
            o += f"  ({_cause_text(old[div.seq].cause)})"
            n += f"  ({_cause_text(new[div.seq].cause)})"
        print(f"  old: {o}", file=out)
        print(f"  new: {n}", file=out)
    drop = res.dropped
    if drop is None:
        print(f"decisions: all {res.recorded} recorded decisions apply", file=out)
    else:
        where = ("after the old log's last one" if drop.seq < 0 else
                 f"the one at event {drop.seq} of the old log no longer does")
        print(f"decisions: {res.applied} of {res.recorded} recorded decisions apply; {where}: "
              f"{drop.why}", file=out)
        who = ", ".join(f"{k} (seed {s})" for k, s in zip(kinds, seeds, strict=True))
        print(f"  from event {drop.at} of the new game, agents played on: {who}", file=out)
    s = res.game.state
    if s.winner is None or s.winner < 0:
        print(f"result: {'a draw' if s.over else 'unfinished'} after {s.turn} turns", file=out)
    else:
        print(f"winner: {s.players[s.winner].name}", file=out)
    print(f"events: {len(new)} (the old log has {len(old)})", file=out)
    print(f"log: {path} ({size} bytes)", file=out)


# --------------------------------------------------------------------------
# mtgk scenario (implemented by mtgk.scenario.runner) and mtgk scenario export


@command("scenario", "run rules scenario files, or export a position from a log as one "
         "(`mtgk scenario export --help`)", common=False)
def _scenario(p: argparse.ArgumentParser) -> Runner:
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the scenario runner")

    def run(args: argparse.Namespace) -> int:
        return _run_scenario(list(args.args), [])

    return run


def _run_scenario(argv: list[str], glob: list[str]) -> int:
    if argv[:1] == ["export"]:
        return _scenario_export(glob + argv[1:])
    argv = glob + argv
    try:
        mod = importlib.import_module("mtgk.scenario.runner")
    except ModuleNotFoundError as exc:
        if exc.name in ("mtgk.scenario.runner", "mtgk.scenario"):
            raise UserError("the scenario runner (mtgk.scenario.runner) is not installed in "
                            "this version of mtgk") from None
        raise
    fn = getattr(mod, "cli_main", None)
    if fn is None:
        raise UserError("mtgk.scenario.runner has no cli_main(args) entry point")
    return int(fn(argv) or 0)


_PASSTHROUGH["scenario"] = _run_scenario


@command("campaign", "random games over the whole card pool, each checked (validated mode, "
         "fold, verify, trigger causes)", common=False)
def _campaign(p: argparse.ArgumentParser) -> Runner:
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for mtgk.tools.campaign")

    def run(args: argparse.Namespace) -> int:
        return _run_campaign(list(args.args), [])

    return run


def _run_campaign(argv: list[str], glob: list[str]) -> int:
    from mtgk.tools.campaign import main as campaign_main
    return campaign_main(glob + argv)


_PASSTHROUGH["campaign"] = _run_campaign


def _export_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mtgk scenario export",
        description="Write a rules scenario (docs/scenarios.md) that sets up the "
                    "position of a logged game right after event N (--at), or in a step "
                    "once its beginning is done, as its first player gets priority "
                    "(--turn T --step S): life totals, every zone in order with an "
                    "alias CARD#ID for each object, counters, tapped, summoning sickness, "
                    "tokens, attachments, face-down and exiled-with links, turn, active "
                    "player and step. The stack must be empty and no triggered ability "
                    "pending. What the format can't express is reported (stderr and the "
                    "file's header comment). Add actions and expectations to make it a "
                    "regression test.")
    p.add_argument("file", metavar="LOG")
    p.add_argument("--at", type=int, metavar="N", help="the event (negative: from the end)")
    p.add_argument("--turn", type=int, metavar="T",
                   help="in turn T (or its --step) once its beginning is done")
    p.add_argument("--step", choices=STEPS, metavar="STEP",
                   help="with --turn: the step (" + ", ".join(STEPS) + ")")
    p.add_argument("--out", "-o", metavar="FILE",
                   help="write the scenario here (default: standard output)")
    p.add_argument("--name", help="the scenario's name (default: LOG-event-N)")
    p.add_argument("--check", action="store_true",
                   help="then prove it: run the exported setup with the game's recorded "
                        "decisions and compare the events with the log's (exit 1 if they "
                        "differ)")
    _add_common(p, suppress=False)
    return p


def _scenario_export(argv: list[str]) -> int:
    p = _export_parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    _configure(args)
    lf = _read(args.file)
    envs = lf.envelopes
    at = _moment_arg(args, envs)
    if args.turn is not None:
        # where a scenario starting in the step begins: its beginning past, priority next
        at = priority_point(envs, at)
    reg = _registry(args)
    try:
        with _folding():
            x = export_scenario(lf.header, envs, at, reg, name=args.name, source=args.file)
    except ExportError as exc:
        raise UserError(str(exc)) from None
    for w in x.warnings:
        _err(f"mtgk: warning: not exported: {w}")
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as fp:
                fp.write(x.text)
        except OSError as exc:
            raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        _err(f"mtgk: wrote {args.out} (scenario {x.name!r}, {len(x.created)} objects)")
    else:
        _out().write(x.text)
    if args.check:
        result = check_export(x, lf.header, envs, reg)
        _err(f"mtgk: check: {result.summary()}")
        return 0 if result.ok else 1
    return 1 if lf.torn else 0


# --------------------------------------------------------------------------
# mtgk bench playouts


@command("bench", "benchmarks (reported, not gated): `mtgk bench playouts --games N --seed S`, "
                  "`mtgk bench forks --games N --seed S`")
def _bench(p: argparse.ArgumentParser) -> Runner:
    p.add_argument("what", choices=["playouts", "forks"],
                   help="which benchmark: random playouts of one deck; or forks of games of "
                   "the first two built-in decks (or --decks) at decisions spread over "
                   "each game, each checked against the original played on")
    p.add_argument("--decks", nargs=2, metavar="DECK",
                   help="forks: the two decks (built-in names or deck files; default: "
                   "--deck for both, else the first two built-in decks)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--deck", help="deck file or built-in deck name, used by both players "
                   "(playouts' default: bench/decks/ogres.txt's 17 Mountain + 23 Gray Ogre)")
    p.add_argument("--max-turns", type=int, default=200, help="a game stops as a draw after "
                   "this many turns (default 200)")
    p.add_argument("--progress", action="store_true", help="print progress while playing")
    p.add_argument("--skip-trivial", action="store_true",
                   help="a player who may only pass passes without being asked (not counted "
                   "as a decision), like managym's skip_trivial")
    p.add_argument("--json", action="store_true",
                   help="print the figures as one JSON object instead of the two lines")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.bench import forks, playouts
        if args.games < 1:
            raise UserError("--games must be at least 1")
        reg = _registry(args)
        if args.what == "forks":
            try:
                names = args.decks or ([args.deck] * 2 if args.deck else
                                       list(builtin_decks(reg))[:2])
                decks = [load_deck(n, reg) for n in names]
            except DeckError as exc:
                raise UserError(str(exc)) from None
            f = forks(reg, decks, args.games, seed=args.seed, max_turns=args.max_turns,
                      progress=args.progress)
            if args.json:
                print(_json_line({"forks": f.forks, "exact": f.exact,
                                  "median_us": round(f.median_us()),
                                  "p99_us": round(f.p99_us()), "events_max": f.events_max}),
                      file=_out())
                return 0 if f.exact == f.forks else 1
            print(f.line(), file=_out())
            return 0 if f.exact == f.forks else 1
        if args.deck:
            try:
                deck = load_deck(args.deck, reg)
            except DeckError as exc:
                raise UserError(str(exc)) from None
        else:
            deck = ["Mountain"] * 17 + ["Gray Ogre"] * 23
        r = playouts(reg, deck, args.games, seed=args.seed, max_turns=args.max_turns,
                     progress=args.progress, skip_trivial=args.skip_trivial)
        if args.json:
            print(_json_line({"games": r.games, "decisions": r.decisions, "events": r.events,
                              "seconds": round(r.seconds, 3),
                              "games_per_second": round(r.games / r.seconds, 1)}), file=_out())
            return 0
        print(f"{r.games / r.seconds:.1f} games/s, {r.decisions / r.seconds:.0f} decisions/s, "
              f"{r.events / r.seconds:.0f} events/s", file=_out())
        print(r.line(), file=_out())
        return 0

    return run


from mtgk.tools import cli_view  # noqa: E402, F401, I001 - registers view, sim and db
from mtgk.tools import cli_cards  # noqa: E402, F401, I001 - registers sets and cards
from mtgk.tools import serve  # noqa: E402, F401, I001 - registers serve

# --------------------------------------------------------------------------
# the parser and main


def _add_common(p: argparse.ArgumentParser, suppress: bool) -> None:
    diag.add_common_options(p, suppress)


def build_parser() -> argparse.ArgumentParser:
    """The ``mtgk`` argument parser, with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="mtgk", description="mtgk: an event-sourced rules kernel for Magic: The Gathering")
    _add_common(parser, suppress=False)
    parser.add_argument("--version", action="store_true",
                        help="print the kernel's version and the installed card sets and "
                             "plugins with their versions, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text, setup, common in _COMMANDS:
        sp = sub.add_parser(name, help=help_text, description=help_text,
                            add_help=common)
        if common:
            _add_common(sp, suppress=True)
        sp.set_defaults(_run=setup(sp))
    return parser


_GLOBAL_FLAGS = ("--log-json", "--strict", "--verbose", "--version")


def _split_global(argv: list[str]) -> tuple[list[str], list[str]]:
    """Leading global options, and the rest (starting with the command)."""
    i = 0
    while i < len(argv) and (argv[i] in _GLOBAL_FLAGS or
                             (argv[i].startswith("-v") and set(argv[i][1:]) == {"v"})):
        i += 1
    return argv[:i], argv[i:]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mtgk`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    glob, rest = _split_global(args_list)
    parser = build_parser()
    try:
        if rest and rest[0] in _PASSTHROUGH and "--version" not in glob:
            args = parser.parse_args(glob)
            _configure(args)
            # the global options go on to the passed-through command, which takes them too
            # (so `mtgk --strict scenario X` and `mtgk scenario --strict X` are the same)
            pass_on = [a for a in glob if a != "--version"]
            return _guard(lambda: _PASSTHROUGH[rest[0]](rest[1:], pass_on), args)
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
    _configure(args)
    if getattr(args, "version", False):
        return _guard(lambda: _print_version(args), args)
    run: Runner | None = getattr(args, "_run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    return _guard(lambda: run(args), args)


def _configure(args: argparse.Namespace) -> None:
    diag.configure(verbosity=int(getattr(args, "verbose", 0) or 0),
                   json=bool(getattr(args, "log_json", False)))


def _print_version(args: argparse.Namespace) -> int:
    """``mtgk --version``: the kernel, then every card set and plugin with its version
    (:func:`mtgk.tools.installed.print_version`, of the sets just loaded)."""
    return print_version(remember(_registry(args)), _out())


def _guard(fn: Callable[[], int], args: argparse.Namespace) -> int:
    try:
        return fn()
    except UserError as exc:
        _err(f"mtgk: error: {exc}")
        return exc.status
    except PluginError as exc:  # --strict: a card set or plugin failed to load
        _err(f"mtgk: error: {exc}")
        return 2
    except CardError as exc:  # a card's own code failed: name the card, not the engine
        _err(f"mtgk: error: {exc}" +
             ("" if getattr(args, "verbose", 0) else " (run with -v to see the traceback)"))
        if getattr(args, "verbose", 0):
            traceback.print_exception(exc.error, file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. `mtgk log game.mtgk | head`
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        _err("mtgk: interrupted")
        return 130
    except Exception as exc:  # noqa: BLE001 - no traceback reaches a user unless asked for
        _err(f"mtgk: error: internal error: {type(exc).__name__}: {exc}" +
             ("" if getattr(args, "verbose", 0) else " (run with -v to see the traceback)"))
        if getattr(args, "verbose", 0):
            traceback.print_exc(file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
