"""Planeswalkers exactly as the Lorwyn Rules Primer describes them (issue 3).

The scenarios in ``tests/scenarios/planeswalkers/`` cover every rule that a scenario
can express; these tests cover what a scenario can't: a refused *answer* (trample
over a planeswalker to the player), a control change mid-combat (no Lorwyn card gains
control of a permanent at instant speed, so a test-only instant does it through the
engine's ``add_effect("control", ...)``), the order of replacement effects (asked of
the damaged player), the log's cause links, the card definitions themselves, and how
``mtgk log`` renders planeswalker events.  See ``docs/planeswalkers.md``.
"""

from __future__ import annotations

import copy
import io
import textwrap
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import structlog

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, spell, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import permanent
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.log.events import player_ref
from mtgk.render import render_log, render_state
from mtgk.rules.engine import Decision, Game, RulesError
from mtgk.rules.replacement import Replacement
from mtgk.rules.state import encode_state, fold
from mtgk.scenario.logs import write_scenario_log
from mtgk.scenario.play import ScenarioRun, run_scenario
from mtgk.scenario.reader import loads_scenarios

WALKERS = {  # name: (subtype, printed loyalty, loyalty costs in printed order)
    "Ajani Goldmane": ("Ajani", 4, ["+1", "-1", "-6"]),
    "Chandra Nalaar": ("Chandra", 6, ["+1", "-X", "-8"]),
    "Garruk Wildspeaker": ("Garruk", 3, ["+1", "-1", "-4"]),
    "Jace Beleren": ("Jace", 3, ["+2", "-1", "-10"]),
    "Liliana Vess": ("Liliana", 5, ["+1", "-2", "-8"]),
}

# ---------------------------------------------------------------------------
# a test-only card: an instant that gains control of a permanent

P = CardSet("pw-testpack", "0.0.1", __file__, facts="no-such-file.json")


def _steal(c: Ctx) -> None:
    c.gain_control(c.target(0), until_eot=True)


P.card("Test Mind Grab", spell(_steal, target(permanent)),
       facts=CardFacts(name="Test Mind Grab", mana_cost="{U}", mana_value=1, colors=("U",),
                       types=("Instant",), type_line="Instant",
                       oracle_text="Gain control of target permanent until end of turn."))


class _Pack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [P.info()]


@pytest.fixture(scope="module")
def pw_registry() -> Registry:
    reg = load_registry(extra=[("pw-testpack", _Pack())])
    assert "Test Mind Grab" in reg, reg.failures
    return reg


# ---------------------------------------------------------------------------
# driving a scenario with scripted answers


class Scripted(ScenarioRun):
    """A scenario run whose answers to some decision kinds come from functions
    ``reply(game, decision)``; every decision asked is recorded in ``asked``."""

    def __init__(self, text: str, reg: Registry,
                 replies: dict[str, Callable[[Game, Decision], Any]] | None = None) -> None:
        sc = loads_scenarios(textwrap.dedent(text), "inline.yaml", lambda n: n in reg)[0]
        super().__init__(sc, reg)
        self.replies = replies or {}
        self.asked: list[Decision] = []

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind != "priority":
            self.asked.append(d)
        fn = self.replies.get(d.kind)
        if fn is not None:
            return fn(game, d)
        return super().decide(game, d)

    def play(self) -> Scripted:
        self.run()
        for exp in self.sc.expect:
            self.check(exp)
        # like every scenario: the log replays to exactly the live state
        assert encode_state(fold(self.game.log)) == encode_state(self.game.state)
        return self

    def oid(self, name: str) -> int:
        return self.ref(name)


def events(log: list[ev.Envelope], kind: type[ev.Event]) -> list[Any]:
    """The envelopes of ``log`` holding events of type ``kind``."""
    return [env for env in log if isinstance(env.event, kind)]


# ---------------------------------------------------------------------------
# the five cards


