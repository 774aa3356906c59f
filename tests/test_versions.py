"""Versions that mean something (docs/log-format.md, "Versions").

The reference games' digests (bench/reference-digests.txt) are tied to the versions the
kernel runs: ``mtgk.RULES_REVISION`` and every card set's version.  A change of the
events the kernel emits for the same decisions changes the digests, and must come with a
bump of a version; these tests fail when the digests change and the versions did not.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import mtgk
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header
from mtgk.games.versions import Versions, differences, of_header, running, same_rules
from mtgk.log.logfile import LogHeader, decode_log, encode_log

ROOT = Path(__file__).resolve().parents[1]
DIGESTS = ROOT / "bench" / "reference-digests.txt"
REG = load_registry()


def _reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reference", ROOT / "bench" / "reference.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("reference", mod)
    spec.loader.exec_module(mod)
    return mod


reference = _reference()


def test_the_reference_games_digests_are_those_recorded_for_the_running_versions() -> None:
    """Fails when the events of the reference games change and no version was bumped
    (or a version was bumped and the digests were not recorded under it)."""
    rec = reference.parse(DIGESTS.read_text())
    got = reference.digests()
    key = reference.versions_key()
    assert reference.problems(rec, key, got) == []
    assert f"rules={mtgk.RULES_REVISION} " in key + " "


def test_changed_digests_under_the_same_versions_are_refused(tmp_path: Path) -> None:
    lines = ["aaa bbb deck#0", "ccc ddd deck#1"]
    path = tmp_path / "digests.txt"
    ok, _ = reference.write(path, "rules=1 core=0.1.0", lines)
    assert ok
    rec = reference.parse(path.read_text())
    assert reference.problems(rec, "rules=1 core=0.1.0", lines) == []
    changed = ["aaa bbb deck#0", "eee fff deck#1"]  # one game's events changed
    found = reference.problems(rec, "rules=1 core=0.1.0", changed)
    assert len(found) == 1 and "changed but the versions did not" in found[0]
    assert "RULES_REVISION" in found[0]
    ok, message = reference.write(path, "rules=1 core=0.1.0", changed)
    assert not ok and message.startswith("refused")
    assert reference.parse(path.read_text()).lines == lines  # the file is unchanged
    # bumped: not yet recorded, then recorded after the old versions' line
    found = reference.problems(rec, "rules=2 core=0.1.0", changed)
    assert len(found) == 1 and "no digests are recorded" in found[0]
    ok, _ = reference.write(path, "rules=2 core=0.1.0", changed)
    assert ok
    rec = reference.parse(path.read_text())
    assert [k for k, _ in rec.history] == ["rules=1 core=0.1.0", "rules=2 core=0.1.0"]
    assert reference.problems(rec, "rules=2 core=0.1.0", changed) == []


def test_two_branches_that_each_changed_the_events_under_one_version_fail(
        tmp_path: Path) -> None:
    """A merge of two branches that both recorded new digests under the same versions
    leaves the versions twice in the history: the test fails until a bump."""
    text = ("# versions rules=1 core=0.1.0 fingerprint=aaaa\n"
            "# versions rules=1 core=0.1.0 fingerprint=bbbb\n"
            "x y deck#0\n")
    rec = reference.parse(text)
    assert any("recorded twice" in p for p in reference.problems(rec, "rules=1 core=0.1.0",
                                                                ["x y deck#0"]))


def test_a_digests_file_without_versions_is_not_tied() -> None:
    rec = reference.parse("aaa bbb deck#0\n")
    assert rec.history == [] and rec.lines == ["aaa bbb deck#0"]
    assert "no digests are recorded" in reference.problems(rec, "rules=1", rec.lines)[0]


def test_bumping_the_rules_revision_does_not_change_the_digests(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reference, "GAMES_PER_DECK", 1)
    before = reference.digests()
    monkeypatch.setattr(mtgk, "RULES_REVISION", mtgk.RULES_REVISION + 1)
    assert reference.digests() == before
    assert reference.versions_key().startswith(f"rules={mtgk.RULES_REVISION} ")


def test_new_logs_record_the_rules_revision_and_old_ones_read_as_not_recorded() -> None:
    header = new_header(REG, ["A", "B"], [["20 Forest"], ["20 Forest"]], seed=1)
    assert header.rules_revision == mtgk.RULES_REVISION >= 1
    back = decode_log(encode_log(header, []))
    assert back.header.rules_revision == mtgk.RULES_REVISION
    old = LogHeader(kernel_version="0.1.0", cardsets=[("core", "0.1.0")], players=["A", "B"],
                    seed=1)
    assert of_header(old).rules == 0
    assert b"rules_revision" not in encode_log(old, [])  # (an old header keeps its bytes)
    assert "not recorded" in of_header(old).describe()


def test_which_version_differences_make_other_rules() -> None:
    now = Versions("0.1.0", 3, (("core", "0.1.0"), ("lorwyn", "0.2.0")))
    assert same_rules(Versions("9.9.9", 3, (("core", "0.1.0"),)), now)  # the release: no
    assert differences(Versions("0.1.0", 2, (("core", "0.1.0"),)), now) == [
        "rules revision 2 in the log, 3 now"]
    assert differences(Versions("0.1.0", 3, (("lorwyn", "0.1.0"),)), now) == [
        "card set 'lorwyn' 0.1.0 in the log, 0.2.0 now".replace("'", "")]
    assert differences(Versions("0.1.0", 3, (("gone", "1"),)), now) == [
        "card set gone 1 in the log, not loaded now"]
    assert running(REG).rules == mtgk.RULES_REVISION
