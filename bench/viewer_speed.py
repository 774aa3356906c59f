"""The viewer on a 100,000-event game: building the page, its size, and jumping in it
(reported, not gated).

    python bench/viewer_speed.py [--log FILE] [--page FILE.html] [--rounds 5] [--no-build]

Makes (or reuses) the long log of ``bench/replay_speed.py`` (two decks of 3,400 Gray
Ogres and no lands, random agents, seed 5, stopped by its budget of 100,000 events),
then prints this machine's speed (a plain Python loop), and:

* ``mtgk view`` of the log in a child process: its wall time and peak memory (the
  child's maximum resident set, as ``/usr/bin/time -f "%M KiB"`` reports it), and the
  page's size, with the bytes of its embedded data by key (``--no-build``: reuse
  ``--page``);
* the page in headless Chromium (selenium + chromedriver, as the browser tests): the
  time to load it (until the page says it is ready), and the time to jump to events
  50,000 and 99,000 through the page's own "Go to event" form (the value typed in,
  the form submitted, the layout forced), each the best of ``--rounds`` jumps from
  event 0 (a cold jump: the page rebuilds the state from a keyframe).
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from replay_speed import _mtgk, long_log  # beside this script
from run import loop_ms

ROOT = Path(__file__).resolve().parents[1]


def build(log: Path, page: Path) -> tuple[float, int]:
    """``mtgk view`` of ``log`` into ``page``: seconds and peak KiB of the child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    subprocess.run([_mtgk(), "view", str(log), "--out", str(page), "-q"], check=True)
    wall = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before)


def composition(page: Path) -> list[tuple[str, int]]:
    """The bytes of the page's embedded data by key (perspectives' keys as KEY.PART)."""
    text = page.read_text(encoding="utf-8")
    m = re.search(r'id="game-data">(.*?)</script>', text, re.S)
    assert m is not None, "no game data in the page"
    data = json.loads(m.group(1))
    size = lambda v: len(json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode())  # noqa: E731
    out = [(k, size(v)) for k, v in data.items() if k != "perspectives"]
    for P in data["perspectives"]:
        out += [(f"{P['key']}.{k}", size(v)) for k, v in P.items()]
    return sorted(out, key=lambda kv: -kv[1])


JUMP = """
const n = arguments[0];
const box = document.getElementById("jump-event");
const form = document.getElementById("jump-form");
const t = performance.now();
box.value = String(n);
form.dispatchEvent(new Event("submit", {cancelable: true}));
void document.body.offsetHeight;  // the layout, too
const dt = performance.now() - t;
return [dt, document.getElementById("cur-seq").textContent];
"""


def browse(page: Path, targets: list[int], rounds: int) -> tuple[float, dict[int, float]]:
    sys.path.insert(0, str(ROOT))
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.conftest import headless_chromium

    with headless_chromium(window="1500,950") as driver:
        driver.set_page_load_timeout(300)
        t = time.perf_counter()
        driver.get(page.as_uri())
        WebDriverWait(driver, 300).until(
            lambda d: d.execute_script("return document.body.dataset.ready === '1'"))
        load = time.perf_counter() - t
        best: dict[int, float] = {}
        for _ in range(rounds):
            for n in targets:
                driver.execute_script(JUMP, 0)
                dt, at = driver.execute_script(JUMP, n)
                assert int(at) == n, (at, n)
                best[n] = min(best.get(n, float("inf")), dt)
    return load, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log", type=Path, default=None, help="the long log (made if missing)")
    ap.add_argument("--page", type=Path, default=None, help="where to write the page")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-build", action="store_true", help="reuse --page as it is")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mtgk-bench-"))
    path = args.log or tmp / "long.mtgk"
    if not path.exists():
        long_log(path)
    page = args.page or path.with_suffix(".html")
    print(f"machine: a plain Python loop of 1,000,000 additions takes {loop_ms():.0f} ms now")
    if not args.no_build:
        wall, peak = build(path, page)
        print(f"mtgk view: {wall:.1f} s, {peak / 1024:.0f} MiB peak")
    print(f"page: {page.stat().st_size / 1e6:.1f} MB")
    for key, n in composition(page)[:12]:
        print(f"  {key}: {n / 1e6:.2f} MB")
    load, best = browse(page, [50_000, 99_000], args.rounds)
    print(f"Chromium: loads in {load:.1f} s; " + ", ".join(
        f"jump to {n:,} in {ms:.0f} ms" for n, ms in best.items()) +
        f" (best of {args.rounds})")


if __name__ == "__main__":
    main()
