"""The rules core: the game state, its one projector, and the engine that plays by the
Comprehensive Rules.

* :mod:`mtgk.rules.state` -- the state (plain data) and ``apply``, the only code that
  changes it;
* :mod:`mtgk.rules.engine` -- :class:`~mtgk.rules.engine.Game`, turns, priority, the stack,
  casting, combat, state-based actions;
* :mod:`mtgk.rules.layers` -- characteristics after continuous effects (CR 613);
* :mod:`mtgk.rules.replacement` -- replacement and prevention effects (CR 614-616);
* :mod:`mtgk.rules.mana` -- mana costs, pools and payment (CR 106, 107.4, 601.2g-h);
* :mod:`mtgk.rules.visibility` -- what each player may see (hidden zones, CR 400.2).

It may import the log's events and the card API's definitions; never the tools
(:mod:`mtgk.tools`).  See docs/architecture.md.
"""
