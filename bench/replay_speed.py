"""Replay, seeking and viewer figures on a 100,000-event game (reported, not gated).

    python bench/replay_speed.py [--log FILE] [--rounds 5] [--view]

Makes (or reuses) the long log: a real game that verifies, two decks of 3,400
Gray Ogres and no lands, random agents, stopped by its event budget::

    mtgk play --decks DECK --agents random --seed 5 --max-turns 10000 \\
        --max-events 100000 --timeout 0 --out FILE

and the 40 ogres games of ``bench/run.py``.  Prints this machine's speed (a
plain Python loop), then, each the best of ``--rounds``:

* replay: read + fold (``fold(read_log(path).events)``) in events/s, for the
  long log and the 40 games; the read alone; the fold alone; msgspec's own decode
  of the same events (one ``list[...]`` decode per event type, no framing): the floor;
* log size in bytes per event (the records or blocks only, not the header), in the
  file format version the kernel writes;
* a cold seek to the middle of the long log (a new :class:`~mtgk.games.replay.Seeker`),
  a warm seek (20 seeks near it), the snapshots' count and bytes;
* with ``--view``: ``mtgk view`` of the long log, its seconds, peak memory
  (the child's maximum resident set) and page size.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec
from run import loop_ms  # bench/run.py, beside this script: the machine's speed

from mtgk.agents import RandomAgent
from mtgk.cards.decks import parse_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import Seeker
from mtgk.log.logfile import LogHeader, encode_log, read_log, write_log
from mtgk.rules.engine import Game
from mtgk.rules.state import fold

HERE = Path(__file__).parent


def _best(fn: object, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t)
    return best


def long_log(path: Path) -> None:
    """Play the 100,000-event game into ``path`` (about 10 s)."""
    deck = path.with_suffix(".deck.txt")
    deck.write_text("3400 Gray Ogre\n")
    subprocess.run([_mtgk(), "play", "--decks", str(deck), "--agents",
                    "random", "--seed", "5", "--max-turns", "10000", "--max-events", "100000",
                    "--timeout", "0", "--quiet", "--out", str(path)], check=False)


def _mtgk() -> str:
    """The ``mtgk`` command of this Python's installation."""
    here = Path(sys.executable).with_name("mtgk")
    return str(here) if here.exists() else "mtgk"