@pytest.mark.parametrize("name", sorted(WALKERS))
def test_lorwyn_planeswalker_definition(registry: Registry, name: str) -> None:
    """2007 profile: ``Planeswalker — X`` (not legendary), printed loyalty, three loyalty
    abilities with the printed costs, all at sorcery speed."""
    subtype, loyalty, costs = WALKERS[name]
    d = registry[name]
    f = d.facts
    assert f.supertypes == ()
    assert f.types == ("Planeswalker",)
    assert f.subtypes == (subtype,)
    assert f.type_line == f"Planeswalker — {subtype}"
    assert f.loyalty == str(loyalty)
    got = []
    for _key, ab in d.activated:
        assert ab.sorcery, "loyalty abilities are activated at sorcery speed"
        got.append("-X" if ab.cost.loyalty_x else f"{ab.cost.loyalty:+d}")
    assert got == costs


def test_chandra_uses_2007_wording(registry: Registry) -> None:
    """Chandra's +1 and -8 say "target player" in 2007 (not "player or planeswalker"): her
    text and her target filters agree."""
    text = registry["Chandra Nalaar"].facts.oracle_text
    assert "planeswalker" not in text
    assert "deals 1 damage to target player." in text
    assert "each creature he or she controls" in text


# ---------------------------------------------------------------------------
# combat


TRAMPLE = """
    name: trample-at-planeswalker
    strict: true
    players:
      alice:
        battlefield: [Oakgnarl Warrior]
      bob:
        battlefield: [{card: Garruk Wildspeaker, counters: {loyalty: 5}}, Runeclaw Bear]
    turn: {number: 3, active: alice, step: precombat_main}
    actions:
      - {player: alice, attack: {Oakgnarl Warrior: Garruk Wildspeaker}}
      - {player: bob, block: {Runeclaw Bear: Oakgnarl Warrior}}
      - {pass_until: {turn: 3, step: postcombat_main}}
    expect:
      - {card: Runeclaw Bear, zone: graveyard}
      - {card: Garruk Wildspeaker, loyalty: 2}
      - {player: bob, life: 20}
    """


def test_trample_over_planeswalker_to_player_refused(registry: Registry) -> None:
    """Primer: a trampler attacking a planeswalker "can't 'trample over' that planeswalker
    and assign combat damage to the defending player". Assignments giving damage to bob
    are refused with a RulesError; lethal to the blocker and the rest to Garruk is legal."""
    refused: list[RulesError] = []
    ids: dict[str, int] = {}

    def assign(game: Game, d: Decision) -> Any:
        bear, garruk = d.context["recipients"]
        ids.update(bear=bear, garruk=garruk)
        bob = player_ref(1)
        assert d.player == 0 and game.name(garruk) == "Garruk Wildspeaker"
        for bad in ([[bear, 2], [bob, 3]],            # the excess to the player
                    [[bear, 2], [garruk, 1], [bob, 2]],
                    [[bob, 5]],                        # everything to the player
                    [[bear, 1], [garruk, 4]],          # not lethal to the blocker first
                    [[bear, 2], [garruk, 2]]):         # not all the damage
            with pytest.raises(RulesError) as err:
                game.validate(d, bad)
            refused.append(err.value)
        return [[bear, 2], [garruk, 3]]

    run = Scripted(TRAMPLE, registry, {"assign": assign}).play()
    assert len(refused) == 5
    assert "can't be assigned damage" in refused[0].message
    assert refused[3].rule == "702.19c"
    dealt = [e.event for e in events(run.game.log, ev.DamageDealt)]
    warrior = run.oid("Oakgnarl Warrior")
    by_warrior = {e.target: e.amount for e in dealt if e.source == warrior}
    assert by_warrior == {ids["bear"]: 2, ids["garruk"]: 3}
    assert all(e.target != player_ref(1) for e in dealt)


def test_trample_to_player_answer_fails_the_scenario(registry: Registry) -> None:
    """The same refused answer written in a scenario fails it ("illegal answer")."""
    text = TRAMPLE.replace(
        "- {pass_until: {turn: 3, step: postcombat_main}}",
        "- {pass_until: {turn: 3, step: postcombat_main}, "
        "answers: [{assign: {Runeclaw Bear: 2, bob: 3}}]}")
    sc = loads_scenarios(textwrap.dedent(text), "inline.yaml", lambda n: n in registry)[0]
    res = run_scenario(sc, registry)
    assert not res.passed
    assert "illegal answer" in res.reason and "can't be assigned damage" in res.reason


