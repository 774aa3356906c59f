"""docs/pack-authors.md names every public name of the card-writing API (issue 14), as
tests/test_plugins.py checks the hookspecs are documented, and its examples run (issue 22)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import mtgk.cards.altcosts
import mtgk.cards.damage
import mtgk.cards.dsl
import mtgk.cards.filters
import mtgk.cards.history
import mtgk.cards.keywords
from mtgk.cards.definitions import CardFacts, CardSetInfo, load_facts
from mtgk.cards.dsl import CardSet
from mtgk.cards.effects import Ctx
from mtgk.cards.loading import hookimpl, load_registry
from tests.conftest import play_scenario

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "pack-authors.md").read_text()


def public_names() -> list[str]:
    names: list[str] = []
    for m in (mtgk.cards.dsl, mtgk.cards.altcosts, mtgk.cards.history, mtgk.cards.keywords,
              mtgk.cards.damage):
        names += m.__all__
    names += [n for n, _ in inspect.getmembers(Ctx) if not n.startswith("_")]
    return names


def test_every_public_name_of_the_card_writing_api_is_documented() -> None:
    missing = [n for n in public_names()
               if f"`{n}" not in DOC and f".{n}(" not in DOC and f"c.{n}" not in DOC]
    assert not missing, f"docs/pack-authors.md doesn't name: {missing}"


# ------------------------------------------------------------------ the runnable examples
# A block of code marked "```python example" runs: its cards go into a card set of their
# own (``S``, the facts below or the example pack's), which is loaded beside the installed
# sets as a pack would be; each "```yaml example" scenario after it is played.

EXAMPLE = re.compile(r"```(python|yaml) example\n(.*?)```", re.S)
EXAMPLE_PACK_FACTS = ROOT / "examples" / "example-pack" / "mtgk_example_pack" / "cards.json"


def _f(name: str, cost: str, types: tuple[str, ...], mv: int, subtypes: tuple[str, ...] = (),
       pt: tuple[int, int] | None = None, colors: tuple[str, ...] = (), text: str = ""
       ) -> CardFacts:
    return CardFacts(name=name, mana_cost=cost, mana_value=mv, types=types, subtypes=subtypes,
                     colors=colors, type_line=" ".join(types), oracle_text=text,
                     power=None if pt is None else str(pt[0]),
                     toughness=None if pt is None else str(pt[1]))


DOC_FACTS = {f.name: f for f in [
    _f("Some Exiler", "{W}", ("Instant",), 1, colors=("W",)),
    _f("Kicked Bolt", "{R}", ("Instant",), 1, colors=("R",)),
    _f("Doc Wings", "{1}{W}", ("Enchantment",), 2, ("Aura",), colors=("W",)),
    _f("Doc Sickle", "{1}{B}", ("Creature",), 2, ("Elf",), (1, 1), ("B",)),
    _f("Doc Ward", "{1}{W}", ("Enchantment",), 2, colors=("W",)),
    _f("Doc Twincast", "{U}{U}", ("Instant",), 2, colors=("U",)),
    _f("Doc Ambush", "{R}", ("Instant",), 1, colors=("R",)),
    _f("Doc Clone", "{3}{U}", ("Creature",), 4, ("Shapeshifter",), (0, 0), ("U",)),
    CardFacts(name="Doc Treefolk", mana_cost="{3}{G}", mana_value=4, types=("Creature",),
              subtypes=("Treefolk",), colors=("G",), type_line="Creature - Treefolk",
              oracle_text="Doc Treefolk's power and toughness are each equal to the number "
              "of Forests you control.", power="*", toughness="*"),
    _f("Doc Skeleton", "{1}{B}", ("Creature",), 2, ("Skeleton",), (1, 1), ("B",),
       "{B}: Regenerate Doc Skeleton."),
    _f("Doc Everlasting", "{2}{B}{G}", ("Creature",), 4, ("Elf",), (2, 2), ("B", "G"),
       "Other creatures you control have persist."),
]} | {f.name: f for f in load_facts(EXAMPLE_PACK_FACTS)}


class DocSet(CardSet):
    """The card set of one example: its facts are :data:`DOC_FACTS`."""

    def __init__(self, name: str) -> None:
        super().__init__(name, "0.0.1", __file__, facts="no-such-file.json")
        self.facts = dict(DOC_FACTS)


def examples() -> list[tuple[str, list[str]]]:
    """Each python example with the scenarios that follow it."""
    out: list[tuple[str, list[str]]] = []
    for lang, text in EXAMPLE.findall(DOC):
        if lang == "python":
            out.append((text, []))
        else:
            assert out, "a yaml example before any python example"
            out[-1][1].append(text)
    return out


def test_the_doc_has_runnable_examples() -> None:
    found = examples()
    assert len(found) >= 8 and all(scenarios for _code, scenarios in found)


@pytest.mark.parametrize("i", range(len(examples())))
def test_an_example_of_the_doc_runs(i: int) -> None:
    code, scenarios = examples()[i]
    S = DocSet(f"doc-example-{i}")
    namespace: dict[str, object] = {name: getattr(mtgk.cards.dsl, name)
                                    for name in mtgk.cards.dsl.__all__}
    namespace |= {name: getattr(mtgk.cards.filters, name) for name in (
        "creature", "creature_or_player", "player", "kind", "card_in_graveyard",
        "creature_card", "artifact")}
    namespace |= {"S": S, "Ctx": Ctx, "__name__": f"doc_example_{i}"}
    exec(compile(code, f"docs/pack-authors.md example {i}", "exec"), namespace)

    class Pack:
        @hookimpl
        def mtgk_cardsets(self) -> list[CardSetInfo]:
            return [S.info()]

    reg = load_registry(extra=[(S.name, Pack())])
    assert S.name in reg.sets, reg.failures
    for text in scenarios:
        res = play_scenario(text, reg)
        assert res.passed, f"example {i}: {res.reason}"
