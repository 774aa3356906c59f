"""The game log: its events and its file format -- the ground floor.

* :mod:`mtgk.log.events` -- every event type (tagged, versioned msgspec Structs), the one
  foundation every other package imports; :mod:`mtgk.log.answers` -- the typed answers
  a ``DecisionMade`` records;
* :mod:`mtgk.log.logfile` -- the log file format: reading, writing, repair; it re-exports
  the names of its parts: :mod:`~mtgk.log.loaded` (a loaded log, its problems, the errors),
  :mod:`~mtgk.log.upcasting` (older event versions), :mod:`~mtgk.log.codec` (the binary
  layout), :mod:`~mtgk.log.reader` and :mod:`~mtgk.log.damage` (reading, salvage),
  :mod:`~mtgk.log.writer`, :mod:`~mtgk.log.jsonl` (JSON Lines);
* :mod:`mtgk.log.structs` -- the header and the unknown event.

It imports nothing of mtgk above it: starting games from headers, seeking and verifying
logs are :mod:`mtgk.games`.  See docs/architecture.md.
"""