def _msgspec_floor(envs: list) -> float:  # type: ignore[type-arg]
    """Seconds msgspec takes to decode the same events, one list per event type."""
    enc = msgspec.msgpack.Encoder()
    by_type: dict[type, list[bytes]] = {}
    for env in envs:
        by_type.setdefault(type(env.event), []).append(enc.encode(env.event))
    blobs = [(msgspec.msgpack.Decoder(list[cls]), b"\xdd" + len(bs).to_bytes(4, "big")
              + b"".join(bs)) for cls, bs in by_type.items()]
    t = time.perf_counter()
    for dec, blob in blobs:
        dec.decode(blob)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log", type=Path, default=None, help="the long log (made if missing)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--view", action="store_true", help="also time mtgk view of the long log")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mtgk-bench-"))
    path = args.log or tmp / "long.mtgk"
    if not path.exists():
        long_log(path)
    print(f"machine: a plain Python loop of 1,000,000 additions takes {loop_ms():.0f} ms now")

    reg = load_registry()
    ogres = parse_deck((HERE / "decks" / "ogres.txt").read_text(), reg)
    header = LogHeader(kernel_version="bench", cardsets=[], players=["a", "b"], decks=[], seed=0)
    paths, size, n40 = [], 0, 0
    empty = len(encode_log(header, []))  # the header (and its crc, in format 2)
    for s in range(40):
        g = Game(reg, ["a", "b"], seed=s, agents=[RandomAgent(s), RandomAgent(s + 1000)])
        g.play([ogres, ogres], mulligans=False)
        p = tmp / f"g{s}.mtgk"
        size += write_log(p, header, g.log) - empty
        n40 += len(g.log)
        paths.append(p)
    version = read_log(paths[0]).header.format
    print(f"log size: {size / n40:.1f} bytes/event (format {version}, the header not counted; "
          f"{n40:,} events in 40 games)")

    envs = read_log(path).envelopes
    events = [env.event for env in envs]
    n = len(envs)
    both = _best(lambda: fold(read_log(path).events), args.rounds)
    both_env = _best(lambda: fold(read_log(path).envelopes), args.rounds)
    read = _best(lambda: read_log(path), args.rounds)
    alone = _best(lambda: fold(events), args.rounds)
    floor = min(_msgspec_floor(envs) for _ in range(args.rounds))
    print(f"replay, the {n:,}-event log (format {read_log(path).header.format}): "
          f"{n / both:,.0f} events/s read + fold ({n / both_env:,.0f} folding the envelopes; "
          f"{n / read:,.0f} read only; {n / alone:,.0f} fold only; msgspec's decode of the "
          f"same events {n / floor:,.0f})")
    both40 = _best(lambda: [fold(read_log(p).events) for p in paths], args.rounds)
    read40 = _best(lambda: [read_log(p) for p in paths], args.rounds)
    logs40 = [read_log(p).events for p in paths]
    alone40 = _best(lambda: [fold(evs) for evs in logs40], args.rounds)
    print(f"replay, 40 ogres games: {n40 / both40:,.0f} events/s read + fold "
          f"({n40 / read40:,.0f} read only; {n40 / alone40:,.0f} fold only)")

    full = _best(lambda: fold(envs), args.rounds)
    colds, warms = [], []
    for _ in range(args.rounds):
        seeker = Seeker(envs)
        t = time.perf_counter()
        seeker.state_at(n // 2)
        colds.append(time.perf_counter() - t)
        t = time.perf_counter()
        for k in range(20):
            seeker.state_at(n // 2 + k * 37)
        warms.append((time.perf_counter() - t) / 20)
    print(f"seek to the middle of the {n:,}-event log: {min(colds) * 1000:.0f} ms cold, "
          f"{min(warms) * 1000:.1f} ms warm (a plain fold of the whole log: "
          f"{full * 1000:.0f} ms)")
    seeker.state_at(n - 1)
    held = getattr(seeker, "snapshot_bytes", None)  # older kernels: states, not bytes
    print(f"snapshots for the whole log: {seeker.snapshots()}"
          + (f", {held() / 2**20:.1f} MiB" if held else ""))

    if args.view:
        out = tmp / "long.html"
        t = time.perf_counter()
        r = subprocess.run([_mtgk(), "view", str(path), "--out", str(out)], check=False)
        secs = time.perf_counter() - t
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        size_mb = out.stat().st_size / 1e6 if out.exists() else 0.0
        print(f"mtgk view of the {n:,}-event log: exit {r.returncode}, {secs:.1f} s, "
              f"peak {peak:,.0f} MiB, page {size_mb:.1f} MB")
        if r.returncode == 0:
            _browse(out, n // 2)


def _browse(page: Path, n: int) -> None:
    """Load ``page`` in headless Chromium (selenium) and jump to event ``n``."""
    import shutil

    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        print("the page in Chromium: selenium is not installed")
        return
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_bin = shutil.which("chromedriver")
    if chromium is None or driver_bin is None:
        print("the page in Chromium: chromium or chromedriver is not installed")
        return
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    profile = tempfile.mkdtemp(prefix="mtgk-chromium-")
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1500,950", f"--user-data-dir={profile}"):
        opts.add_argument(arg)
    d = webdriver.Chrome(service=Service(driver_bin), options=opts)
    try:
        d.set_page_load_timeout(600)
        t = time.perf_counter()
        d.get(page.as_uri())
        WebDriverWait(d, 600).until(
            lambda d: d.execute_script("return document.body.dataset.ready === '1'"))
        load = time.perf_counter() - t
        box = d.find_element(By.CSS_SELECTOR, "#jump-event")
        t = time.perf_counter()
        box.clear()
        box.send_keys(str(n), Keys.ENTER)
        WebDriverWait(d, 600).until(
            lambda d: d.find_element(By.CSS_SELECTOR, "#cur-seq").text == str(n))
        jump = time.perf_counter() - t
        print(f"the page in headless Chromium: loaded in {load:.1f} s, jumped to event "
              f"{n:,} in {jump:.2f} s")
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
