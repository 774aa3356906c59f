"""The catalog (mtgk.cards.catalog): `mtgk --version`, `sets` and `cards` answered from a
cache of what is installed, without loading the card sets (issue 29) -- the same words as
the full command line, and never a stale card: a pack changed on disk is loaded again."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mtgk.cards import catalog as cat
from mtgk.cards.loading import load_registry
from tests.conftest import fake_dist, run_mtgk


def _mtgk(*argv: str, cache: Path, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MTGK_CACHE_DIR": str(cache)}
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "mtgk", *argv], capture_output=True,
                          text=True, env=env, timeout=120)


def test_the_catalog_is_the_registrys() -> None:
    c = cat.from_registry(load_registry())
    assert cat.catalog() == c
    assert [s.name for s in c.sets] == sorted(s.name for s in c.sets)
    assert any(card.name == "Shock" and card.set_code == "core" for card in c.cards)


@pytest.mark.parametrize("argv", [["--version"], ["sets"], ["cards", "Shock", "--text"],
                                  ["cards", "--set", "core"], ["cards", "no such card"]])
def test_the_kept_catalog_says_what_loading_says(tmp_path: Path, argv: list[str]) -> None:
    first = _mtgk(*argv, cache=tmp_path)  # loads the sets, keeps the catalog
    assert list(tmp_path.glob("catalog-*.json")), first.stderr
    second = _mtgk(*argv, cache=tmp_path)  # from the catalog
    assert (second.returncode, second.stdout) == (first.returncode, first.stdout)
    code, out, _ = run_mtgk(*argv)
    assert (code, out) == (first.returncode, first.stdout)


def test_no_cache_when_asked(tmp_path: Path) -> None:
    env_cache = tmp_path / "c"
    r = subprocess.run([sys.executable, "-m", "mtgk", "--version"], capture_output=True,
                       text=True, timeout=120,
                       env={**os.environ, "MTGK_CACHE_DIR": str(env_cache), "MTGK_NO_CACHE": "1"})
    assert r.returncode == 0 and not env_cache.exists()


PACK = '''\
from mtgk.cards.definitions import CardFacts, CardSetInfo
from mtgk.cards.loading import hookimpl
from mtgk.cards.dsl import CardSet

S = CardSet("staleness", "0.0.1", __file__, facts="no-such-file.json")
S.facts = {{n: CardFacts(name=n, mana_cost="{{1}}", mana_value=1, types=("Artifact",),
                         type_line="Artifact", oracle_text="")
           for n in {names!r}}}
for n in {names!r}:
    S.vanilla(n)


class Pack:
    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [S.info()]


pack = Pack()
'''


def test_a_changed_pack_is_never_served_stale(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "stale_pack").mkdir(parents=True)
    fake_dist(site, "stale_pack", "mtgk.cardsets", "staleness", "stale_pack:pack")
    src = site / "stale_pack" / "__init__.py"
    src.write_text(PACK.format(names=["Old Trinket"]))
    cache = tmp_path / "cache"
    assert "Old Trinket" in _mtgk("cards", "Trinket", cache=cache, path=site).stdout
    assert "Old Trinket" in _mtgk("cards", "Trinket", cache=cache, path=site).stdout
    time.sleep(0.01)
    src.write_text(PACK.format(names=["Old Trinket", "New Trinket"]))  # the pack changed
    r = _mtgk("cards", "Trinket", cache=cache, path=site)
    assert "New Trinket" in r.stdout and "2 card(s)" in r.stdout, r.stdout + r.stderr
    without = _mtgk("cards", "Trinket", cache=cache)  # the pack uninstalled
    assert "Trinket" not in without.stdout.replace("0 card(s)", "")


def test_the_fingerprint_follows_a_packs_files(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    (site / "stale_pack").mkdir(parents=True)
    src = site / "stale_pack" / "__init__.py"
    src.write_text(PACK.format(names=["Old Trinket"]))
    bare = cat.fingerprint()
    fake_dist(site, "stale_pack", "mtgk.cardsets", "staleness", "stale_pack:pack")
    monkeypatch.syspath_prepend(str(site))
    installed = cat.fingerprint()
    assert installed != bare and cat.fingerprint() == installed
    (site / "stale_pack" / "cards.json").write_text("{}")  # a file added to the pack
    assert cat.fingerprint() != installed
