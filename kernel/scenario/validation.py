"""Checking a scenario mapping key by key and building the :class:`~mtgk.scenario.model.Scenario`.

:class:`ScenarioBuilder` takes one scenario mapping as the reader gives it
(:mod:`mtgk.scenario.reader`): msgspec first checks its keys and types against the
"raw" Structs below (the file as written); then every rule of the format that a type
can't say is checked here -- two to four players, Two-Headed Giant's teams, aliases,
names that must refer to a player, an alias, a card or an event type, the keys each verb
and each answer takes, the subjects of an expectation, the order of opening-hand actions
-- and the values are normalised into the model (the choices are listed in
:mod:`mtgk.scenario.model`).  Every problem raises
:class:`~mtgk.scenario.errors.ScenarioFileError` naming the key path.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

import msgspec
from msgspec import UNSET, Struct, UnsetType

from mtgk.rules.seats import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNT_WORDS
from mtgk.scenario.errors import (
    ScenarioFileError,
    describe_value,
    explain,
    key_segment,
    name_list,
    plain,
    short,
    struct_fields,
)
from mtgk.scenario.model import (
    ANSWER_KINDS,
    CARD_EXPECT_KEYS,
    COMMON_ACTION_KEYS,
    OPENING_HANDS,
    PLAYER_EXPECT_KEYS,
    SETUP_ZONES,
    VERB_KEYS,
    VERBS,
    Action,
    Answer,
    Arrangement,
    CardEntry,
    CountFilter,
    Expectation,
    Int,
    NonNeg,
    PassUntil,
    PlayerSetup,
    Positive,
    Scenario,
    StartStep,
    TurnSpec,
    Variant,
    Zone,
    split_ability_ref,
)

__all__ = ["ScenarioBuilder"]

# ---------------------------------------------------------------------------
# Raw (as written) structs: msgspec checks keys and types against these
# ---------------------------------------------------------------------------


class _RawPlayer(Struct, forbid_unknown_fields=True):
    life: Int | None = None
    battlefield: list[str | CardEntry] = []
    hand: list[str | CardEntry] = []
    library: list[str | CardEntry] = []
    graveyard: list[str | CardEntry] = []
    exile: list[str | CardEntry] = []


class _RawTurn(Struct, forbid_unknown_fields=True):
    number: Positive = 1
    active: str | None = None
    step: StartStep = "precombat_main"


class _RawAnswer(Struct, forbid_unknown_fields=True):
    player: str | UnsetType = UNSET
    redirect: str | bool | None | UnsetType = UNSET
    clash: Literal["top", "bottom"] | UnsetType = UNSET
    hideaway: str | UnsetType = UNSET
    champion: str | bool | None | UnsetType = UNSET
    target: str | UnsetType = UNSET
    targets: list[str] | UnsetType = UNSET
    mode: Positive | UnsetType = UNSET
    modes: list[Positive] | UnsetType = UNSET
    x: NonNeg | UnsetType = UNSET
    may: bool | str | UnsetType = UNSET
    choose: str | list[str] | UnsetType = UNSET
    arrange: Arrangement | UnsetType = UNSET
    pay: bool | str | UnsetType = UNSET
    order: list[str] | UnsetType = UNSET
    assign: dict[str, NonNeg] | UnsetType = UNSET
    discard: list[str] | UnsetType = UNSET
    new_targets: list[str] | bool | str | UnsetType = UNSET


class _RawExpectation(Struct, forbid_unknown_fields=True):
    player: str | UnsetType = UNSET
    life: Int | UnsetType = UNSET
    hand_size: NonNeg | UnsetType = UNSET
    library_size: NonNeg | UnsetType = UNSET
    graveyard_size: NonNeg | UnsetType = UNSET
    library_top: list[str] | UnsetType = UNSET
    library_bottom: list[str] | UnsetType = UNSET
    lost: bool | UnsetType = UNSET
    winner: str | UnsetType = UNSET
    draw: bool | UnsetType = UNSET
    card: str | UnsetType = UNSET
    zone: Zone | UnsetType = UNSET
    loyalty: Int | UnsetType = UNSET
    counters: dict[str, NonNeg] | UnsetType = UNSET
    power: Int | UnsetType = UNSET
    toughness: Int | UnsetType = UNSET
    damage: NonNeg | UnsetType = UNSET
    tapped: bool | UnsetType = UNSET
    controller: str | UnsetType = UNSET
    owner: str | UnsetType = UNSET
    types: list[str] | UnsetType = UNSET
    has_subtypes: list[str] | UnsetType = UNSET
    lacks_subtypes: list[str] | UnsetType = UNSET
    has_ability: str | UnsetType = UNSET
    lacks_ability: str | UnsetType = UNSET
    attached_to: str | UnsetType = UNSET
    face_down: bool | UnsetType = UNSET
    count: CountFilter | NonNeg | UnsetType = UNSET
    equals: NonNeg | UnsetType = UNSET
    stack_size: NonNeg | UnsetType = UNSET
    log_has: str | UnsetType = UNSET
    min: NonNeg | UnsetType = UNSET
    max: NonNeg | UnsetType = UNSET


class _RawAction(Struct, forbid_unknown_fields=True):
    cast: str | UnsetType = UNSET
    play: str | UnsetType = UNSET
    activate: str | UnsetType = UNSET
    attack: dict[str, str] | list[str] | UnsetType = UNSET
    block: dict[str, str | list[str]] | UnsetType = UNSET
    resolve: Int | str | UnsetType = UNSET
    pass_until: PassUntil | Literal["game_over"] | UnsetType = UNSET
    check: list[_RawExpectation] | UnsetType = UNSET
    player: str | UnsetType = UNSET
    targets: list[str] | UnsetType = UNSET
    modes: list[Positive] | UnsetType = UNSET
    x: NonNeg | UnsetType = UNSET
    evoke: bool | UnsetType = UNSET
    alt_cost: str | UnsetType = UNSET
    answers: list[_RawAnswer] | UnsetType = UNSET
    ability: str | Int | UnsetType = UNSET
    refused: bool | UnsetType = UNSET
    mulligan: bool | UnsetType = UNSET
    keep: bool | UnsetType = UNSET
    bottom: list[str] | UnsetType = UNSET


class _RawScenario(Struct, forbid_unknown_fields=True):
    name: str
    players: dict[str, _RawPlayer]
    description: str = ""
    strict: bool = False
    variant: Variant = "free_for_all"
    teams: list[list[str]] | None = None
    attack_option: Literal["multiple", "left", "right"] | None = None
    turn: _RawTurn | None = None
    actions: list[_RawAction] = []
    expect: list[_RawExpectation] = []


# ---------------------------------------------------------------------------
# Building and checking one scenario
# ---------------------------------------------------------------------------


class ScenarioBuilder:
    """Validates one scenario mapping (as :mod:`mtgk.scenario.reader` gives it) and builds
    the :class:`~mtgk.scenario.model.Scenario`."""

    def __init__(
        self,
        file: str,
        label: str | None,
        known_card: Callable[[str], bool] | None,
        prefix: str = "",
        known_event: Callable[[str], bool] | None = None,
    ) -> None:
        self.file = file
        self.label = label
        self.prefix = prefix
        self.known_card = known_card
        self.known_event = known_event
        self.players: list[str] = []
        self.aliases: set[str] = set()
        self.permanents: set[str] = set()
        """Names and aliases of the setup's battlefield entries."""

    def error(self, path: str, reason: str) -> ScenarioFileError:
        if self.label is None and self.prefix:
            # an unnamed scenario of a list: locate it by its index instead
            path = f"{self.prefix}.{path}" if path else self.prefix
        return ScenarioFileError(self.file, reason, scenario=self.label, path=path)

    # -- name checks ---------------------------------------------------------

    def check_player(self, name: str, path: str) -> None:
        if name not in self.players:
            raise self.error(
                path,
                f"unknown player {short(name)}; players are {name_list(self.players)}",
            )

    def check_card(self, name: str, path: str) -> None:
        """A card name (setup): checked against the card database only."""
        if self.known_card is not None and not self.known_card(name):
            raise self.error(path, f"unknown card {short(name)}")

    def check_ref(self, name: str, path: str, *, player_ok: bool = False) -> None:
        """A reference to an object: an alias, a card name, or (if allowed) a player."""
        if name in self.aliases or (player_ok and name in self.players):
            return
        if self.known_card is not None and not self.known_card(name):
            what = "card, alias or player" if player_ok else "card or alias"
            raise self.error(path, f"unknown {what} {short(name)}")

    def check_permanent(self, name: str, path: str) -> None:
        """A setup link (``attached_to``, ``exiled_with``): a permanent of the setup."""
        if name in self.permanents:
            return
        if name in self.players:
            raise self.error(path, f"expected a permanent, got the player {short(name)}")
        self.check_ref(name, path)
        raise self.error(
            path,
            f"expected the name or alias of a permanent on the battlefield in the setup, "
            f"got {short(name)}",
        )

    def check_event(self, name: str, path: str) -> None:
        """An event type name (``log_has``): checked against the loaded event types."""
        if self.known_event is not None and not self.known_event(name):
            raise self.error(path, f"unknown event type {short(name)}")

    # -- the whole scenario --------------------------------------------------

    def build(self, data: dict[str, Any]) -> Scenario:
        try:
            raw = msgspec.convert(data, _RawScenario)
        except msgspec.ValidationError as exc:
            path, reason = explain(str(exc), data, _RawScenario)
            raise self.error(path, reason) from None

        if not raw.name.strip():
            raise self.error("name", "expected a non-empty scenario name")
        self.players = list(raw.players)
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise self.error(
                "players",
                f"{PLAYER_COUNT_WORDS} players are required, got {len(self.players)}"
                + (f" ({name_list(self.players)})" if self.players else ""),
            )
        for name in self.players:
            if not name.strip():
                raise self.error("players", "player names must not be empty")
        teams = self._teams(raw)

        # aliases first: later checks may refer to them
        for pname, rp in raw.players.items():
            for zone in SETUP_ZONES:
                for i, entry in enumerate(getattr(rp, zone)):
                    if isinstance(entry, CardEntry) and entry.alias is not None:
                        path = f"players{key_segment(pname)}.{zone}[{i}].as"
                        if entry.alias in self.aliases:
                            raise self.error(path, f"duplicate alias {short(entry.alias)}")
                        if entry.alias in self.players:
                            raise self.error(
                                path, f"alias {short(entry.alias)} is also a player's name"
                            )
                        if not entry.alias.strip():
                            raise self.error(path, "expected a non-empty alias")
                        self.aliases.add(entry.alias)
            for entry in rp.battlefield:
                if isinstance(entry, str):
                    self.permanents.add(entry)
                else:
                    self.permanents.add(entry.card)
                    if entry.alias is not None:
                        self.permanents.add(entry.alias)

        default_life = 30 if raw.variant == "two_headed_giant" else 20
        players = {pname: self._player(pname, rp, default_life)
                   for pname, rp in raw.players.items()}
        if teams:
            self._team_life(raw, teams, players)
        turn = self._turn(raw.turn)
        actions = [self._action(a, f"actions[{i}]") for i, a in enumerate(raw.actions)]
        self._check_opening(turn, actions)
        if raw.attack_option is not None and (raw.variant == "two_headed_giant"
                                               or len(self.players) < 3):
            raise self.error("attack_option", "`attack_option` is an option of a "
                             "free-for-all game of three or four players")
        expect = [self._expectation(e, f"expect[{i}]") for i, e in enumerate(raw.expect)]
        return Scenario(
            name=raw.name,
            description=raw.description,
            strict=raw.strict,
            players=players,
            variant=raw.variant,
            teams=teams,
            attack_option=raw.attack_option or "multiple",
            turn=turn,
            actions=actions,
            expect=expect,
            file=self.file,
        )

    def _teams(self, raw: _RawScenario) -> list[list[str]]:
        """Check ``variant`` and ``teams``: Two-Headed Giant needs two teams of two that
        are the four players; ``teams`` means nothing in another variant."""
        if raw.variant != "two_headed_giant":
            if raw.teams is not None:
                raise self.error("teams", "`teams` needs `variant: two_headed_giant`")
            return []
        if raw.teams is None:
            raise self.error("variant", "`variant: two_headed_giant` needs `teams` "
                             "(e.g. teams: [[alice, carol], [bob, dave]])")
        if len(raw.teams) != 2 or any(len(team) != 2 for team in raw.teams):
            raise self.error("teams", "Two-Headed Giant has two teams of two players")
        seen: list[str] = []
        for t, team in enumerate(raw.teams):
            for k, name in enumerate(team):
                self.check_player(name, f"teams[{t}][{k}]")
                if name in seen:
                    raise self.error(f"teams[{t}][{k}]", f"{short(name)} is in two teams")
                seen.append(name)
        if len(seen) != len(self.players):
            left = [n for n in self.players if n not in seen]
            raise self.error("teams", f"every player is in a team; not in one: "
                             f"{name_list(left)}")
        return [list(team) for team in raw.teams]

    def _team_life(self, raw: _RawScenario, teams: list[list[str]],
                   players: dict[str, PlayerSetup]) -> None:
        """A team shares one life total: ``life:`` on either player sets it (both may
        write it only if they agree); both players' setups then hold it."""
        for team in teams:
            written = {n: raw.players[n].life for n in team if raw.players[n].life is not None}
            if len(set(written.values())) > 1:
                raise self.error(f"players{key_segment(team[1])}.life",
                                 f"{team[0]} and {team[1]} are a team with one life total; "
                                 f"their `life` differs ({', '.join(map(str, written.values()))})")
            if written:
                life = next(iter(written.values()))
                for n in team:
                    players[n] = msgspec.structs.replace(players[n], life=life)

    def _player(self, pname: str, rp: _RawPlayer, default_life: int = 20) -> PlayerSetup:
        zones: dict[str, list[CardEntry]] = {}
        base = f"players{key_segment(pname)}"
        for zone in SETUP_ZONES:
            entries: list[CardEntry] = []
            for i, item in enumerate(getattr(rp, zone)):
                path = f"{base}.{zone}[{i}]"
                if isinstance(item, str):
                    entry = CardEntry(card=item)
                    self.check_card(item, path)
                else:
                    entry = item
                    self._check_entry(entry, zone, path)
                if not entry.card.strip():
                    raise self.error(path, "expected a card name")
                entries.append(entry)
            zones[zone] = entries
        return PlayerSetup(life=default_life if rp.life is None else rp.life, **zones)

    def _check_entry(self, entry: CardEntry, zone: str, path: str) -> None:
        self.check_card(entry.card, f"{path}.card")
        if zone != "battlefield":
            for key in ("tapped", "sick", "token", "damage"):
                if getattr(entry, key):
                    raise self.error(f"{path}.{key}", f"`{key}` is only allowed on the battlefield")
            for key in ("attached_to", "controller"):
                if getattr(entry, key) is not None:
                    raise self.error(f"{path}.{key}", f"`{key}` is only allowed on the battlefield")
        if zone != "exile":
            if entry.face_down:
                raise self.error(f"{path}.face_down", "`face_down` is only allowed in exile")
            if entry.exiled_with is not None:
                raise self.error(f"{path}.exiled_with", "`exiled_with` is only allowed in exile")
        if entry.attached_to is not None:
            self.check_permanent(entry.attached_to, f"{path}.attached_to")
            if entry.attached_to == entry.alias:
                raise self.error(f"{path}.attached_to", "a permanent can't be attached to itself")
        if entry.exiled_with is not None:
            self.check_permanent(entry.exiled_with, f"{path}.exiled_with")
        if entry.controller is not None:
            self.check_player(entry.controller, f"{path}.controller")

    def _check_opening(self, turn: TurnSpec, actions: list[Action]) -> None:
        """``mulligan`` and ``keep`` actions need ``step: opening_hands`` and a ``player``,
        and come before every other action but ``check``."""
        opening = turn.step == OPENING_HANDS
        played = False
        for a in actions:
            if a.verb in ("mulligan", "keep"):
                if not opening:
                    raise self.error(a.where, f"`{a.verb}` needs `turn.step: opening_hands`")
                if a.player is None:
                    raise self.error(a.where, f"`{a.verb}` needs `player`")
                if played:
                    raise self.error(a.where, f"`{a.verb}` comes after the game has begun: "
                                     "opening hands are kept before any other action")
            elif a.verb != "check":
                played = True

    def _turn(self, rt: _RawTurn | None) -> TurnSpec:
        if rt is None:
            return TurnSpec(active=self.players[0])
        active = rt.active if rt.active is not None else self.players[0]
        self.check_player(active, "turn.active")
        return TurnSpec(number=rt.number, active=active, step=rt.step)

    # -- actions ---------------------------------------------------------------

    def _action(self, ra: _RawAction, path: str) -> Action:
        present = [
            f.encode_name
            for f in struct_fields(_RawAction)
            if getattr(ra, f.name) is not UNSET
        ]
        verbs = [k for k in present if k in VERBS]
        if not verbs:
            raise self.error(path, f"an action needs one of the keys {', '.join(VERBS)}")
        if len(verbs) > 1:
            raise self.error(path, f"an action has exactly one verb, got {', '.join(verbs)}")
        verb = verbs[0]
        allowed = set(COMMON_ACTION_KEYS) | set(VERB_KEYS[verb])
        for key in present:
            if key != verb and key not in allowed:
                extra = sorted(allowed)
                raise self.error(
                    f"{path}.{key}",
                    f"`{key}` is not allowed with `{verb}`; allowed: {', '.join(extra)}",
                )

        player: str | None = None
        if not isinstance(ra.player, UnsetType):
            player = ra.player
            self.check_player(player, f"{path}.player")
        answers: list[Answer] = []
        if not isinstance(ra.answers, UnsetType):
            answers = [self._answer(a, f"{path}.answers[{i}]") for i, a in enumerate(ra.answers)]
        fields: dict[str, Any] = {
            "verb": verb,
            "where": path,
            "player": player,
            "refused": bool(ra.refused) if not isinstance(ra.refused, UnsetType) else False,
            "answers": answers,
        }

        if verb in ("cast", "play", "activate"):
            name = getattr(ra, verb)
            if not name.strip():
                raise self.error(f"{path}.{verb}", "expected a card name or alias")
            self.check_ref(name, f"{path}.{verb}")
            fields["card"] = name
        if not isinstance(ra.targets, UnsetType):
            for i, t in enumerate(ra.targets):
                self.check_ref(t, f"{path}.targets[{i}]", player_ok=True)
            fields["targets"] = list(ra.targets)
        if not isinstance(ra.modes, UnsetType):
            fields["modes"] = list(ra.modes)
        if not isinstance(ra.x, UnsetType):
            fields["x"] = ra.x
        if not isinstance(ra.evoke, UnsetType):
            fields["evoke"] = ra.evoke
            if ra.evoke:
                fields["alt_cost"] = "evoke"
        if not isinstance(ra.alt_cost, UnsetType):
            alt = ra.alt_cost.strip().lower()
            if not alt:
                raise self.error(f"{path}.alt_cost", "expected the name of an alternative cost "
                                 "(evoke, prowl, ...)")
            if fields.get("alt_cost", alt) != alt:
                raise self.error(f"{path}.alt_cost", f"`evoke: true` and `alt_cost: "
                                 f"{plain(alt)}` name two different costs")
            fields["alt_cost"] = alt
        if not isinstance(ra.ability, UnsetType):
            fields["ability"] = self._ability(ra.ability, f"{path}.ability")

        if verb == "attack":
            attackers: dict[str, str | None] = {}
            assert not isinstance(ra.attack, UnsetType)
            if isinstance(ra.attack, list):
                for i, a in enumerate(ra.attack):
                    self.check_ref(a, f"{path}.attack[{i}]")
                    if a in attackers:
                        raise self.error(f"{path}.attack[{i}]", f"{short(a)} attacks twice")
                    attackers[a] = None
            else:
                for a, d in ra.attack.items():
                    self.check_ref(a, f"{path}.attack{key_segment(a)}")
                    self.check_ref(d, f"{path}.attack{key_segment(a)}", player_ok=True)
                    attackers[a] = d
            if not attackers:
                raise self.error(
                    f"{path}.attack", "expected at least one attacker (use `pass_until` to skip)"
                )
            fields["attackers"] = attackers
        elif verb == "block":
            assert not isinstance(ra.block, UnsetType)
            blocks: dict[str, str | list[str]] = {}
            for b, blocked in ra.block.items():
                self.check_ref(b, f"{path}.block{key_segment(b)}")
                if isinstance(blocked, list):
                    if not blocked:
                        raise self.error(f"{path}.block{key_segment(b)}",
                                         "expected the attackers it blocks")
                    for i, one in enumerate(blocked):
                        self.check_ref(one, f"{path}.block{key_segment(b)}[{i}]")
                        if one in blocked[:i]:
                            raise self.error(f"{path}.block{key_segment(b)}[{i}]",
                                             f"{short(one)} is named twice")
                    blocks[b] = list(blocked)
                else:
                    self.check_ref(blocked, f"{path}.block{key_segment(b)}")
                    blocks[b] = blocked
            fields["blocks"] = blocks
        elif verb == "resolve":
            r = ra.resolve
            if isinstance(r, bool) or not ((isinstance(r, int) and r >= 1) or r == "all"):
                raise self.error(
                    f"{path}.resolve",
                    f"expected an integer >= 1 or `all`, got {describe_value(r)}",
                )
            fields["resolve"] = r
        elif verb == "pass_until":
            fields["pass_until"] = ra.pass_until
        elif verb in ("mulligan", "keep"):
            if getattr(ra, verb) is not True:
                raise self.error(f"{path}.{verb}", f"expected `{verb}: true`")
            if verb == "mulligan" and ra.refused is True:
                raise self.error(f"{path}.refused", "a mulligan can't be refused")
            if not isinstance(ra.bottom, UnsetType):
                for i, name in enumerate(ra.bottom):
                    self.check_ref(name, f"{path}.bottom[{i}]")
                fields["bottom"] = list(ra.bottom)
        elif verb == "check":
            assert not isinstance(ra.check, UnsetType)
            fields["check"] = [
                self._expectation(e, f"{path}.check[{i}]") for i, e in enumerate(ra.check)
            ]
        return Action(**fields)

    _LOYALTY = re.compile(r"[+\-\u2212]([0-9]{1,9}|X)")

    def _ability(self, value: str | int, path: str) -> str | int:
        if isinstance(value, bool):
            raise self.error(path, 'expected a loyalty cost like "+1" or an ability index')
        if isinstance(value, int):
            if value >= 1:
                return int(value)
            return str(value)  # 0 or a negative loyalty cost written unquoted
        text = value.strip()
        if text == "0":
            return "0"
        if self._LOYALTY.fullmatch(text):
            return text.replace("\u2212", "-")
        if re.fullmatch(r"[0-9]{1,9}", text) and int(text) >= 1:
            return int(text)
        raise self.error(
            path,
            'expected a loyalty cost ("+1", "-1", "-X", "0") or the 1-based index '
            f"of an activated ability, got {short(value)}",
        )

    # -- answers ---------------------------------------------------------------

    def _answer(self, raw: _RawAnswer, path: str) -> Answer:
        kinds = [k for k in ANSWER_KINDS if getattr(raw, k) is not UNSET]
        if not kinds:
            raise self.error(path, f"an answer needs one of the keys {', '.join(ANSWER_KINDS)}")
        if len(kinds) > 1:
            raise self.error(
                path, f"an answer has exactly one decision key, got {', '.join(kinds)}"
            )
        kind = kinds[0]
        kpath = f"{path}.{kind}"
        player: str | None = None
        if not isinstance(raw.player, UnsetType):
            player = raw.player
            self.check_player(player, f"{path}.player")
        v: Any = getattr(raw, kind)
        value: Any
        if kind == "redirect":
            if v is None or v is False or (isinstance(v, str) and v.lower() == "no"):
                value = None
            elif isinstance(v, str):
                self.check_ref(v, kpath)
                value = v
            else:
                raise self.error(kpath, "expected a planeswalker's name or `no`, got yes")
        elif kind == "champion":
            if v is None or v is False or (isinstance(v, str) and v.lower() in ("none", "no")):
                value = None
            elif isinstance(v, str):
                self.check_ref(v, kpath)
                value = v
            else:
                raise self.error(kpath, "expected a permanent's name or `none`, got yes")
        elif kind in ("may", "pay"):
            if isinstance(v, bool):
                value = v
            elif v.lower() in ("yes", "true"):
                value = True
            elif v.lower() in ("no", "false"):
                value = False
            else:
                raise self.error(kpath, f"expected yes or no, got {short(v)}")
        elif kind == "arrange":
            for side in ("top", "bottom"):
                for i, name in enumerate(getattr(v, side)):
                    self.check_ref(name, f"{kpath}.{side}[{i}]")
            if not v.top and not v.bottom:
                raise self.error(kpath, "expected `top` and/or `bottom`: the looked-at cards, "
                                 "each list top first")
            value = v
        elif kind in ("hideaway", "target"):
            self.check_ref(v, kpath, player_ok=kind == "target")
            value = v
        elif kind == "order":
            for i, name in enumerate(v):
                base, ability = split_ability_ref(name)
                if ability == 0:
                    raise self.error(f"{kpath}[{i}]", f"expected NAME#N with N >= 1, got "
                                     f"{short(name)}")
                self.check_ref(base, f"{kpath}[{i}]")
            value = list(v)
        elif kind in ("targets", "discard"):
            for i, name in enumerate(v):
                self.check_ref(name, f"{kpath}[{i}]", player_ok=kind == "targets")
            value = list(v)
        elif kind == "new_targets":
            if v is False or (isinstance(v, str) and v.lower() == "no"):
                value = None
            elif isinstance(v, list):
                for i, name in enumerate(v):
                    self.check_ref(name, f"{kpath}[{i}]", player_ok=True)
                value = list(v)
            else:
                raise self.error(kpath, "expected a list of new targets, or `no` (keep the "
                                 "original's targets)")
        elif kind == "choose":
            value = [v] if isinstance(v, str) else list(v)
        elif kind == "assign":
            for name in v:
                self.check_ref(name, f"{kpath}{key_segment(name)}", player_ok=True)
            value = dict(v)
        elif kind == "modes":
            value = list(v)
        else:  # clash, mode, x
            value = v
        return Answer(kind=kind, value=value, player=player, where=path)

    # -- expectations ------------------------------------------------------------

    def _expectation(self, raw: _RawExpectation, path: str) -> Expectation:
        present = {
            f.encode_name
            for f in struct_fields(_RawExpectation)
            if getattr(raw, f.name) is not UNSET
        }
        if not present:
            raise self.error(path, "an expectation needs at least one key")
        count = raw.count
        count_is_filter = isinstance(count, CountFilter)
        count_is_number = "count" in present and not count_is_filter

        # every key must belong to a subject that is present
        for key in PLAYER_EXPECT_KEYS:
            if key in present and "player" not in present:
                raise self.error(f"{path}.{key}", f"`{key}` needs `player`")
        for key in CARD_EXPECT_KEYS:
            if key in present and "card" not in present:
                raise self.error(f"{path}.{key}", f"`{key}` needs `card`")
        if "player" in present and not present & set(PLAYER_EXPECT_KEYS):
            raise self.error(
                f"{path}.player",
                f"`player` needs one of {', '.join(PLAYER_EXPECT_KEYS)}",
            )
        if "card" in present and not present & set(CARD_EXPECT_KEYS):
            raise self.error(f"{path}.card", f"`card` needs one of {', '.join(CARD_EXPECT_KEYS)}")
        if "log_has" in present:
            if count_is_filter:
                raise self.error(
                    f"{path}.count",
                    "with `log_has`, `count` is a number of events, not a FILTER",
                )
            bounds = present & {"count", "min", "max"}
            if not bounds:
                raise self.error(f"{path}.log_has", "`log_has` needs `count`, `min` or `max`")
            if "count" in bounds and len(bounds) > 1:
                raise self.error(f"{path}.count", "`count` can't be combined with `min`/`max`")
        else:
            for key in ("min", "max"):
                if key in present:
                    raise self.error(f"{path}.{key}", f"`{key}` needs `log_has`")
            if count_is_number:
                raise self.error(
                    f"{path}.count",
                    "expected a FILTER mapping (name, zone, controller, owner, type, "
                    "subtype, token, tapped), or `log_has` with a number of events",
                )
        if count_is_filter and "equals" not in present:
            raise self.error(f"{path}.count", "`count` needs `equals`")
        if "equals" in present and not count_is_filter:
            raise self.error(f"{path}.equals", "`equals` needs a `count` FILTER")

        # names
        def opt(value: Any) -> Any:
            return None if isinstance(value, UnsetType) else value

        for key in ("player", "winner", "controller", "owner"):
            value = opt(getattr(raw, key))
            if value is not None:
                self.check_player(value, f"{path}.{key}")
        if not isinstance(raw.card, UnsetType):
            self.check_ref(raw.card, f"{path}.card")
        if not isinstance(raw.attached_to, UnsetType):
            if raw.attached_to in self.players:
                raise self.error(
                    f"{path}.attached_to",
                    f"expected a permanent, got the player {short(raw.attached_to)}",
                )
            self.check_ref(raw.attached_to, f"{path}.attached_to")
        for key in ("library_top", "library_bottom"):
            names = opt(getattr(raw, key))
            if names is not None:
                for i, name in enumerate(names):
                    self.check_ref(name, f"{path}.{key}[{i}]")
        if isinstance(count, CountFilter):
            for key in ("controller", "owner"):
                value = getattr(count, key)
                if value is not None:
                    self.check_player(value, f"{path}.count.{key}")
            if count.name is not None:
                self.check_ref(count.name, f"{path}.count.name")
        if not isinstance(raw.log_has, UnsetType):
            if not raw.log_has.strip():
                raise self.error(f"{path}.log_has", "expected an event type name")
            self.check_event(raw.log_has, f"{path}.log_has")

        return Expectation(
            where=path,
            player=opt(raw.player),
            life=opt(raw.life),
            hand_size=opt(raw.hand_size),
            library_size=opt(raw.library_size),
            graveyard_size=opt(raw.graveyard_size),
            library_top=opt(raw.library_top),
            library_bottom=opt(raw.library_bottom),
            lost=opt(raw.lost),
            winner=opt(raw.winner),
            draw=opt(raw.draw),
            card=opt(raw.card),
            zone=opt(raw.zone),
            loyalty=opt(raw.loyalty),
            counters=opt(raw.counters),
            power=opt(raw.power),
            toughness=opt(raw.toughness),
            damage=opt(raw.damage),
            tapped=opt(raw.tapped),
            controller=opt(raw.controller),
            owner=opt(raw.owner),
            types=opt(raw.types),
            has_subtypes=opt(raw.has_subtypes),
            lacks_subtypes=opt(raw.lacks_subtypes),
            has_ability=opt(raw.has_ability),
            lacks_ability=opt(raw.lacks_ability),
            attached_to=opt(raw.attached_to),
            face_down=opt(raw.face_down),
            count=count if isinstance(count, CountFilter) else None,
            equals=opt(raw.equals),
            stack_size=opt(raw.stack_size),
            log_has=opt(raw.log_has),
            log_count=None if count_is_filter else opt(count),
            log_min=opt(raw.min),
            log_max=opt(raw.max),
        )

