"""The archive of real logs (tests/archive/): every kernel that has been on main wrote
some, and every later kernel must read, replay, explain, diff and view them, and verify
them with the verdict tests/archive/VERDICTS.txt names (docs/debugging.md).

A log written by other rules (an older rules revision) verifies as ``other-rules``, exit
status 4, never the word FAILED; the same log with a byte changed still fails (exit 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtgk.cards.loading import load_registry
from mtgk.games.replay import verify
from mtgk.log.logfile import read_jsonl, read_log
from tests.conftest import run_mtgk as run

ARCHIVE = Path(__file__).parent / "archive"
VERDICTS = dict(line.split() for line in (ARCHIVE / "VERDICTS.txt").read_text().splitlines()
                if line.strip())
LOGS = sorted(VERDICTS)
STATUS = {"ok": 0, "other-rules": 4, "incomplete": 3}
REG = load_registry()

pytestmark = pytest.mark.usefixtures("reset_structlog")


def _read(name: str):  # type: ignore[no-untyped-def]
    path = ARCHIVE / name
    return read_jsonl(path, strict=True) if name.endswith(".jsonl") else read_log(
        path, strict=True)


def test_the_archive_lists_every_log_it_holds() -> None:
    held = sorted(str(p.relative_to(ARCHIVE)) for p in ARCHIVE.rglob("*")
                  if p.suffix in (".mtgk", ".jsonl"))
    assert held == LOGS
    kinds = {p.split("/")[0] for p in LOGS}
    assert {"e0f947f", "f690e4e", "93154b3"} <= kinds
    assert set(VERDICTS.values()) <= set(STATUS)


def _verdict(out: str) -> str:
    """Verify's verdict: its first line but the notes on card set and kernel versions."""
    return next(line for line in out.splitlines() if not line.startswith("note:"))


@pytest.mark.parametrize("name", LOGS)
def test_verify_gives_the_archived_verdict(name: str) -> None:
    code, out, err = run("verify", ARCHIVE / name)
    want = VERDICTS[name]
    assert code == STATUS[want], out + err
    assert "FAILED" not in out + err
    code_j, out_j, _ = run("verify", ARCHIVE / name, "--json")
    obj = json.loads(out_j)
    assert code_j == code and obj["exit"] == code
    assert obj["result"] == {"ok": "verified"}.get(want, want)
    if want == "other-rules":
        first = _verdict(out)
        assert first.startswith("OTHER RULES: the log is intact but was written by other rules")
        assert "first differs at event" in first
        assert "written by: kernel" in out and "running:    kernel" in out
        # no revision recorded (0: before 2026-12-02), or an older one (93154b3: 2)
        written = obj["written_by"]["rules_revision"]
        assert written == (2 if name.startswith("93154b3/") else 0)
        assert obj["running"]["rules_revision"] > written
        assert obj["divergence"]["seq"] >= 0
        lf = _read(name)
        report = verify(lf.header, lf.envelopes, REG)
        assert report.verdict == "other-rules" and report.other_rules


@pytest.mark.parametrize("name", LOGS)
def test_every_archived_log_reads_replays_explains_diffs_and_views(
        name: str, tmp_path: Path) -> None:
    path = ARCHIVE / name
    lf = _read(name)
    n = len(lf.envelopes)
    assert n > 10 and not lf.problems and not lf.breaks
    code, out, err = run("log", path)
    assert code == 0, err
    assert len(out.splitlines()) == n
    code, out, err = run("log", path, "--json")
    assert code == 0, err
    assert len(out.splitlines()) == n + 1
    for at in (0, n // 2, n - 1):
        code, out, err = run("replay", path, "--at", at)
        assert code == 0, err
        assert out.startswith(f"After {at} ")
    code, out, err = run("replay", path, "--at", n - 1, "--as", lf.header.players[0])
    assert code == 0, err
    code, out, err = run("explain", path, n - 1)
    assert code == 0, err
    assert out.startswith(f"event {n - 1}:")
    code, out, err = run("diff", path, 0, n - 1)
    assert code == 1, err  # (a game changes between its first and last events)
    code, out, err = run("view", path, "--out", tmp_path / "game.html")
    assert code == 0, err
    assert (tmp_path / "game.html").stat().st_size > 1000


def test_a_byte_changed_in_an_old_log_still_fails(tmp_path: Path) -> None:
    data = bytearray((ARCHIVE / "e0f947f/game-s7.mtgk").read_bytes())
    data[len(data) // 2] ^= 0x55
    bad = tmp_path / "bad.mtgk"
    bad.write_bytes(bytes(data))
    code, out, _ = run("verify", bad)
    assert code == 1
    assert _verdict(out).startswith("FAILED:")
    code, out, _ = run("verify", bad, "--json")
    assert json.loads(out)["result"] == "failed"


def test_an_old_log_relabelled_as_todays_rules_fails(tmp_path: Path) -> None:
    """A log that claims the rules running now and re-runs differently is damaged or
    edited: FAILED, as before."""
    import mtgk
    from mtgk.cards.loading import load_registry
    from mtgk.log.logfile import write_jsonl

    lf = _read("e0f947f/game-s7.mtgk")
    lf.header.rules_revision = mtgk.RULES_REVISION
    reg = load_registry()
    lf.header.cardsets = [(n, reg.sets[n].version) for n in sorted(reg.sets)]
    path = tmp_path / "claims-today.jsonl"
    write_jsonl(path, lf.header, lf.envelopes)
    code, out, _ = run("verify", path)
    assert code == 1, out
    assert _verdict(out).startswith("FAILED: diverges at event 83")


def test_diff_of_the_same_game_by_two_kernels_finds_where_they_part() -> None:
    code, out, err = run("diff", ARCHIVE / "e0f947f/game-s7.mtgk", ARCHIVE / "f690e4e/game-s7.mtgk")
    assert code == 1, err
    assert "first difference at event" in out
