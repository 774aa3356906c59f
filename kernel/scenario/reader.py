"""Reading scenario files: YAML text to :class:`~mtgk.scenario.model.Scenario` objects.

The entry points: :func:`load_scenarios` (a file), :func:`loads_scenarios` (YAML text),
:func:`parse_scenarios` (data already read from YAML), :func:`iter_scenario_files` (the
files a command line names) and :func:`is_scenario_test_file` (what the pytest plugin
collects).

The YAML is read with ``yaml.safe_load`` semantics (YAML 1.1) by a loader that refuses
duplicate keys, keeps the plus sign of ``+N`` integers, leaves integers written with more
than 40 characters unconverted and bounds the work: nesting deeper than
:data:`~mtgk.scenario.model.MAX_DEPTH`, aliases that expand the document beyond
:data:`~mtgk.scenario.model.MAX_VALUES` values, an alias inside its own anchor are YAML
errors.  Each scenario mapping is then made regular (``null`` zones are empty, ``+1`` is
the loyalty cost ``"+1"``) and handed to :class:`mtgk.scenario.validation.ScenarioBuilder`,
which checks it and builds the scenario.  Every problem raises
:class:`~mtgk.scenario.errors.ScenarioFileError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec
import yaml
from msgspec import Struct

from mtgk.scenario.errors import ScenarioFileError, describe_value, explain, join_path, short
from mtgk.scenario.model import MAX_DEPTH, MAX_VALUES, SETUP_ZONES, Scenario
from mtgk.scenario.validation import ScenarioBuilder

__all__ = [
    "is_scenario_test_file",
    "iter_scenario_files",
    "load_scenarios",
    "loads_scenarios",
    "parse_scenarios",
]

# ---------------------------------------------------------------------------
# YAML reading
# ---------------------------------------------------------------------------


class _PlusInt(int):
    """An integer written with a leading ``+`` (so ``ability: +1`` stays "+1")."""


_INT_CHARS = 40
"""An integer written with more characters than this is a :class:`_HugeInt`."""


class _HugeInt(int):
    """An integer written with more characters than any allowed value needs.

    It is not converted (turning thousands of digits into an ``int`` is slow, and
    Python refuses more than 4,300): it stands for a value beyond the allowed range
    with the right sign, so the range check names its key path like any other
    out-of-range number.
    """

    chars: int

    def __new__(cls, negative: bool, chars: int) -> _HugeInt:
        out = super().__new__(cls, -(10 ** _INT_CHARS) if negative else 10 ** _INT_CHARS)
        out.chars = chars
        return out

    def __repr__(self) -> str:
        return f"an integer written with {self.chars} characters"


class _Loader(yaml.SafeLoader):
    """SafeLoader that rejects duplicate keys, remembers ``+N`` integers and bounds the work.

    Composing the document refuses nesting deeper than :data:`MAX_DEPTH`; once the
    document is composed, :func:`_check_expansion` refuses aliases that expand it
    beyond :data:`MAX_VALUES` values or :data:`MAX_DEPTH` levels.  Every later step
    (constructing the Python values, msgspec's conversion, the checks) walks the
    expanded document, so its work is bounded by the file's size.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.written = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            return super().compose_node(parent, index)
        self.depth += 1
        self.written += 1
        try:
            if self.depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.composer.ComposerError(
                    None, None, f"nesting deeper than {MAX_DEPTH} levels", mark
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def get_single_node(self) -> Any:
        node = super().get_single_node()
        if node is not None:
            _check_expansion(node, max(MAX_VALUES, self.written))
        return node


def _check_expansion(root: yaml.Node, limit: int) -> None:
    """Refuse a document whose aliases expand it beyond ``limit`` values or
    :data:`MAX_DEPTH` levels, or that contains itself (an alias inside its anchor).

    Each node is measured once (its expanded size and height are remembered), so this
    takes time linear in the written document, however its aliases multiply.
    """
    measured: dict[int, tuple[int, int]] = {}  # id(node) -> (values, levels) expanded
    open_nodes: set[int] = set()

    def refuse(node: yaml.Node, problem: str) -> yaml.composer.ComposerError:
        return yaml.composer.ComposerError(None, None, problem, node.start_mark)

    def visit(node: yaml.Node, depth: int) -> tuple[int, int]:
        key = id(node)
        got = measured.get(key)
        if got is None:
            if key in open_nodes:
                raise refuse(node, "an alias refers to a value that contains it")
            if depth > MAX_DEPTH:
                raise refuse(node, f"nesting deeper than {MAX_DEPTH} levels (aliases expanded)")
            open_nodes.add(key)
            children: list[yaml.Node] = []
            if isinstance(node, yaml.SequenceNode):
                children = list(node.value)
            elif isinstance(node, yaml.MappingNode):
                children = [part for pair in node.value for part in pair]
            values, levels = 1, 1
            for child in children:
                v, h = visit(child, depth + 1)
                values += v
                levels = max(levels, h + 1)
                if values > limit:
                    raise refuse(
                        node, f"aliases expand the document beyond {limit} values"
                    )
            open_nodes.discard(key)
            got = measured[key] = (values, levels)
        if depth + got[1] - 1 > MAX_DEPTH:
            raise refuse(node, f"nesting deeper than {MAX_DEPTH} levels (aliases expanded)")
        return got

    visit(root, 1)


def _not_a(kind: str, node: yaml.Node) -> yaml.constructor.ConstructorError:
    found = {yaml.ScalarNode: "scalar", yaml.SequenceNode: "list"}.get(type(node), "mapping")
    return yaml.constructor.ConstructorError(
        None, None, f"expected {kind} for the tag {node.tag}, found a {found}", node.start_mark
    )


def _construct_int(loader: yaml.SafeLoader, node: yaml.Node) -> int:
    if not isinstance(node, yaml.ScalarNode):
        raise _not_a("a scalar", node)
    text = str(node.value).strip()
    if len(text) > _INT_CHARS:
        return _HugeInt(text.startswith("-"), len(text))
    value = loader.construct_yaml_int(node)
    if text.startswith("+"):
        return _PlusInt(value)
    return int(value)


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.Node) -> dict[Any, Any]:
    if not isinstance(node, yaml.MappingNode):
        raise _not_a("a mapping", node)
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                "found an unhashable key",
                key_node.start_mark,
            ) from None
        if key in out:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                f"found duplicate key {short(key)}",
                key_node.start_mark,
            )
        out[key] = loader.construct_object(value_node, deep=True)
    return out


