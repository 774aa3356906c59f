"""Combat (CR 506-511): declaring attackers and blockers with their restrictions and
requirements (CR 508.1, 509.1), first strike (CR 702.7), assigning and dealing combat
damage (CR 510), trample (CR 702.19)."""

from __future__ import annotations

from typing import Any

from mypy_extensions import trait

from mtgk.log import events as ev
from mtgk.log.answers import Assign, Attack, Block
from mtgk.log.events import player_ref
from mtgk.rules.core import Decision, RulesError
from mtgk.rules.names import (
    ALL_ABLE_BLOCK_IT,
    CAN_BLOCK_ANY_NUMBER,
    CANT_ATTACK,
    CANT_BE_BLOCKED,
    CANT_BLOCK,
    DEATHTOUCH,
    DEFENDER,
    DOUBLE_STRIKE,
    FEAR,
    FIRST_STRIKE,
    FLYING,
    HASTE,
    INTIMIDATE,
    MENACE,
    REACH,
    TRAMPLE,
    UNBLOCKABLE_BY_POWER,
    VIGILANCE,
)
from mtgk.rules.parts import GamePart
from mtgk.rules.seats import (
    ATTACK_LEFT,
    ATTACK_RIGHT,
    defending_players,
    opponents_of,
    team_of,
    turn_order_from,
)


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class Combat(GamePart):
    """Combat (CR 506-511)."""

    # ------------------------------------------------------------------ combat
    def can_attack(self, oid: int, player: int) -> bool:
        o = self.state.objects[oid]
        c = self.chars(oid)
        return (c.is_creature and c.controller in team_of(self.state, player) and not o.tapped
                and not (o.sick and not c.has(HASTE)) and not c.has(DEFENDER)
                and not c.has(CANT_ATTACK))

    def attack_targets(self, player: int) -> list[int]:
        """What ``player``'s creatures can attack: each opponent (each player of the
        defending team, in Two-Headed Giant: the team is attacked) and the planeswalkers
        they control (CR 506.3); once attackers are declared, the defending players'."""
        out: list[int] = []
        for d in self._defender_choices(player):
            out.extend(self._attackable(d))
        return out

    def _defender_choices(self, player: int) -> list[int]:
        """The players ``player``'s creatures may attack: every opponent (attack multiple
        players, CR 802, the default; Two-Headed Giant: the other team), or with the game
        option attack left (right) the nearest opponent to the left (right), CR 803-804,
        the next (previous) in turn order; once attackers are declared, the defenders."""
        s = self.state
        c = s.combat
        if c is not None and c.defenders:
            return c.defenders
        opponents = opponents_of(s, player)
        if self.attack_option in (ATTACK_LEFT, ATTACK_RIGHT) and len(opponents) > 1 \
                and not s.teams:
            return [opponents[0] if self.attack_option == ATTACK_LEFT else opponents[-1]]
        return opponents

    def _attackable(self, d: int) -> list[int]:
        """Defending player ``d`` and the planeswalkers ``d`` controls."""
        return [player_ref(d)] + [oid for oid in self.permanents_of_type("Planeswalker")
                                  if self.chars(oid).controller == d]

    def attack_groups(self, player: int) -> list[list[int]]:
        """The targets of one attack: one group, every target -- with the attack multiple
        players option a combat's attackers may attack several opponents and their
        planeswalkers (CR 802.1); with attack left or right there is one opponent to
        attack."""
        return [self.attack_targets(player)]

    def _declare_attackers(self, active: int) -> bool:
        cands = [oid for oid in self.state.battlefield if self.can_attack(oid, active)]
        if not cands:
            return False
        mark = len(self.log)
        context: dict[str, Any] = {"attackers": cands, "targets": self.attack_targets(active)}
        choice = self.ask(Decision("attackers", active, None, "declare attackers",
                                   check=lambda ch: self.check_attackers(active, ch),
                                   context=context))
        if not choice:
            return False
        seq = self.emit(ev.AttackersDeclared(attacks=tuple((a, t) for a, t in choice)),
                        cause=self.decided_since(mark))
        with self.caused(seq):
            for a, _t in choice:
                if not self.chars(a).has(VIGILANCE):
                    self.emit(ev.Tapped(obj=a))
        return True

    def check_attackers(self, player: int, choice: Any) -> list[Attack]:
        """``choice``, a list of attacks (:class:`Attack` or ``[attacker, target]``
        pairs), as the legal declaration of ``player``'s attackers it is; raises
        :class:`RulesError` naming the rule it breaks."""
        if not isinstance(choice, list):
            raise RulesError("508.1", "attackers must be a list of [attacker, target] pairs")
        targets = self.attack_targets(player)
        seen: set[int] = set()
        out: list[Attack] = []
        for pair in choice:
            if not isinstance(pair, list | Attack) or len(pair) != 2:
                raise RulesError("508.1", f"bad attack {pair!r}")
            a, t = int(pair[0]), int(pair[1])
            if a in seen:
                raise RulesError("508.1", f"{self.name(a)} can attack only once")
            seen.add(a)
            if a not in self.state.objects or self.state.objects[a].zone != "battlefield" \
                    or not self.can_attack(a, player):
                why = "it is summoning sick" if a in self.state.objects and \
                    self.state.objects[a].sick else "it can't attack"
                raise RulesError("508.1a", f"{self.name(a)} can't attack: {why}")
            if t not in targets:
                raise RulesError("508.1b", f"{self.name(t)} can't be attacked: a creature "
                                 "attacks the defending player or a planeswalker they control")
            out.append(Attack(a, t))
        return out

    def can_block(self, blocker: int, attacker: int) -> bool:
        o = self.state.objects[blocker]
        b = self.chars(blocker)
        a = self.chars(attacker)
        if not b.is_creature or o.tapped or b.has(CANT_BLOCK) or a.has(CANT_BE_BLOCKED):
            return False
        if self.protected_from(attacker, blocker):
            return False
        for r in a.abilities:  # "can't be blocked by creatures with power N or greater"
            if r.startswith(UNBLOCKABLE_BY_POWER) and (b.power or 0) >= int(r[len(UNBLOCKABLE_BY_POWER):]):
                return False
        if a.has(FLYING) and not (b.has(FLYING) or b.has(REACH)):
            return False
        if a.has(FEAR) and not ("Artifact" in b.types or "B" in b.colors):
            return False
        if a.has(INTIMIDATE) and not ("Artifact" in b.types or set(a.colors) & set(b.colors)):
            return False
        for walk, land in (("islandwalk", "Island"), ("swampwalk", "Swamp"),
                           ("forestwalk", "Forest"), ("mountainwalk", "Mountain"),
                           ("plainswalk", "Plains")):
            if a.has(walk) and any(land in self.chars(x).subtypes
                                   for x in self.battlefield(b.controller)):
                return False
        return True

    def _declare_blockers(self, active: int) -> None:
        """Each defending player declares blockers, in APNAP order, for the creatures
        attacking them or planeswalkers they control (CR 802.4a; a Two-Headed Giant team
        blocks together, its first player deciding); then the blocks are one event."""
        c = self.state.combat
        if c is None or not c.attackers:
            return
        s = self.state
        defenders = [p for p in turn_order_from(s, active)
                     if p in defending_players(s) and not s.players[p].lost]
        if not defenders:
            return
        deciders = [d for d in defenders if d == team_of(s, d)[0] or team_of(s, d)[0]
                    not in defenders]
        attack, _block = self.declarations()
        if attack is None:  # (attackers with no declaration: the step's rules)
            self._blocks(deciders)
        else:
            with self.caused(attack):  # the blocks answer the attack (CR 509.1)
                self._blocks(deciders)

    def _blocks(self, deciders: list[int]) -> None:
        """The blockers decisions of ``deciders``, one after the other, and the one
        event declaring all their blocks."""
        s = self.state
        blocks: list[Block] = []
        mark = len(self.log)
        for k, d in enumerate(deciders):
            team = team_of(s, d)
            cands = [oid for oid in s.battlefield
                     if self.chars(oid).controller in team and self.chars(oid).is_creature
                     and not s.objects[oid].tapped]
            mine = self.attacking(d)
            if cands and any(self.can_block(b, a) for b in cands for a in mine):
                context: dict[str, Any] = {"blockers": cands, "attackers": mine}
                if len(deciders) > 1:  # several defending players, one after the other
                    context["defenders"] = list(deciders)
                    context["last"] = k == len(deciders) - 1
                blocks += self.ask(Decision("blockers", d, None, "declare blockers",
                                            check=self._blocks_checker(d), context=context))
        self.emit(ev.BlockersDeclared(blocks=tuple((b, a) for b, a in blocks)),
                  cause=self.decided_since(mark))

    def declarations(self) -> tuple[int | None, int | None]:
        """The events that declared this combat's attackers and its blockers
        (``AttackersDeclared``, ``BlockersDeclared``; ``None``: not declared yet), found in
        the log back to the combat's beginning: what combat damage is caused by (CR 510.1,
        the damage is dealt by the creatures as they were declared attacking and blocking),
        and the blocks by the attack (docs/debugging.md, "What a cause is")."""
        log = self.log
        block: int | None = None
        for i in range(len(log) - 1, -1, -1):
            e = log[i].event
            if isinstance(e, ev.BlockersDeclared):
                if block is None:
                    block = log[i].seq
            elif isinstance(e, ev.AttackersDeclared):
                return log[i].seq, block
            elif isinstance(e, ev.CombatEnded | ev.TurnBegan):
                break
        return None, block

    def _blocks_checker(self, player: int) -> Any:
        """:meth:`check_blockers` for ``player``'s declaration."""
        return lambda ch: self.check_blockers(player, ch)

    def attacking(self, player: int) -> list[int]:
        """The creatures attacking ``player`` (their team, in Two-Headed Giant) or a
        planeswalker they control: those ``player`` may block (CR 802.4a)."""
        c = self.state.combat
        if c is None:
            return []
        team = team_of(self.state, player)
        if len(self.state.players) == 2 or self.state.teams:
            return list(c.attackers)
        out = []
        for a, t in c.attackers.items():
            p = ev.ref_player(t)
            if p is None and t in self.state.objects:
                p = self.chars(t).controller
            if p in team:
                out.append(a)
        return out

    def check_blockers(self, player: int, choice: Any) -> list[Block]:
        """``choice``, a list of blocks (:class:`Block` or ``[blocker, attacker]``
        pairs), as the legal declaration of ``player``'s blockers it is; raises
        :class:`RulesError` naming the rule it breaks."""
        c = self.state.combat
        if not isinstance(choice, list) or c is None:
            raise RulesError("509.1", "blockers must be a list of [blocker, attacker] pairs")
        seen: set[int] = set()
        count: dict[int, int] = {}
        out: list[Block] = []
        for pair in choice:
            if not isinstance(pair, list | Block) or len(pair) != 2:
                raise RulesError("509.1", f"bad block {pair!r}")
            b, a = int(pair[0]), int(pair[1])
            if b in seen and (Block(b, a) in out or b not in self.state.objects
                              or sum(1 for bb, _a in out if bb == b) >= self.max_blocks(b)):
                n = self.max_blocks(b) if b in self.state.objects else 1
                raise RulesError("509.1a", f"{self.name(b)} can block only "
                                 f"{'one creature' if n == 1 else f'{n} creatures'}")
            seen.add(b)
            if a not in c.attackers:
                raise RulesError("509.1a", f"{self.name(a)} is not attacking")
            if a not in self.attacking(player):
                raise RulesError("802.4a", f"{self.name(a)} is not attacking "
                                 f"{self.state.players[player].name} or a planeswalker they "
                                 "control: each defending player blocks only those")
            if b not in self.state.objects or self.state.objects[b].zone != "battlefield" or \
                    self.chars(b).controller not in team_of(self.state, player) \
                    or not self.can_block(b, a):
                raise RulesError("509.1b", f"{self.name(b)} can't block {self.name(a)}")
            count[a] = count.get(a, 0) + 1
            out.append(Block(b, a))
        for a, n in count.items():
            need = self.min_blockers(a)
            if n < need and need == 2 and self.chars(a).has(MENACE):
                raise RulesError("702.110b", f"{self.name(a)} has menace: it can't be blocked "
                                 "except by two or more creatures")
            if n < need:
                raise RulesError("509.1b", f"{self.name(a)} can't be blocked except by {need} "
                                 "or more creatures")
        self._check_block_requirements(player, out)
        return out

    def max_blocks(self, oid: int) -> int:
        """How many attackers ``oid`` can block: any number (``can block any number``),
        or one plus one per ``can block an additional creature``."""
        c = self.chars(oid)
        if c.has(CAN_BLOCK_ANY_NUMBER):
            return 10 ** 6
        return 1 + sum(1 for a in c.abilities if a == "can block an additional creature")

    def min_blockers(self, oid: int) -> int:
        """The fewest creatures that can block ``oid``: 2 with menace, N with an ability
        ``min_blockers:N`` ("can't be blocked except by N or more creatures")."""
        c = self.chars(oid)
        need = 2 if c.has(MENACE) else 1
        for a in c.abilities:
            if a.startswith("min_blockers:"):
                need = max(need, int(a[13:]))
        return need

    def _check_block_requirements(self, player: int, blocks: list[Block]) -> None:
        """Blocking requirements: "All creatures able to block ~ do so" (ability ``all able
        block it``) and "[this creature] blocks [that one] this turn if able" (ability
        ``must_block:<attacker>``).  Each creature obeys as many of its requirements as it
        can: it blocks one of the attackers it is required to block (all of them, up to
        the number of creatures it can block) -- CR 509.1c."""
        c = self.state.combat
        attackers = list(c.attackers) if c else []
        lures = [a for a in attackers if self.chars(a).has(ALL_ABLE_BLOCK_IT)]
        team = team_of(self.state, player)
        mine = [b for b in self.state.battlefield
                if self.chars(b).controller in team and self.chars(b).is_creature]
        musts = {b: [int(r[11:]) for r in self.chars(b).abilities if r.startswith("must_block:")
                     and int(r[11:]) in attackers] for b in mine}
        if not lures and not any(musts.values()):
            return

        def feasible(a: int) -> bool:
            # a requirement that would break a restriction ("can't be blocked except by two
            # or more creatures" with too few able blockers) isn't one
            return len([b for b in mine if self.can_block(b, a)]) >= self.min_blockers(a)

        for b in mine:
            reqs = [a for a in lures + musts[b] if feasible(a) and self.can_block(b, a)]
            able = [a for i, a in enumerate(reqs) if a not in reqs[:i]]
            if not able:
                continue
            blocking = [a for bb, a in blocks if bb == b]
            if len(set(able) & set(blocking)) < min(len(able), self.max_blocks(b)):
                missed = next(a for a in able if a not in blocking)
                why = "all creatures able to block it do so" if missed in lures else \
                    "it blocks it this turn if able"
                raise RulesError("509.1c", f"{self.name(b)} must block "
                                 f"{self.name(missed)}: {why}")

    def _first_strikers(self) -> list[int]:
        """The attacking and blocking creatures that have first strike or double strike now
        (as the combat damage step would begin: CR 510.4), attackers first."""
        c = self.state.combat
        if c is None:
            return []
        objs = self.state.objects
        out: list[int] = []
        for o in list(c.attackers) + list(c.blockers):
            if o in objs and o not in out:
                ch = self.chars(o)
                if ch.has(FIRST_STRIKE) or ch.has(DOUBLE_STRIKE):
                    out.append(o)
        return out

    def _deals_in(self, oid: int, first_strike: bool) -> bool:
        """Whether creature ``oid`` deals combat damage in the first-strike step
        (``first_strike``) or in the regular one (CR 510.4): in the first, those that had
        first or double strike as it began; in the regular one after it, the others and
        those that have double strike now (CR 702.4d, 702.7c); with no first-strike step,
        every creature."""
        c = self.state.combat
        if first_strike:
            return c is not None and oid in c.first_strikers
        if c is None or not c.first_strikers:
            return True
        return oid not in c.first_strikers or self.chars(oid).has(DOUBLE_STRIKE)

    def _damage_step(self, first_strike: bool) -> None:
        """The combat damage of one combat damage step: each attacking and blocking
        creature that deals damage in it (:meth:`_deals_in`) assigns its damage, then all of
        it is dealt at once (CR 510.1-2).  Each damage is caused by the declaration that
        brought it about (:meth:`declarations`): an attacker's damage to the player or
        planeswalker it attacks by the attack; the damage between a blocked attacker and
        its blockers, either way, by the blocks (and their assignment asked under them)."""
        s = self.state
        c = s.combat
        if c is None:
            return
        attack, block = self.declarations()
        if block is None:
            block = attack
        dmg: list[tuple[int, int, int, int | None]] = []
        defenders = defending_players(s)
        for a, target in list(c.attackers.items()):
            if a not in s.objects or s.objects[a].zone != "battlefield":
                continue
            if not self._deals_in(a, first_strike):
                continue
            power = self.combat_damage_of(a)
            if power <= 0:
                continue
            blockers = [b for b in c.blocked.get(a, []) if b in s.objects
                        and s.objects[b].zone == "battlefield"]
            target_ok = target < 0 or (target in s.objects and s.objects[target].zone ==
                                       "battlefield" and target not in c.removed_attacked
                                       and self.chars(target).controller in defenders)
            if a not in c.was_blocked:
                if target_ok:
                    dmg.append((a, target, power, attack))
                continue
            if not blockers:
                if self.chars(a).has(TRAMPLE) and target_ok:
                    dmg.append((a, target, power, attack))
                continue
            for to, n in self._assign_under(block, a, blockers, power,
                                            target if target_ok else None):
                dmg.append((a, to, n, attack if to == target else block))
        for b, attackers in list(c.blockers.items()):
            if b not in s.objects or s.objects[b].zone != "battlefield" or not attackers:
                continue
            if not self._deals_in(b, first_strike):
                continue
            power = self.combat_damage_of(b)
            live = [a for a in attackers if a in s.objects and s.objects[a].zone == "battlefield"]
            if power > 0 and len(live) == 1:
                dmg.append((b, live[0], power, block))
            elif power > 0 and live:  # blocking several: its controller divides the damage
                for to, n in self._assign_under(block, b, live, power, None):
                    dmg.append((b, to, n, block))
        for src, to, n, cause in dmg:
            if n <= 0:
                continue
            # through replacement and prevention effects, like all damage
            if cause is None:
                self.deal_damage(src, to, n, combat=True)
            else:
                with self.caused(cause):
                    self.deal_damage(src, to, n, combat=True)

    def _assign_under(self, cause: int | None, a: int, blockers: list[int], power: int,
                      target: int | None) -> list[tuple[int, int]]:
        """:meth:`_assign`, its decision caused by ``cause`` (the blocks), if any."""
        if cause is None:
            return self._assign(a, blockers, power, target)
        with self.caused(cause):
            out = self._assign(a, blockers, power, target)
        return out

    def combat_damage_of(self, oid: int) -> int:
        """The combat damage creature ``oid`` assigns: its power, or its toughness while a
        permanent has ``assigns combat damage by toughness`` (Doran, the Siege Tower)."""
        c = self.chars(oid)
        if self.permanents_with("assigns combat damage by toughness"):
            return c.toughness or 0
        return c.power or 0

    def _lethal(self, blocker: int, attacker: int) -> int:
        o = self.state.objects[blocker]
        c = self.chars(blocker)
        if self.chars(attacker).has(DEATHTOUCH):
            return 1 if o.damage == 0 else 0
        return max(0, (c.toughness or 0) - o.damage)

    def _assign(self, a: int, blockers: list[int], power: int, target: int | None
                ) -> list[tuple[int, int]]:
        trample = self.chars(a).has(TRAMPLE) and target is not None
        if len(blockers) == 1 and not trample:
            return [(blockers[0], power)]
        recipients = list(blockers) + ([target] if trample and target is not None else [])
        default: dict[int, int] = {}
        left = power
        for b in blockers:
            n = min(left, self._lethal(b, a))
            default[b] = n
            left -= n
        if left:
            if trample and target is not None:
                default[target] = default.get(target, 0) + left
            else:
                default[blockers[-1]] += left
        attacker_ctrl = self.chars(a).controller
        # CR 510.1c-d: one blocker that this damage can't more than kill (or no trample):
        # every point goes to it, the one legal assignment -- not asked (``ask`` takes a
        # decision of one option)
        forced = [[[blockers[0], power]]] if len(blockers) == 1 and \
            power <= self._lethal(blockers[0], a) else None
        choice = self.ask(Decision("assign", attacker_ctrl, forced,
                                   f"assign {power} combat damage from {self.name(a)}",
                                   check=lambda ch: self._check_assign(a, blockers, power,
                                                                       trample, target, ch),
                                   context={"attacker": a, "default": [[k, v] for k, v in
                                                                       default.items()],
                                            "recipients": recipients}))
        return [(int(k), int(v)) for k, v in choice]

    def _check_assign(self, a: int, blockers: list[int], power: int, trample: bool,
                      target: int | None, choice: Any) -> list[Assign]:
        if not isinstance(choice, list):
            raise RulesError("510.1", "damage assignment must be a list of [recipient, amount]")
        got: dict[int, int] = {}
        for pair in choice:
            if not isinstance(pair, list | Assign) or len(pair) != 2:
                raise RulesError("510.1", f"bad damage assignment {pair!r}")
            k, v = int(pair[0]), int(pair[1])
            if k not in blockers and not (trample and k == target):
                raise RulesError("510.1c", f"{self.name(k)} can't be assigned damage from "
                                 f"{self.name(a)}")
            if v < 0:
                raise RulesError("510.1", "damage can't be negative")
            got[k] = got.get(k, 0) + v
        if sum(got.values()) != power:
            raise RulesError("510.1", f"assign exactly {power} damage")
        # 510.1c: lethal damage to every blocker before any to the attacked player/planeswalker
        if trample and target is not None and got.get(target, 0) > 0:
            for b in blockers:
                if got.get(b, 0) < self._lethal(b, a):
                    raise RulesError("702.19c", f"{self.name(b)} must be assigned lethal damage "
                                     "before damage tramples over")
        return [Assign(k, v) for k, v in got.items()]