STEAL = """
    name: steal-attacked-walker
    strict: true
    players:
      alice:
        battlefield: [Grizzly Bears, Island]
        hand: [Test Mind Grab]
      bob:
        battlefield: [Jace Beleren, Runeclaw Bear{bob_extra}]
        hand: [{bob_hand}]
    turn: {{number: 3, active: alice, step: precombat_main}}
    actions:
      - {{player: alice, attack: {{Grizzly Bears: Jace Beleren}}}}
      - {{player: alice, cast: Test Mind Grab, targets: [Jace Beleren]}}
      - {{resolve: all}}
{more}
      - {{player: bob, block: {blocks}}}
      - {{pass_until: {{turn: 3, step: {until}}}}}
    """


def _steal_text(blocks: str = "{}", until: str = "postcombat_main", more: str = "",
                bob_extra: str = "", bob_hand: str = "") -> str:
    return STEAL.format(blocks=blocks, until=until, more=more, bob_extra=bob_extra,
                        bob_hand=bob_hand)


def test_control_change_removes_planeswalker_from_combat(pw_registry: Registry) -> None:
    """Primer: "If a planeswalker leaves play or changes controllers, it's removed from
    combat and stops being attacked. However, a creature that was attacking that
    planeswalker isn't removed from combat": alice gains control of the attacked Jace;
    the Bears are still attacking, unblocked, and deal no combat damage."""
    run = Scripted(_steal_text(until="combat_damage"), pw_registry).play()
    g = run.game
    jace, bears = run.oid("Jace Beleren"), run.oid("Grizzly Bears")
    assert g.chars(jace).controller == 0
    c = g.state.combat
    assert c is not None and bears in c.attackers  # still an attacking creature
    assert jace in c.removed_attacked  # the planeswalker is no longer attacked
    assert not events(g.log, ev.DamageDealt)
    assert g.state.objects[jace].counters["loyalty"] == 3
    assert g.state.players[1].life == 20
    # the control change went through the engine's "control" effect, and the log
    # records the removal from combat
    assert [e.event.kind for e in events(g.log, ev.EffectCreated)] == ["control"]
    assert [e.event.obj for e in events(g.log, ev.RemovedFromCombat)] == [jace]


def test_control_change_attacker_can_still_be_blocked(pw_registry: Registry) -> None:
    """It "may be blocked ... If it is blocked, it will deal damage to any creature blocking
    it as normal": the Bears and bob's Runeclaw Bear trade; Jace and bob take nothing."""
    run = Scripted(_steal_text(blocks="{Runeclaw Bear: Grizzly Bears}"), pw_registry).play()
    g = run.game
    zones = {g.state.objects[o].card: g.state.objects[o].zone for o in g.state.objects}
    assert zones["Grizzly Bears"] == "graveyard" and zones["Runeclaw Bear"] == "graveyard"
    assert g.state.players[1].life == 20
    assert len(events(g.log, ev.DamageDealt)) == 2


def test_control_change_and_back_stays_removed(pw_registry: Registry) -> None:
    """Once removed from combat, a planeswalker stays removed: bob takes Jace back before
    blockers, and the unblocked Bears still deal no damage to him."""
    more = "      - {player: bob, cast: Test Mind Grab, targets: [Jace Beleren]}\n" \
           "      - {resolve: all}"
    run = Scripted(_steal_text(more=more, bob_extra=", Island", bob_hand="Test Mind Grab"),
                   pw_registry).play()
    g = run.game
    jace = run.oid("Jace Beleren")
    assert g.chars(jace).controller == 1
    assert g.state.objects[jace].counters["loyalty"] == 3
    assert not events(g.log, ev.DamageDealt)


