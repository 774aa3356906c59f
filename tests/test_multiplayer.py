"""Games of three and four players: free-for-all and Two-Headed Giant (issue 16).

Whole games played by the random and heuristic agents in every seat must end, verify
(the engine re-run on the log's decisions gives the same events) and fold to the live
state; the header says the variant and the teams; a two-player header stays as it was.
The rules of each variant are tested one by one by the scenarios in
``tests/scenarios/multiplayer/`` (docs/multiplayer.md lists them)."""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import SetupError, header_variant, new_header, run_from_header, verify
from mtgk.log import events as ev
from mtgk.log.logfile import decode_log, encode_log
from mtgk.rules.engine import Decision, Game, GameOver
from mtgk.rules.seats import next_priority, next_turn, opponents_of, teammates, turn_order_from
from mtgk.rules.state import apply, encode_state, fold, new_state

REG = load_registry()
CARDS = [load_deck(n, REG) for n in [k for k in builtin_decks(REG) if "/" not in k][:2]]
DECKS = [deck_lines(d) for d in CARDS]

THG = "two_headed_giant"
TEAMS = ((0, 2), (1, 3))


def play(n: int, seed: int, agent: type = RandomAgent, variant: str = "",
         teams: tuple[tuple[int, ...], ...] = ()) -> tuple[object, Game]:
    h = new_header(REG, [f"p{i}" for i in range(n)], [DECKS[i % 2] for i in range(n)], seed,
                   variant=variant, teams=teams)
    return h, run_from_header(REG, h, [agent(seed * 10 + i) for i in range(n)])


@pytest.mark.parametrize("n,variant,teams", [(3, "", ()), (4, "", ()), (4, THG, TEAMS)])
@pytest.mark.parametrize("agent", [RandomAgent, HeuristicAgent])
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games_end_verify_and_fold(n: int, variant: str, teams: tuple[tuple[int, ...], ...],
                                         agent: type, seed: int) -> None:
    header, game = play(n, seed, agent, variant, teams)
    s = game.state
    assert s.over and game.log[-1].event.TAG == "GameEnded"
    data = encode_log(header, game.log)  # (the log file, read back)
    log = decode_log(data)
    assert [e.event for e in log.envelopes] == [e.event for e in game.log]
    report = verify(log.header, log.envelopes, REG)
    assert report.ok, report
    assert encode_state(fold(list(game.log))) == encode_state(s)
    if variant == THG:
        assert s.teams == [[0, 2], [1, 3]]
        assert all(s.players[a].life == s.players[b].life for a, b in s.teams)
        winners = [t for t in s.teams if not any(s.players[p].lost for p in t)]
        assert len(winners) == 1 and s.winner == winners[0][0]
    else:
        assert sum(not p.lost for p in s.players) == 1 and not s.players[s.winner].lost


def test_headers_say_variant_and_teams_and_two_player_headers_do_not() -> None:
    h4 = new_header(REG, ["a", "b", "c", "d"], [DECKS[0]] * 4, 1, variant=THG, teams=TEAMS)
    assert h4.meta["variant"] == THG and h4.meta["teams"] == [[0, 2], [1, 3]]
    assert ("GameVariant", 1) in h4.events
    assert header_variant(h4) == (THG, [[0, 2], [1, 3]])
    h3 = new_header(REG, ["a", "b", "c"], [DECKS[0]] * 3, 1)
    assert h3.meta["variant"] == "free_for_all" and "teams" not in h3.meta
    h2 = new_header(REG, ["a", "b"], [DECKS[0]] * 2, 1)
    assert "variant" not in h2.meta and "GameVariant" not in dict(h2.events)
    game = Game(REG, ["a", "b"], seed=1)
    assert [type(e.event) for e in game.log] == [ev.GameStarted]  # no GameVariant


@pytest.mark.parametrize("players,variant,teams", [
    (["a"], "", ()), (["a", "b", "c", "d", "e"], "", ()), (["a", "b", "c"], THG, ((0, 1), (2,))),
    (["a", "b", "c", "d"], THG, ((0, 1), (1, 3))), (["a", "b", "c", "d"], "emperor", ()),
    (["a", "b", "c"], "", ((0, 1), (2,)))])
def test_games_the_kernel_cannot_play_are_refused(players: list[str], variant: str,
                                                  teams: tuple[tuple[int, ...], ...]) -> None:
    with pytest.raises(ValueError):
        new_header(REG, players, [DECKS[0]] * len(players), 1, variant=variant, teams=teams)
    with pytest.raises(ValueError):
        Game(REG, players, seed=1, variant=variant, teams=teams)


def test_a_header_with_a_bad_variant_is_a_setup_error() -> None:
    h = new_header(REG, ["a", "b", "c"], [DECKS[0]] * 3, 1)
    h.meta["variant"] = "emperor"
    with pytest.raises(SetupError, match="emperor"):
        run_from_header(REG, h)


