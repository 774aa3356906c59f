"""``mtgk serve``: a game against the computer in the browser (the server is
:mod:`mtgk.tools.serve`)."""

from __future__ import annotations

import argparse
import secrets
import webbrowser

from mtgk.cards.decks import deck_lines
from mtgk.rules.seats import ATTACK_MULTIPLE, ATTACK_OPTIONS, MAX_PLAYERS, MIN_PLAYERS
from mtgk.tools.cli_base import Runner, UserError, game_decks
from mtgk.tools.serve import DEFAULT_PORT, OPPONENTS, game_header, make_server

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk serve``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = ("Play a whole game against computer agents in your browser: a local web "
                     "server holds the game and the page shows what your seat may see. You "
                     "play the first seat. The log is written as the game goes.")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help="the port to listen on (default: %(default)s; 0: any free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default: %(default)s, this machine only)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.add_argument("--opponent", choices=list(OPPONENTS), default="heuristic",
                   help="the agent that plays the other seats (search: the MCTS agent; "
                        "default: %(default)s)")
    p.add_argument("--seed", type=int, default=None,
                   help="game seed (default: a random one; recorded in the log)")
    p.add_argument("--log", "--out", dest="out", default="game.mtgk", metavar="PATH",
                   help="where to write the game's log, as it goes (default: %(default)s)")
    p.add_argument("--decks", "--deck", dest="decks", nargs="+", metavar="DECK",
                   help="one deck per player, dealt round the seats, as mtgk play takes them")
    p.add_argument("--players", nargs="+", metavar="N|NAME", default=None,
                   help=f"how many players ({MIN_PLAYERS} to {MAX_PLAYERS}) or their names; you are "
                   "the first")
    p.add_argument("--variant", choices=["free-for-all", "two-headed-giant"], default=None,
                   help="a multiplayer variant (two-headed-giant: you and the third seat "
                        "against the second and fourth)")
    p.add_argument("--attack", choices=list(ATTACK_OPTIONS), default=ATTACK_MULTIPLE,
                   help="a free-for-all game's attack option (as mtgk play --attack)")
    p.add_argument("--max-turns", type=int, default=None, metavar="N",
                   help="declare a draw after N turns")

    def run(args: argparse.Namespace) -> int:
        from mtgk.games.replay import DEFAULT_MAX_TURNS
        from mtgk.rules.engine import DEFAULT_MAX_EVENTS

        if not 0 <= args.port <= 65535:
            raise UserError("--port is a number from 0 to 65535")
        args.agents, args.timeout, args.max_events = None, 0, DEFAULT_MAX_EVENTS
        if args.max_turns is None:
            args.max_turns = DEFAULT_MAX_TURNS
        reg, names, decks = game_decks(args)
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        header, makers = game_header(reg, names, [deck_lines(d) for d in decks], seed, args)
        try:
            server = make_server(reg, header, makers, args.out, args.host, args.port)
        except OSError as exc:
            raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        print(f"mtgk serve: play at {server.url} (the log goes to {args.out}; Ctrl-C stops)",
              flush=True)
        if args.open:
            webbrowser.open(server.url)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
            server.games.stop()
        print(f"mtgk serve: stopped; the log is in {args.out}", flush=True)
        return 0

    return run
