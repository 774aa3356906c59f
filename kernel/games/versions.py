"""Which rules wrote a log, and which run now: the versions that decide what a re-run
of a log may be expected to give.

A log's header records three of them (docs/log-format.md, "Versions"):

* ``rules_revision``: the kernel's :data:`mtgk.RULES_REVISION`, bumped whenever the events
  the kernel emits for the same decisions change (``0``: a log written before revisions
  were recorded);
* ``cardsets``: each card set's version, bumped whenever the events of its cards change;
* ``kernel_version``: the package's release, for people; it decides nothing.

A log whose re-run differs from it was either damaged (or edited) -- when it claims the
very rules that run now -- or written by other rules (:func:`same_rules` is false):
``mtgk verify`` tells the two apart with these.

>>> from mtgk.log.logfile import LogHeader
>>> h = LogHeader(kernel_version="0.1.0", cardsets=[("core", "0.1.0")], players=["A", "B"],
...               seed=1)
>>> written = of_header(h)
>>> written.describe()
'kernel 0.1.0, rules revision not recorded (before revision 1), card sets core 0.1.0'
>>> same_rules(written, Versions("0.1.0", 1, (("core", "0.1.0"),)))
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import mtgk
from mtgk.log.structs import LogHeader
from mtgk.rules.definitions import Registry

__all__ = ["Versions", "differences", "of_header", "running", "same_rules"]


@dataclass(frozen=True)
class Versions:
    """The versions of a kernel and its card sets (as a log's header records them)."""

    kernel: str
    rules: int
    cardsets: tuple[tuple[str, str], ...]

    def describe(self) -> str:
        """One phrase: ``kernel 0.1.0, rules revision 1, card sets core 0.1.0, ...``."""
        rules = (f"rules revision {self.rules}" if self.rules > 0 else
                 "rules revision not recorded (before revision 1)")
        sets = ", ".join(f"{_clip(n)} {_clip(v)}" for n, v in self.cardsets) or "none"
        return f"kernel {_clip(self.kernel)}, {rules}, card sets {sets}"

    def as_json(self) -> dict[str, object]:
        """``{"kernel", "rules_revision", "cardsets": {name: version}}``."""
        return {"kernel": self.kernel, "rules_revision": self.rules,
                "cardsets": dict(self.cardsets)}


def of_header(header: LogHeader) -> Versions:
    """The versions that wrote the log of ``header``."""
    sets = tuple(sorted((str(n), str(v)) for n, v in header.cardsets))
    rev = header.rules_revision
    return Versions(str(header.kernel_version), rev if isinstance(rev, int) else 0, sets)


def running(registry: Registry, names: Sequence[str] | None = None) -> Versions:
    """The versions running now: this kernel and the loaded card sets (``names``: only
    those of them, e.g. the sets a log lists)."""
    wanted = sorted(registry.sets) if names is None else sorted(
        n for n in names if n in registry.sets)
    return Versions(mtgk.__version__, mtgk.RULES_REVISION,
                    tuple((n, registry.sets[n].version) for n in wanted))


def differences(written: Versions, now: Versions) -> list[str]:
    """What differs between the rules that wrote a log and those that run now, one phrase
    each (the kernel's release is left out: it decides nothing); empty: the same rules.

    A card set the log lists and that is not loaded now is a difference; a set loaded now
    that the log does not list is not (its cards are in no deck of the log).
    """
    out: list[str] = []
    if written.rules != now.rules:
        was = str(written.rules) if written.rules > 0 else "not recorded"
        out.append(f"rules revision {was} in the log, {now.rules} now")
    have = dict(now.cardsets)
    for name, version in written.cardsets:
        if name not in have:
            out.append(f"card set {_clip(name)} {_clip(version)} in the log, not loaded now")
        elif have[name] != version:
            out.append(f"card set {_clip(name)} {_clip(version)} in the log, {have[name]} now")
    return out


def same_rules(written: Versions, now: Versions) -> bool:
    """Whether a log written by ``written`` must re-run identically under ``now``."""
    return not differences(written, now)


def _clip(text: str, limit: int = 40) -> str:
    text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= limit else text[: limit - 3] + "..."