def _checked(
    constructor: Callable[[yaml.SafeLoader, yaml.Node], Any],
) -> Callable[[yaml.SafeLoader, yaml.Node], Any]:
    """``constructor``, with the Python errors PyYAML's constructors raise on values they
    can't read (``!!int abc``, ``!!bool maybe``, ``!!timestamp x``) made YAML errors."""

    def construct(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        try:
            return constructor(loader, node)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError):
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"cannot read {short(node.value)} as {node.tag.rsplit(':', 1)[-1]}",
                node.start_mark,
            ) from None

    return construct


_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
for _tag, _fn in list(_Loader.yaml_constructors.items()):
    _Loader.add_constructor(_tag, _checked(_fn))


def _yaml_message(exc: yaml.YAMLError) -> str:
    """One line for a YAML error: where (line, column) and what went wrong."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        what = "; ".join(p for p in (exc.context, exc.problem) if p)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        return " ".join(f"{where}{what}".split())
    return " ".join(str(exc).split())


def _read_yaml(text: str, file: str) -> Any:
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise ScenarioFileError(file, f"invalid YAML: {_yaml_message(exc)}") from None


# ---------------------------------------------------------------------------
# The data as written, made regular
# ---------------------------------------------------------------------------


class _RawFile(Struct, forbid_unknown_fields=True):
    scenarios: list[dict[str, Any]]


def _prepare(data: dict[str, Any]) -> dict[str, Any]:
    """A scenario mapping as YAML wrote it, made regular for the checks: a player or a zone
    written ``null`` is empty, ``actions``/``expect`` written ``null`` are empty lists, and
    an ``ability`` written ``+N`` (unquoted) is the loyalty cost ``"+N"``."""
    data = dict(data)
    players = data.get("players")
    if isinstance(players, dict):
        players = {k: ({} if v is None else v) for k, v in players.items()}
        for name, setup in list(players.items()):
            if isinstance(setup, dict):
                setup = dict(setup)
                for zone in SETUP_ZONES:
                    if zone in setup and setup[zone] is None:
                        setup[zone] = []
                players[name] = setup
        data["players"] = players
    actions = data.get("actions")
    if isinstance(actions, list):
        fixed = []
        for act in actions:
            if isinstance(act, dict) and isinstance(act.get("ability"), _PlusInt):
                act = dict(act)
                act["ability"] = f"+{int(act['ability'])}"
            fixed.append(act)
        data["actions"] = fixed
    for key in ("actions", "expect"):
        if key in data and data[key] is None:
            data[key] = []
    return data


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


def parse_scenarios(
    data: Any,
    file: str = "<data>",
    known_card: Callable[[str], bool] | None = None,
    known_event: Callable[[str], bool] | None = None,
) -> list[Scenario]:
    """Validate already-loaded YAML data (one scenario or ``{scenarios: [...]}``)."""
    if data is None:
        raise ScenarioFileError(file, "the file is empty; expected a scenario mapping")
    if not isinstance(data, dict):
        raise ScenarioFileError(
            file,
            f"expected a scenario mapping or `scenarios:` with a list, got {describe_value(data)}",
        )
    items: list[tuple[str, Any]]
    if "scenarios" in data:
        try:
            wrapper = msgspec.convert(data, _RawFile)
        except msgspec.ValidationError as exc:
            path, reason = explain(str(exc), data, _RawFile)
            if "unknown key" in reason:
                reason += " (a file with `scenarios:` holds nothing else)"
            raise ScenarioFileError(file, reason, path=path) from None
        items = [(f"scenarios[{i}]", s) for i, s in enumerate(wrapper.scenarios)]
        if not items:
            raise ScenarioFileError(file, "`scenarios:` is empty", path="scenarios")
    else:
        items = [("", data)]

    out: list[Scenario] = []
    seen: dict[str, str] = {}
    for where, raw in items:
        name = raw.get("name") if isinstance(raw, dict) else None
        label = name if isinstance(name, str) else None
        builder = ScenarioBuilder(file, label, known_card, prefix=where,
                                  known_event=known_event)
        scenario = builder.build(_prepare(raw))
        if scenario.name in seen:
            raise ScenarioFileError(
                file,
                f"duplicate scenario name {short(scenario.name)} "
                f"(also {seen[scenario.name] or 'above'})",
                scenario=scenario.name,
                path=join_path(where, ".name") if where else "name",
            )
        seen[scenario.name] = where
        out.append(scenario)
    return out


def loads_scenarios(
    text: str,
    file: str = "<string>",
    known_card: Callable[[str], bool] | None = None,
    known_event: Callable[[str], bool] | None = None,
) -> list[Scenario]:
    """Read scenarios from YAML text; ``file`` is used in error messages."""
    return parse_scenarios(_read_yaml(text, file), file, known_card, known_event)


def load_scenarios(
    path: str | Path,
    known_card: Callable[[str], bool] | None = None,
    known_event: Callable[[str], bool] | None = None,
) -> list[Scenario]:
    """Read and validate every scenario of a YAML file.

    ``known_card(name)`` says whether a card name exists; when given, unknown
    card names are errors.  ``known_event(name)`` says the same of event type
    names (``log_has``).  Raises :class:`ScenarioFileError` for any problem
    (unreadable file, invalid YAML, unknown key, wrong type, unknown card,
    unknown player, duplicate scenario name or alias, ...), and nothing else.
    """
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioFileError(file, f"cannot read the file: {exc}") from None
    return loads_scenarios(text, file, known_card, known_event)


def iter_scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files named by ``paths``.

    A file is used as is (whatever its name); a folder is searched
    recursively for ``*.yaml`` files, sorted.  Duplicates are dropped, order is
    kept.  A path that does not exist raises :class:`ScenarioFileError`.
    """
    out: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(f for f in path.rglob("*.yaml") if f.is_file())
        elif path.exists():
            found = [path]
        else:
            raise ScenarioFileError(str(path), "no such file or folder")
        for f in found:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def is_scenario_test_file(path: str | Path) -> bool:
    """True for ``scenario_*.yaml`` and ``*.scenario.yaml`` (pytest collection)."""
    name = Path(path).name
    return (name.startswith("scenario_") and name.endswith(".yaml")) or (
        name.endswith(".scenario.yaml") and len(name) > len(".scenario.yaml")
    )
