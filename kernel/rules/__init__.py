"""The rules core: the game state, its one projector, and the engine that plays by the
Comprehensive Rules, one module per part of the rules.

* :mod:`mtgk.rules.state` -- the state (plain data) and ``apply``, the only code that
  changes it;
* :mod:`mtgk.rules.engine` -- :class:`~mtgk.rules.engine.Game`, the one object a caller
  holds, put together from the parts below;
* :mod:`mtgk.rules.core` -- the fields of a game, emitting events, characteristics,
  decisions; :mod:`mtgk.rules.parts` -- the base of each part; :mod:`mtgk.rules.kept` --
  what a game keeps across events for speed, with its one policy;
* the parts: :mod:`~mtgk.rules.turns` (CR 500-514), :mod:`~mtgk.rules.priority` (priority,
  the stack, resolution; CR 117, 405, 608), :mod:`~mtgk.rules.actions` (legal actions,
  targets; CR 117.1, 115), :mod:`~mtgk.rules.casting` (CR 601, 602), :mod:`~mtgk.rules.payment`
  (mana abilities and payment; CR 106, 605), :mod:`~mtgk.rules.triggers` (CR 603),
  :mod:`~mtgk.rules.sba` (CR 704), :mod:`~mtgk.rules.zones` (CR 400.7), :mod:`~mtgk.rules.damage`
  (CR 120), :mod:`~mtgk.rules.combat` (CR 506-511);
* :mod:`mtgk.rules.layers` -- characteristics after continuous effects (CR 613);
* :mod:`mtgk.rules.replacement` -- replacement and prevention effects (CR 614-616);
* :mod:`mtgk.rules.mana` -- mana costs, pools and payment plans (CR 106, 107.4);
* :mod:`mtgk.rules.visibility` -- what each player may see (hidden zones, CR 400.2).

It may import the log's events and the card API; never the tools (:mod:`mtgk.tools`).
See docs/architecture.md.
"""