def test_attacker_stays_attacking_after_planeswalker_leaves(registry: Registry) -> None:
    """The creature that attacked a bounced planeswalker is still an attacking creature in
    the combat damage step (it just deals no damage)."""
    run = Scripted("""
        name: bounce-attacked-walker
        strict: true
        players:
          alice:
            battlefield: [Grizzly Bears]
          bob:
            battlefield: [Jace Beleren, Island, Island, Island, Island]
            hand: [Cryptic Command]
            library: [Island]
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Grizzly Bears: Jace Beleren}}
          - {player: bob, cast: Cryptic Command, modes: [2, 4], targets: [Jace Beleren]}
          - {resolve: all}
          - {pass_until: {turn: 3, step: end_of_combat}}
        """, registry).play()
    c = run.game.state.combat
    assert c is not None and list(c.attackers) == [run.oid("Grizzly Bears")]
    assert not events(run.game.log, ev.DamageDealt)


# ---------------------------------------------------------------------------
# damage redirection


REDIRECT = """
    name: redirect
    players:
      alice:
        battlefield: [Mountain{alice_extra}]
        hand: [Shock]
      bob:
        battlefield: [Jace Beleren{bob_extra}]
    turn: {{number: 3, active: alice, step: precombat_main}}
    actions:
      - {{player: alice, cast: Shock, targets: [bob]}}
      - {{resolve: all}}
    """


def _redirect_text(alice_extra: str = "", bob_extra: str = "") -> str:
    return REDIRECT.format(alice_extra=alice_extra, bob_extra=bob_extra)


def _pick(name: str) -> Callable[[Game, Decision], Any]:
    """Answer a decision with the option naming ``name`` (0 / "no": not redirecting)."""
    def reply(game: Game, d: Decision) -> Any:
        assert d.options is not None
        if name == "no":
            return 0
        for o in d.options:
            if isinstance(o, str) and o.startswith(name):
                return o
            if isinstance(o, int) and o > 0 and game.name(o) == name:
                return o
        raise AssertionError(f"{name!r} not among {d.options!r}")
    return reply


def test_redirect_log_records_cause_links(registry: Registry) -> None:
    """The log records DamageRedirected (source, from player, to planeswalker, amount),
    then the DamageDealt it caused, then the CounterRemoved that damage caused."""
    run = Scripted(_redirect_text(), registry, {"redirect": _pick("Jace Beleren")}).play()
    log = run.game.log
    (red,) = events(log, ev.DamageRedirected)
    (dealt,) = events(log, ev.DamageDealt)
    removed = [e for e in events(log, ev.CounterRemoved) if e.event.kind == "loyalty"]
    jace = run.oid("Jace Beleren")
    shock = red.event.source
    (cast,) = events(log, ev.SpellCast)
    assert cast.event.new_obj == shock  # the source is the Shock spell
    assert (red.event.from_player, red.event.to, red.event.amount) == (1, jace, 2)
    assert dealt.cause == red.seq
    assert (dealt.event.source, dealt.event.target, dealt.event.amount) == (shock, jace, 2)
    assert not dealt.event.combat
    assert [e.cause for e in removed] == [dealt.seq]
    assert removed[0].event.obj == jace and removed[0].event.n == 2
    assert red.seq < dealt.seq < removed[0].seq
    assert run.game.state.players[1].life == 20


def test_redirect_options_are_the_damaged_opponents_planeswalkers(registry: Registry) -> None:
    """The source's controller (alice) is asked; the options are "no" and the planeswalkers
    *bob* controls -- never alice's own, and there is no way to split the damage."""
    run = Scripted(_redirect_text(alice_extra=", Garruk Wildspeaker",
                                  bob_extra=", Liliana Vess"),
                   registry, {"redirect": _pick("Liliana Vess")}).play()
    g = run.game
    (d,) = [d for d in run.asked if d.kind == "redirect"]
    assert d.player == 0
    assert d.options is not None and d.options[0] == 0
    assert sorted(g.name(o) for o in d.options[1:]) == ["Jace Beleren", "Liliana Vess"]
    garruk = run.oid("Garruk Wildspeaker")
    for bad in (garruk, player_ref(1), [run.oid("Jace Beleren"), 0]):
        with pytest.raises(RulesError):
            g.validate(d, bad)
    assert g.state.objects[run.oid("Liliana Vess")].counters["loyalty"] == 3
    assert g.state.objects[garruk].counters["loyalty"] == 3
    assert g.state.players[1].life == 20


