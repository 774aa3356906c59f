"""Playing games from log headers, and re-running logs: the floor above the rules.

* :mod:`mtgk.games.start` -- a new game's header (:func:`~mtgk.games.start.new_header`),
  and the game a header describes (:func:`~mtgk.games.start.start_game`,
  :func:`~mtgk.games.start.run_from_header`);
* :mod:`mtgk.games.replay` -- seeking into logs (snapshots), verifying a log by re-running
  the engine on its decisions, the re-runners of each kind of log;
* :mod:`mtgk.games.versions` -- the versions (kernel, rules, card sets) a header names
  and the ones running now, and what differs.

Below it are the rules (:mod:`mtgk.rules`), the card API and the log's events and file
format (:mod:`mtgk.log`); above it the fronts (:mod:`mtgk.scenario`, :mod:`mtgk.env`)
and the tools.  See docs/architecture.md.
"""