def test_turn_and_priority_order_opponents_and_teammates() -> None:
    s = Game(REG, ["a", "b", "c", "d"], seed=1).state
    assert [next_turn(s, p) for p in range(4)] == [1, 2, 3, 0]
    assert opponents_of(s, 1) == [2, 3, 0] and teammates(s, 1) == []
    s.active = 2
    assert [next_priority(s, p) for p in range(4)] == [1, 2, 3, 0]
    s.players[3].lost = True  # a player who left: no turn, no priority, not an opponent
    assert next_turn(s, 2) == 0 and next_priority(s, 2) == 0 and opponents_of(s, 0) == [1, 2]
    t = Game(REG, ["a", "b", "c", "d"], seed=1, variant=THG, teams=TEAMS).state
    assert [p.life for p in t.players] == [30, 30, 30, 30]  # CR 810.9
    assert next_turn(t, 0) == 1 and next_turn(t, 1) == 0  # teams take turns
    assert turn_order_from(t, 0) == [0, 2, 1, 3]  # the active team's players, in their order
    assert opponents_of(t, 2) == [1, 3] and teammates(t, 2) == [0]
    two = Game(REG, ["a", "b"], seed=1).state
    assert [next_turn(two, p) for p in (0, 1)] == [1, 0] and opponents_of(two, 0) == [1]


def test_the_first_team_skips_its_first_draw_and_a_free_for_all_first_player_does_not() -> None:
    for variant, teams, skips in [(THG, TEAMS, True), ("", (), False)]:
        _h, game = play(4, 3, HeuristicAgent, variant, teams)
        turn1: list[int] = []
        began = False
        st = new_state()
        for env in game.log:
            e = env.event
            apply(st, e)
            if isinstance(e, ev.TurnBegan):
                if e.turn == 2:
                    break
                began = True
            if began and isinstance(e, ev.ZoneChanged) and e.reason == "draw":
                turn1.append(st.objects[e.new_obj].owner)
        first = next(env.event.active for env in game.log if isinstance(env.event, ev.TurnBegan))
        if skips:
            assert turn1 == []
        else:
            assert turn1 == [first]


@pytest.mark.parametrize("variant,teams,counts,lost", [
    (THG, TEAMS, {1: 8, 3: 7}, [False, True, False, True]),  # 15 between bob and dave
    (THG, TEAMS, {1: 8, 3: 6}, [False, False, False, False]),  # 14: the team plays on
    ("", (), {1: 10}, [False, True, False, False]),  # free-for-all: 10 (CR 704.5c)
    ("", (), {1: 9, 2: 9}, [False, False, False, False]),
])
def test_poison_counters_lose_by_team(variant: str, teams: tuple[tuple[int, ...], ...],
                                      counts: dict[int, int], lost: list[bool]) -> None:
    """CR 704.6b: a Two-Headed Giant team with fifteen or more poison counters loses (both
    its players); CR 704.5c: otherwise a player with ten or more.  (No card of the
    installed sets gives poison counters: they are put on players directly here.)"""
    game = Game(REG, ["a", "b", "c", "d"], seed=1, variant=variant, teams=teams)
    game.emit(ev.TurnBegan(turn=1, active=0))
    for p, n in counts.items():
        game.emit(ev.CounterPlaced(obj=ev.player_ref(p), kind="poison", n=n))
    try:
        game.settle()
    except GameOver:
        pass
    assert [p.lost for p in game.state.players] == lost
    assert game.state.over == (variant == THG and any(lost))
    assert encode_state(fold(list(game.log))) == encode_state(game.state)


class _Mulligans:
    """Takes ``n`` mulligans, then keeps; puts the first cards asked for on the bottom."""

    def __init__(self, n: int) -> None:
        self.left = n

    def decide(self, game: Game, d: Decision) -> Any:
        kind = d.kind
        if kind == "mulligan":
            self.left -= 1
            return self.left < 0
        if kind == "bottom":
            return list(d.options)[:d.count]
        return RandomAgent(0).decide(game, d)


@pytest.mark.parametrize("n,taken,kept", [(2, 1, 7), (2, 2, 6), (3, 1, 7), (4, 2, 6)])
def test_the_first_mulligan_is_free_in_a_multiplayer_game(n: int, taken: int, kept: int) -> None:
    """CR 103.5c: in a multiplayer game a player's first mulligan puts no card on the
    bottom (in a two-player game every mulligan puts one: 6 cards after one)."""
    kept = kept if n > 2 else 7 - taken
    names = [f"p{i}" for i in range(n)]
    game = Game(REG, names, seed=4, agents=[_Mulligans(taken)] + [_Mulligans(0)] * (n - 1))
    game.setup_decks([CARDS[i % 2] for i in range(n)])
    game.play(max_turns=1)
    hands = {}
    st = new_state()
    for env in game.log:  # the hands as the first turn begins
        apply(st, env.event)
        if isinstance(env.event, ev.TurnBegan):
            hands = {p: len(st.players[p].hand) for p in range(n)}
            break
    assert hands[0] == kept and all(hands[p] == 7 for p in range(1, n))


