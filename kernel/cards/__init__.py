"""The card-writing API: what a card pack imports.

* :mod:`mtgk.cards.definitions` -- card definitions, abilities, the card registry;
* :mod:`mtgk.cards.dsl` -- the vocabulary card definitions are written in;
* :mod:`mtgk.cards.filters` -- how cards name objects (``kind("Goblin").creature``);
* :mod:`mtgk.cards.effects` -- :class:`~mtgk.cards.effects.Ctx`, what an effect sees;
* :mod:`mtgk.cards.loading` -- the plugin hookspecs and entry-point loading;
* :mod:`mtgk.cards.decks` -- deck lists read against the registry.

It may import the log's events (:mod:`mtgk.log.events`) and the rules core
(:mod:`mtgk.rules`); never the tools (:mod:`mtgk.tools`).  See docs/architecture.md.
"""