class _Tax(Replacement):
    """Test-only: "If damage would be dealt to a player, prevent 1 of it"."""

    key = "test-damage-tax"
    event = "damage"

    def applies(self, game: Game, p: dict[str, Any], source: int) -> bool:
        return ev.ref_player(p["target"]) is not None

    def apply(self, game: Game, p: dict[str, Any], source: int) -> dict[str, Any] | None:
        return dict(p, amount=p["amount"] - 1)


@pytest.fixture(scope="module")
def tax_registry(registry: Registry) -> Registry:
    """A copy of the registry with one more (test-only) replacement effect."""
    reg = copy.copy(registry)
    reg.replacements = [*registry.replacements, _Tax()]
    return reg


@pytest.mark.parametrize("first, redirect, jace, life", [
    ("test-damage-tax", "Jace Beleren", 2, 20),          # 1 left, then redirected
    ("planeswalker-redirection", "Jace Beleren", 1, 20),  # redirected: the tax no longer applies
    ("planeswalker-redirection", "no", 3, 19),           # not redirected: the tax applies
])
def test_redirection_is_ordered_by_the_damaged_player(tax_registry: Registry, first: str,
                                                      redirect: str, jace: int,
                                                      life: int) -> None:
    """Primer: the redirection "is subject to the normal rules for ordering replacement
    effects. The player affected by the damage chooses the order in which to apply such
    effects, but the controller of the source of the damage chooses whether the damage
    is redirected": bob orders, alice redirects."""
    run = Scripted(_redirect_text(), tax_registry,
                   {"replacement": _pick(first), "redirect": _pick(redirect)}).play()
    asked = [(d.kind, d.player) for d in run.asked if d.kind in ("replacement", "redirect")]
    assert asked[0] == ("replacement", 1)  # bob, the damaged player, orders
    assert ("redirect", 0) in asked  # alice, Shock's controller, redirects
    (order,) = [d for d in run.asked if d.kind == "replacement"]
    assert sorted(order.options or []) == ["planeswalker-redirection", "test-damage-tax"]
    g = run.game
    assert g.state.objects[run.oid("Jace Beleren")].counters["loyalty"] == jace
    assert g.state.players[1].life == life


@pytest.mark.parametrize("first, life, loyalty", [("Purity", 22, 3),
                                                  ("planeswalker-redirection", 20, 1)])
def test_redirection_against_purity(registry: Registry, first: str, life: int,
                                    loyalty: int) -> None:
    """With a real Lorwyn card: bob's Purity prevents noncombat damage to him. Bob orders
    the two effects: Purity first (prevented, he gains 2) or the redirection first (alice
    sends it to Jace, and Purity no longer applies)."""
    run = Scripted(_redirect_text(bob_extra=", Purity"), registry,
                   {"replacement": _pick(first), "redirect": _pick("Jace Beleren")}).play()
    g = run.game
    (order,) = [d for d in run.asked if d.kind == "replacement"]
    assert order.player == 1
    assert g.state.players[1].life == life
    assert g.state.objects[run.oid("Jace Beleren")].counters["loyalty"] == loyalty


# ---------------------------------------------------------------------------
# rendering


