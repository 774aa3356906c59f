"""The docs can't drift: every command block of README.md and docs/**/*.md is run.

Two kinds of fenced blocks hold commands:

* ```` ```console ```` -- a transcript: lines starting with ``$ `` are commands, the
  lines after each, up to the next command, are its expected output (standard output
  and standard error together). ``...`` alone on a line stands for any number of
  lines; ``...`` inside a line for any text (timings, sizes that vary).
* ```` ```sh ```` -- commands only, one per line (``\\`` continues a line; ``#``
  starts a comment); each must exit 0.

A command expected to exit with another status says so in a comment: ``# exit 1``.
Other blocks (``text``, ``yaml``, ``python``, synopses) are not run. The commands of
one page run in order in one scratch folder that holds links to the repository's
``bench``, ``examples``, ``tests`` and ``docs`` folders, as if run from the top of a
plain clone; install commands (``pip install``) are left to CI itself.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINKED = ("bench", "examples", "tests", "docs")
EXIT = re.compile(r"#.*\bexit (\d+)")


@dataclass
class Command:
    line: int
    text: str
    status: int = 0
    output: list[str] | None = None  # None: not checked (a ```sh block)


@dataclass
class Page:
    path: Path
    commands: list[Command] = field(default_factory=list)


def _strip_comment(cmd: str) -> str:
    """The command without a trailing ``# comment`` (outside quotes)."""
    quote = None
    for i, ch in enumerate(cmd):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or cmd[i - 1].isspace()):
            return cmd[:i].rstrip()
    return cmd.rstrip()


def _command(lineno: int, raw: str) -> Command | None:
    m = EXIT.search(raw)
    text = _strip_comment(raw)
    if not text or "pip install" in text:
        return None
    return Command(lineno, text, int(m.group(1)) if m else 0)


def parse_page(path: Path) -> Page:
    """The commands of one Markdown page, with their expected output and status."""
    page = Page(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1), i + 1
        end = start
        while end < len(lines) and not re.match(r"^\s*```\s*$", lines[end]):
            end += 1
        body = lines[start:end]
        i = end + 1
        if lang == "sh":
            pending = ""
            for k, line in enumerate(body):
                pending += line.strip() if pending else line.rstrip()
                if pending.endswith("\\"):
                    pending = pending[:-1].rstrip() + " "
                    continue
                cmd = _command(start + k + 1, pending.strip())
                pending = ""
                if cmd is not None:
                    page.commands.append(cmd)
        elif lang == "console":
            current: Command | None = None
            for k, line in enumerate(body):
                if line.startswith("$ "):
                    current = _command(start + k + 1, line[2:])
                    if current is not None:
                        current.output = []
                        page.commands.append(current)
                elif current is not None and current.output is not None:
                    current.output.append(line)
    return page


def matches(expected: list[str], got: list[str]) -> bool:
    """``got`` fits ``expected``, where ``...`` is a wildcard (a whole line: any lines)."""
    exp = [e.rstrip() for e in expected]
    while exp and not exp[-1]:
        exp.pop()
    out = [g.rstrip() for g in got]
    while out and not out[-1]:
        out.pop()

    def line_ok(e: str, g: str) -> bool:
        if "..." not in e:
            return e == g
        pattern = ".*".join(re.escape(part) for part in e.split("..."))
        return re.fullmatch(pattern, g) is not None

    def fit(i: int, j: int) -> bool:
        if i == len(exp):
            return j == len(out)
        if exp[i] == "...":
            return any(fit(i + 1, k) for k in range(j, len(out) + 1))
        return j < len(out) and line_ok(exp[i], out[j]) and fit(i + 1, j + 1)

    return fit(0, 0)


def test_parse_page_reads_transcripts_and_statuses(tmp_path: Path) -> None:
    md = tmp_path / "x.md"
    md.write_text("text\n```console\n$ mtgk diff a 1 2   # exit 1\nline one\n...\n"
                  "$ echo hi\nhi\n```\n```sh\nmtgk play \\\n  --seed 3  # a game\n"
                  "pip install -e .\n```\n```text\nmtgk sim [--games N]\n```\n")
    cmds = parse_page(md).commands
    assert [(c.text, c.status, c.output) for c in cmds] == [
        ("mtgk diff a 1 2", 1, ["line one", "..."]),
        ("echo hi", 0, ["hi"]),
        ("mtgk play --seed 3", 0, None),
    ]


def test_matches_wildcards() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert matches(["took ... s"], ["took 1.5 s"])
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a"], ["a", "extra"])


def _scratch(tmp_path: Path) -> Path:
    for name in LINKED:
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    return tmp_path


def _env() -> dict[str, str]:
    env = dict(os.environ)
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["COLUMNS"] = "100"
    env.pop("PYTHONPATH", None)
    return env


SLOW_PAGES = ("README.md", "docs/debugging.md", "docs/simulation.md")
"""The pages whose commands take about a minute each: marked slow (run by .ci/run)."""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("page", [
    pytest.param(p, marks=pytest.mark.slow) if str(p.relative_to(ROOT)) in SLOW_PAGES else p
    for p in PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_of_the_page_runs_as_documented(page: Path, tmp_path: Path) -> None:
    commands = parse_page(page).commands
    if not commands:
        pytest.skip("no command blocks")
    cwd = _scratch(tmp_path)
    env = _env()
    rel = page.relative_to(ROOT)
    for cmd in commands:
        proc = subprocess.run(["bash", "-c", cmd.text], cwd=cwd, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        got = proc.stdout.splitlines()
        where = f"{rel}:{cmd.line}: `{cmd.text}`"
        assert "Traceback (most recent call last)" not in proc.stdout, \
            f"{where} printed a traceback:\n{proc.stdout}"
        assert proc.returncode == cmd.status, (
            f"{where} exited {proc.returncode}, the page says {cmd.status}\n"
            f"--- output ---\n" + "\n".join(got[:40]))
        if cmd.output is not None:
            assert matches(cmd.output, got), (
                f"{where}: the output differs from the page\n--- the page ---\n"
                + "\n".join(cmd.output) + "\n--- the command ---\n" + "\n".join(got))


PYCON = re.compile(r"^```pycon\n(.*?)^```", re.M | re.S)


def pycon_blocks(path: Path) -> list[tuple[int, str]]:
    """The ```` ```pycon ```` blocks of a page (Python sessions: ``>>>`` and ``...``
    lines, each followed by its expected output), with the line each starts on."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in PYCON.finditer(text)]


PYCON_PAGES = [p for p in PAGES if pycon_blocks(p)]


@pytest.mark.parametrize("page", PYCON_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_session_of_the_page_runs_as_documented(page: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """The page's ```` ```pycon ```` blocks run as doctests, in order, in one namespace,
    in a scratch folder laid out as a clone."""
    import doctest

    monkeypatch.chdir(_scratch(tmp_path))
    globs: dict[str, object] = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    parser = doctest.DocTestParser()
    rel = page.relative_to(ROOT)
    for line, block in pycon_blocks(page):
        test = parser.get_doctest(block, globs, f"{rel}:{line}", str(rel), line)
        result = runner.run(test, clear_globs=False)
        globs.update(test.globs)  # (a DocTest runs in a copy of the names given)
        assert result.failed == 0, f"{rel}: the session at line {line} differs (see above)"


def test_pycon_blocks_are_found(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("x\n```pycon\n>>> 1 + 1\n2\n```\n", encoding="utf-8")
    assert pycon_blocks(page) == [(3, ">>> 1 + 1\n2\n")]
