"""Fuzzing the scenario loader (mtgk.scenario.reader): every input loads or is refused
with one ScenarioFileError line naming the file, never another exception, in bounded
time, and the file is never changed.

Inputs: random YAML values dumped as YAML (scenario keys, wrong types, huge integers,
unicode), mutations of valid scenarios (cut, spliced, tagged, aliased), raw YAML token
soup (tags, anchors, merge keys, directives, byte-order marks), alias bombs, deep
nesting, and bytes that are not UTF-8.

``MTGK_FUZZ_EXAMPLES`` sets the number of inputs per test (default: a CI-sized run);
``MTGK_FUZZ_STATS=FILE`` appends the outcome of every input to FILE (a line each:
``loaded`` / ``refused`` and the seconds it took) for the campaign figures in docs/reliability.md.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.log.events import EVENT_TYPES
from mtgk.scenario.errors import ScenarioFileError
from mtgk.scenario.reader import load_scenarios
from tests.conftest import is_utf8

EXAMPLES = int(os.environ.get("MTGK_FUZZ_EXAMPLES", "150"))
STATS = os.environ.get("MTGK_FUZZ_STATS")
SECONDS_PER_INPUT = 10.0
"""A generous bound: loading takes milliseconds; an input near it is a bug (e.g. aliases)."""

FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

REG: Registry = load_registry()

SEEDS = [
    """\
name: shock-the-bears
description: a plain one
strict: true
players:
  alice: {life: 20, battlefield: [Mountain, {card: Jace Beleren, as: jace, counters: {loyalty: 3}}],
          hand: [Shock], library: [Forest, Island]}
  bob: {battlefield: [Grizzly Bears, {card: Forest, tapped: true}], exile: []}
turn: {number: 3, active: alice, step: precombat_main}
actions:
  - {player: alice, cast: Shock, targets: [Grizzly Bears]}
  - {resolve: all, answers: [{may: yes}, {clash: top, player: bob}]}
  - {player: alice, activate: jace, ability: "+2"}
  - {pass_until: {turn: 4, step: upkeep}}
  - {check: [{stack_size: 0}]}
expect:
  - {card: Grizzly Bears, zone: graveyard}
  - {player: bob, life: 20, hand_size: 2}
  - {count: {name: Forest, zone: battlefield, controller: bob}, equals: 1}
  - {log_has: DamageDealt, count: 1}
  - {log_has: Clashed, min: 0, max: 3}
""",
    """\
scenarios:
  - name: attack
    players:
      alice: {battlefield: [{card: Grizzly Bears, as: bears, sick: false}]}
      bob: {battlefield: [{card: Garruk Wildspeaker, as: garruk}]}
    actions:
      - {player: alice, attack: {bears: garruk}}
      - {player: bob, block: {}}
      - {pass_until: {turn: 1, step: end}}
    expect:
      - {card: garruk, loyalty: 1}
  - name: roles
    players:
      alice:
        battlefield: [{card: Grizzly Bears, as: b}, {card: Monster Role, token: true, attached_to: b}]
        exile: [{card: Shock, face_down: true, exiled_with: b}]
      bob: {}
    expect:
      - {card: Monster Role, attached_to: b}
      - {card: b, power: 3, toughness: 3, has_subtypes: [Bear], lacks_ability: flying}