def test_mtgk_log_renders_planeswalker_events(registry: Registry, tmp_path: Path) -> None:
    """`mtgk log` names the redirection and the loyalty change readably."""
    from mtgk.tools.cli import main
    sc = loads_scenarios(textwrap.dedent("""
        name: render-redirect
        strict: true
        players:
          Alice:
            battlefield: [Mountain, Garruk Wildspeaker]
            hand: [Shock]
          Bob:
            battlefield: [Jace Beleren]
        turn: {number: 3, active: Alice, step: precombat_main}
        actions:
          - {player: Alice, activate: Garruk Wildspeaker, ability: "-1"}
          - {resolve: all}
          - {player: Alice, cast: Shock, targets: [Bob], answers: [{redirect: Jace Beleren}]}
          - {resolve: all}
        """), "inline.yaml", lambda n: n in registry)[0]
    res = run_scenario(sc, registry)
    assert res.passed, res.reason
    lines = list(render_log(res.log, registry))
    text = "\n".join(lines)
    assert "Shock: 2 damage redirected from Bob to Jace Beleren" in text
    assert "Shock deals 2 damage to Jace Beleren" in text
    assert "Jace Beleren: loyalty 3 → 1" in text
    assert "Garruk Wildspeaker: loyalty 3 → 2" in text
    assert "Alice activates Garruk Wildspeaker: -1" in text
    # the redirection line comes first, then the damage, then the loyalty change
    order = [next(i for i, ln in enumerate(lines) if s in ln) for s in
             ("damage redirected", "Shock deals 2 damage", "Jace Beleren: loyalty 3 → 1")]
    assert order == sorted(order)
    path = write_scenario_log(res, tmp_path, registry)
    buf = io.StringIO()
    try:
        with redirect_stdout(buf), redirect_stderr(io.StringIO()):
            assert main(["log", str(path)]) == 0
    finally:
        structlog.reset_defaults()  # the CLI configures logging to the redirected stream
    out = buf.getvalue()
    assert "Shock: 2 damage redirected from Bob to Jace Beleren" in out
    assert "Jace Beleren: loyalty 3 → 1" in out


def test_planeswalker_without_opponent_walkers_no_redirect_decision(registry: Registry) -> None:
    """No redirect decision at all when the damaged opponent controls no planeswalker."""
    run = Scripted("""
        name: no-walkers
        players:
          alice:
            battlefield: [Mountain, Jace Beleren]
            hand: [Shock]
          bob: {}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Shock, targets: [bob]}
          - {resolve: all}
        expect:
          - {player: bob, life: 18}
        """, registry).play()
    assert not [d for d in run.asked if d.kind in ("redirect", "replacement")]


def test_render_state_shows_loyalty_not_marked_damage(registry: Registry) -> None:
    """Combat damage to a planeswalker shows as lost loyalty, not as marked damage."""
    run = Scripted("""
        name: state-view
        strict: true
        players:
          alice:
            battlefield: [Grizzly Bears]
          bob:
            battlefield: [{card: Jace Beleren, counters: {loyalty: 5}}]
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Grizzly Bears: Jace Beleren}}
          - {pass_until: {turn: 3, step: postcombat_main}}
        expect:
          - {card: Jace Beleren, loyalty: 3}
        """, registry).play()
    line = next(ln for ln in render_state(run.game.state, registry).splitlines()
                if "Jace Beleren" in ln)
    assert "Planeswalker — Jace loyalty 3" in line
    assert "damage" not in line


def test_all_creature_types_effect_gives_a_planeswalker_none(registry: Registry) -> None:
    """Planeswalker types are an independent list: even an effect that says "gains all
    creature types" applied to Garruk (through the engine) gives him no creature type --
    creature types exist only on creatures and tribals -- and he keeps his own subtype."""
    run = Scripted("""
        name: all-types
        players:
          alice:
            battlefield: [Garruk Wildspeaker, Woodland Changeling]
          bob: {}
        turn: {number: 3, active: alice, step: precombat_main}
        """, registry).play()
    g = run.game
    garruk = run.oid("Garruk Wildspeaker")
    g.add_effect("add_all_creature_types", [garruk], None, garruk, 0, "eot")
    c = g.chars(garruk)
    assert c.has_subtype("Garruk")
    assert not c.has_subtype("Elf") and not c.has_subtype("Shapeshifter")
    assert c.creature_types() == []
    changeling = g.chars(run.oid("Woodland Changeling"))
    assert changeling.has_subtype("Elf") and not changeling.has_subtype("Garruk")
