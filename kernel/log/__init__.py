"""The game log: events, the log file, replay.

* :mod:`mtgk.log.events` -- every event type (tagged, versioned msgspec Structs), the one
  foundation every other package imports;
* :mod:`mtgk.log.logfile` -- the log file format: reading, writing, repair; it re-exports
  the names of its parts: :mod:`~mtgk.log.loaded` (a loaded log, its problems, the errors),
  :mod:`~mtgk.log.upcasting` (older event versions), :mod:`~mtgk.log.codec` (the binary
  layout), :mod:`~mtgk.log.reader` and :mod:`~mtgk.log.damage` (reading, salvage),
  :mod:`~mtgk.log.writer`, :mod:`~mtgk.log.jsonl` (JSON Lines);
* :mod:`mtgk.log.replay` -- seek (snapshots), verify, re-running the engine on a log.

``events`` imports nothing of mtgk; ``logfile`` and ``replay`` may import the rules core
and the card API, never the tools.  See docs/architecture.md.
"""
