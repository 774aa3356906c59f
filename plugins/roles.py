"""Role tokens (Wilds of Eldraine): colorless Enchantment — Aura Role tokens.

The rules, from the set's release notes:

* A Role token is created already attached to a permanent: it is not cast and
  does not target, so hexproof and ward don't stop it (:func:`create_role`).
* If it can't legally enchant that permanent (it is not a creature, it has
  protection from enchantments, it has left the battlefield), the token is
  not created at all.
* A permanent may have several Roles attached if each is controlled by a
  different player.  If it has more than one Role controlled by the same
  player, each of them except the one with the newest timestamp goes to its
  owner's graveyard: a state-based action (:func:`role_sba`).
* If several Roles controlled by the same player become attached to one
  permanent at the same time (one effect creating them together), that
  player chooses which to keep (decision kind ``role``).

Card code creates Roles with :func:`create_role` (one) or :func:`create_roles`
(several at the same time).  The Role token definitions themselves live in the
Wilds of Eldraine card set; :func:`role_pt` and :func:`enchanted` help write
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mtgk.cards.definitions import Registry
from mtgk.cards.effects import Ctx
from mtgk.cards.loading import hookimpl
from mtgk.log import events as ev
from mtgk.rules.chars import printed
from mtgk.rules.state import Obj

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

SUPERSEDED = "role_superseded"
"""Flag on a Role its controller chose not to keep (several attached at once)."""


def is_role(game: Game, oid: int) -> bool:
    return oid in game.state.objects and game.chars(oid).has_subtype("Role")


def can_attach(game: Game, aura: str, host: int | None, controller: int) -> bool:
    """Whether an Aura token named ``aura`` controlled by ``controller`` could be created
    attached to ``host``: on the battlefield, of the kind it enchants, and without
    protection from it (CR 303.4, 702.16)."""
    if host is None or host <= 0:
        return False
    o = game.state.objects.get(host)
    if o is None or o.zone != "battlefield":
        return False
    d = game.reg[aura]
    ench = d.extras.get("enchant")
    if ench is not None and not ench.filter(game.view(), host, controller, 0):
        return False
    probe = Obj(id=0, card_id=0, card=d.name, owner=controller, controller=controller,
                zone="battlefield")
    return not game.protected_against(host, printed(game.reg, probe))


def create_roles(game: Game, controller: int, pairs: Sequence[tuple[str, int | None]]
                 ) -> list[int]:
    """Create Role tokens (name, host) under ``controller``'s control, all at the same
    time; a Role that could not legally enchant its host is not created.  Returns the
    new tokens.  If two or more of them end up on the same permanent, ``controller``
    chooses the one to keep (the others go to the graveyard as a state-based action)."""
    made: list[tuple[int, int]] = []
    for role, host in pairs:
        if not can_attach(game, role, host, controller):
            continue
        assert host is not None
        made.append((game.create_token(role, controller, attached_to=host), host))
    hosts: list[int] = []
    for _tok, host in made:
        if host not in hosts:
            hosts.append(host)
    for host in hosts:
        mine = [tok for tok, h in made if h == host]
        if len(mine) > 1:
            keep = game.choose(controller, "role", mine,
                               f"choose which Role to keep on {game.name(host)}")
            for tok in mine:
                if tok != keep:
                    game.emit(ev.ObjectFlagged(obj=tok, key=SUPERSEDED, value=True))
    return [tok for tok, _h in made]


def create_role(c: Ctx | Game, role: str, host: int | None, controller: int | None = None
                ) -> int | None:
    """"Create a ``role`` token attached to ``host``" (no target: hexproof and ward don't
    matter).  Returns the token, or ``None`` if it could not be created."""
    if isinstance(c, Ctx):  # the controller of its spell or ability, by default
        game, who = c.game, c.controller if controller is None else controller
    elif controller is None:
        raise TypeError("create_role with a Game needs the controller")
    else:
        game, who = c, controller
    made = create_roles(game, who, [(role, host)])
    return made[0] if made else None


def role_sba(game: Game) -> list[tuple[str, int, str]]:
    """CR 704.5y: of the Roles one player controls on one permanent, all but the newest
    (or the one its controller chose to keep) go to their owners' graveyards.  (Only the
    permanents decide it: kept while their characteristics hold, ``Game.cached``.)"""
    return list(game.cached("roles:sba", lambda: _superfluous_roles(game)))


def _superfluous_roles(game: Game) -> list[tuple[str, int, str]]:
    s = game.state
    groups: dict[tuple[int, int], list[int]] = {}
    for oid in s.battlefield:
        o = s.objects[oid]
        if not o.attached_to or not o.token and not game.chars(oid).has_subtype("Role"):
            continue
        c = game.chars(oid)
        if not c.has_subtype("Role"):
            continue
        groups.setdefault((o.attached_to, c.controller), []).append(oid)
    out: list[tuple[str, int, str]] = []
    for key in sorted(groups):
        roles = groups[key]
        if len(roles) < 2:
            continue
        keep = max(roles, key=lambda r: (not s.objects[r].flags.get(SUPERSEDED),
                                         s.objects[r].timestamp, r))
        out.extend(("graveyard", r, "role") for r in roles if r != keep)
    return out


def register(registry: Registry) -> None:
    """Add the Role state-based action and make granted abilities of cards marked
    ``grantable`` work (idempotent)."""
    registry.add_sba_check(role_sba, reads=())
    for d in list(registry.cards.values()):
        if d.extras.get("grantable"):
            registry.grantable.update(k for k, _t in d.triggered)


@hookimpl
def mtgk_register(registry: Registry) -> None:
    register(registry)