# -- the attack options (CR 802-804, 806.2b) -------------------------------------------


@pytest.mark.parametrize("attack", ["multiple", "left", "right"])
def test_the_attack_option_is_in_the_header_played_and_verified(attack: str) -> None:
    """A free-for-all game's attack option is a header entry (``meta["attack"]``, none
    for the default), the game plays by it and verifies.  By default one combat attacks
    several players (main: one opponent per combat); with left (right) every attack is
    at the next (previous) opponent in turn order still in the game."""
    from mtgk.rules.seats import attack_meta
    seen_several = False
    for seed in range(1, 7):
        h = new_header(REG, ["p0", "p1", "p2", "p3"], [DECKS[i % 2] for i in range(4)],
                       seed, meta=attack_meta(attack, 4))
        assert h.meta.get("attack") == (None if attack == "multiple" else attack)
        game = run_from_header(REG, h, [RandomAgent(seed * 10 + i) for i in range(4)])
        assert game.attack_option == attack
        report = verify(h, game.log, REG)
        assert report.ok, report
        turns = [(0, {ev.ref_player(t) for _a, t in env.event.attacks if t < 0})
                 for env in game.log if isinstance(env.event, ev.AttackersDeclared)]
        for _active, players in turns:
            seen_several |= len(players) > 1
        if attack != "multiple":
            assert all(len(p) <= 1 for _a, p in turns)
    assert seen_several == (attack == "multiple")


def test_attack_left_and_right_need_a_free_for_all_game() -> None:
    from mtgk.rules.seats import attack_meta
    assert attack_meta("multiple", 2) == {} and attack_meta("left", 3) == {"attack": "left"}
    for n, variant in ((2, ""), (4, THG)):
        with pytest.raises(ValueError, match="free-for-all"):
            attack_meta("right", n, variant)
    with pytest.raises(ValueError, match="unknown attack option"):
        attack_meta("up", 3)
    bad = new_header(REG, ["a", "b", "c"], [DECKS[0]] * 3, 1, meta={"attack": "up"})
    with pytest.raises(SetupError, match="attack option"):
        run_from_header(REG, bad, [RandomAgent(i) for i in range(3)])


def test_play_sim_and_the_env_offer_the_attack_option(tmp_path: Any) -> None:
    from mtgk.env import aec_env
    from mtgk.log.logfile import read_log
    from tests.conftest import run_mtgk
    out = tmp_path / "g.mtgk"
    code, _o, err = run_mtgk("play", "--players", "3", "--attack", "left", "--agents",
                             "random", "--seed", "3", "--quiet", "--out", out)
    assert code == 0, err
    assert read_log(out).header.meta["attack"] == "left"
    code, _o, err = run_mtgk("play", "--attack", "right", "--quiet", "--out", out)
    assert code != 0 and "--attack" in err and "free-for-all" in err
    db = tmp_path / "games.db"
    code, _o, err = run_mtgk("sim", "--players", "3", "--attack", "right", "--games", "2",
                             "--workers", "1", "--quiet", "--db", db)
    assert code == 0, err
    env = aec_env(decks=[CARDS[0], CARDS[1], CARDS[0]], attack="right")
    assert env.setup.header.meta["attack"] == "right"


def test_a_teams_attack_names_each_creatures_controller() -> None:
    """Two-Headed Giant: a team attacks, each teammate with their own creatures; the log
    says whose each attacker is ("p0 attacks: ...; p2 attacks: ..."), not the active
    player's name for the teammate's creatures too (the old words)."""
    from mtgk.render import Renderer
    checked = 0
    for seed in range(1, 7):
        _h, game = play(4, seed, HeuristicAgent, THG, TEAMS)
        r = Renderer(REG)
        for env in game.log:
            text = r.render(env)
            e = env.event
            if not isinstance(e, ev.AttackersDeclared) or not e.attacks:
                continue
            text = text.split(" ", 1)[1]  # (after the event's number)
            parts = dict(p.split(" attacks: ", 1) for p in text.split("; "))
            for a, _t in e.attacks:
                who = f"p{r.state.objects[a].controller}"
                assert r.obj(a) in parts[who], (text, who)
                checked += 1
            if len(parts) > 1:
                checked += 100
    assert checked > 100  # some team attacked with both teammates' creatures