""",
]

WORDS = [
    "name", "description", "strict", "players", "turn", "actions", "expect", "scenarios",
    "alice", "bob", "life", "battlefield", "hand", "library", "graveyard", "exile", "card",
    "as", "tapped", "sick", "counters", "token", "attached_to", "face_down", "exiled_with",
    "controller", "number", "active", "step", "player", "cast", "play", "activate", "attack",
    "block", "resolve", "pass_until", "check", "targets", "modes", "x", "evoke", "ability",
    "answers", "refused", "redirect", "clash", "hideaway", "champion", "target", "mode", "may",
    "choose", "order", "assign", "discard", "zone", "loyalty", "power", "toughness", "owner",
    "types", "has_subtypes", "lacks_subtypes", "has_ability", "lacks_ability", "count",
    "equals", "stack_size", "log_has", "min", "max", "winner", "lost", "hand_size", "all",
    "upkeep", "precombat_main", "Shock", "Forest", "Grizzly Bears", "Jace Beleren", "Beast",
    "DamageDealt", "Clashed", "CounterPlaced", "top", "bottom", "yes", "no", "none", "+1",
    "-X", "0",
]
TOKENS = [
    "{", "}", "[", "]", ": ", ", ", "- ", "\n", "\n  ", "\n    ", "  ", "&a ", "&b ", "*a", "*b",
    "!!int ", "!!str ", "!!float ", "!!bool ", "!!null ", "!!timestamp ", "!!binary ",
    "!!set ", "!!omap ", "!!pairs ", "!!seq ", "!!map ", "!!merge ", "!!value ",
    "!!python/object:os.system ", "!unknown ", "!<tag:yaml.org,2002:int> ", "<<: ", "? ",
    "|\n  ", ">-\n  ", "'", '"', "# c\n", "%YAML 1.1\n", "%TAG ! tag:x,2000:\n", "---\n",
    "...\n", "\ufeff", "9" * 50, "9" * 5000, "-" + "9" * 30, "0x" + "f" * 20, "0o17", "1:30:00",
    "1e400", ".nan", "-.inf", "2001-12-14", "~", "null", "yes", "off", "\t", "\x85", "\u2028",
    "\x00", "\x07", "é", "名前", "🂡", "\\u00e9",
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-scenarios")


def check(folder: Path, data: str | bytes) -> str:
    """Load ``data`` as a scenario file: ``"loaded"`` or ``"refused"`` (a clean
    ScenarioFileError); anything else fails the test."""
    path = folder / "fuzz.yaml"
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    path.write_bytes(raw)
    start = time.perf_counter()
    try:
        scenarios = load_scenarios(path, known_card=REG.__contains__,
                                   known_event=EVENT_TYPES.__contains__)
        outcome = "loaded"
        assert scenarios and all(s.file == str(path) for s in scenarios)
    except ScenarioFileError as err:
        message = str(err)
        assert message.startswith(f"{path}: "), message
        assert "\n" not in message and "\r" not in message, message
        assert len(message) < 2_000, message[:200]
        outcome = "refused"
    elapsed = time.perf_counter() - start
    assert elapsed < SECONDS_PER_INPUT, f"{elapsed:.1f} s for one input"
    assert path.read_bytes() == raw, "the loader changed the file"
    if STATS:
        with open(STATS, "a", encoding="utf-8") as out:
            out.write(f"{outcome} {elapsed:.4f}\n")
    return outcome


# -- strategies --------------------------------------------------------------

def huge_ints() -> st.SearchStrategy[int | str]:
    """Integers around the limits, and integers written with thousands of digits."""
    return st.one_of(
        st.integers(),
        st.sampled_from([2**31, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**70, -(2**64),
                         10**9, 10**9 + 1, -(10**9) - 1]),
        st.integers(min_value=20, max_value=4000).map(lambda n: int("9" * n)),
    )


scalars = st.one_of(
    st.none(), st.booleans(), huge_ints(), st.floats(), st.sampled_from(WORDS),
    st.text(max_size=20), st.text(st.characters(codec="utf-8"), max_size=8),
)
keys = st.one_of(st.sampled_from(WORDS), st.text(max_size=10), st.integers(), st.booleans())
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(keys, inner, max_size=6)),
    max_leaves=40,
)


def dump(value: object) -> str:
    return yaml.safe_dump(value, allow_unicode=True, width=10**9)


@st.composite
def scenario_shaped(draw: st.DrawFn) -> str:
    """A mapping with scenario keys, some parts right and some random."""
    def part(good: object) -> object:
        return draw(st.one_of(st.just(good), values))

    data: dict[object, object] = {
        "name": part("fuzz"),
        "players": part({"alice": part({"battlefield": part(["Forest", part("Mountain")]),
                                        "life": part(20)}),
                         "bob": part({})}),
    }
    for key in draw(st.lists(st.sampled_from(["turn", "actions", "expect", "strict",
                                              "description", "bogus"]), max_size=4)):
        data[key] = part([{"player": "alice", "cast": "Shock", "targets": ["bob"]}]
                         if key == "actions" else [{"player": "bob", "life": 18}])
    if draw(st.booleans()):
        data = {"scenarios": [data, part({"name": "second"})]}
    return dump(data)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid scenario, cut, spliced with YAML tokens, or with a line repeated."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        how = draw(st.sampled_from(["cut", "insert", "replace", "repeat"]))
        snippet = draw(st.one_of(st.sampled_from(TOKENS), st.sampled_from(WORDS),
                                 st.text(max_size=6)))
        if how == "cut":
            text = text[:i] + text[j:]
        elif how == "insert":
            text = text[:i] + snippet + text[i:]
        elif how == "replace":
            text = text[:i] + snippet + text[j:]
        else:
            lines = text.splitlines(keepends=True)
            k = draw(st.integers(0, len(lines) - 1))
            text = "".join(lines[:k + 1] + [lines[k]] * draw(st.integers(1, 3)) + lines[k + 1:])
    return text


soup = st.lists(st.one_of(st.sampled_from(TOKENS), st.sampled_from(WORDS), st.text(max_size=4)),
                max_size=60).map("".join)


@st.composite
def alias_bomb(draw: st.DrawFn) -> str:
    """Aliases that multiply a document where every value has the right type: ``k1``
    uses of an action whose check list uses an expectation ``k2`` times, whose
    ``library_top`` lists ``k3`` names (or plain nested lists, in a key of any type)."""
    k1, k2, k3 = (draw(st.integers(1, 150)) for _ in range(3))
    head = "name: bomb\nplayers: {alice: {library: [Forest]}, bob: {}}\n"
    if draw(st.booleans()):
        names = ", ".join(["Forest"] * k3)
        checks = ", ".join(["*E"] * (k2 - 1))
        first = (f"  - &A {{check: &C [&E {{player: alice, library_top: &N [{names}]}}"
                 f"{', ' if checks else ''}{checks}]}}\n")
        return head + "actions:\n" + first + "".join(["  - *A\n"] * (k1 - 1))
    lines = ["  - &a0 [x]"]
    for n in range(1, k1 % 15 + 1):
        lines.append(f"  - &a{n} [" + ", ".join([f"*a{n - 1}"] * (k2 % 13 + 1)) + "]")
    key = draw(st.sampled_from(["description", "expect", "junk"]))
    return head + f"{key}:\n" + "\n".join(lines) + "\n"


@st.composite
def deep(draw: st.DrawFn) -> str:
    depth = draw(st.integers(1, 3000))
    kind = draw(st.sampled_from(["flow-list", "flow-map", "block", "alias"]))
    if kind == "flow-list":
        inner = "[" * depth + "]" * depth
    elif kind == "flow-map":
        inner = "{a: " * depth + "1" + "}" * depth
    elif kind == "block":
        depth = min(depth, 400)
        inner = "\n" + "".join("  " * (i + 1) + "- \n" for i in range(depth)) + "  " * depth + " 1"
    else:
        step = draw(st.integers(1, 49))
        inner = "[&x0 " + "[" * step + "]" * step
        for n in range(1, depth // step + 1):
            inner += f", &x{n} " + "[" * step + f"*x{n - 1}" + "]" * step
        inner += "]"
    return f"name: deep\nplayers: {{alice: {{}}, bob: {{}}}}\ndescription: {inner}\n"


@st.composite
def odd_numbers(draw: st.DrawFn) -> str:
    """A valid scenario with one number replaced by a huge, tagged or odd one."""
    text = SEEDS[0]
    spots = ["life: 20", "number: 3", "loyalty: 3", "equals: 1", "count: 1", "min: 0",
             "max: 3", "step: upkeep", 'ability: "+2"', "turn: 4", "hand_size: 2"]
    spot = draw(st.sampled_from(spots))
    key = spot.split(":")[0]
    number = draw(st.one_of(
        huge_ints().map(str),
        st.integers(4000, 20_000).map(lambda n: "9" * n),
        st.sampled_from(["!!int abc", "!!int ''", "!!int 0x", "!!float x", "!!bool maybe",
                         "!!timestamp 2001-99-99", "1:2:3:4:5:6:7:8:9", "0b" + "1" * 200,
                         "+" + "9" * 60, "-0", "0o" + "7" * 100, ".inf", "1e999", "'+" +
                         "9" * 5000 + "'", "-X", "+X", "X", "\u22121", "'\u2212" + "9" * 20 + "'",
                         "'٣'", "'²'", "!!str 5", "[1]", "{a: 1}", "&n 5", "*n"]),
    ))
    return text.replace(spot, f"{key}: {number}", 1)


unicode_text = st.text(st.characters(codec="utf-8"), max_size=300)
not_utf8 = st.binary(max_size=200).filter(lambda b: not is_utf8(b))


# -- the properties ----------------------------------------------------------


@FUZZ
@given(text=scenario_shaped())
def test_random_values_in_scenario_shape(folder: Path, text: str) -> None:
    check(folder, text)


@FUZZ
@given(value=values)
def test_random_yaml_documents(folder: Path, value: object) -> None:
    check(folder, dump(value))


@FUZZ
@given(text=mutated())
def test_mutated_valid_scenarios(folder: Path, text: str) -> None:
    check(folder, text)


@FUZZ
@given(text=soup)
def test_yaml_token_soup(folder: Path, text: str) -> None:
    check(folder, text)


@settings(FUZZ, max_examples=max(10, EXAMPLES // 5))
@given(text=alias_bomb())
def test_alias_bombs(folder: Path, text: str) -> None:
    check(folder, text)


@settings(FUZZ, max_examples=max(10, EXAMPLES // 5))
@given(text=deep())
def test_deep_nesting(folder: Path, text: str) -> None:
    check(folder, text)


@FUZZ
@given(text=odd_numbers())
def test_huge_tagged_and_odd_numbers(folder: Path, text: str) -> None:
    check(folder, text)


@FUZZ
@given(data=st.one_of(unicode_text, not_utf8, unicode_text.map(lambda t: "\ufeff" + t),
                      st.sampled_from(SEEDS).map(lambda t: "\ufeff" + t)))
def test_unicode_and_bytes(folder: Path, data: str | bytes) -> None:
    check(folder, data)


def test_the_seeds_load(folder: Path) -> None:
    """The fuzzing starts from valid scenarios (else mutating them tests little)."""
    for seed in SEEDS:
        assert check(folder, seed) == "loaded"
        assert check(folder, "\ufeff" + seed) == "loaded"
