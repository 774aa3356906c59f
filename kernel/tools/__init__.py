"""The tools around the kernel: the ``mtgk`` command and what it runs.

CLI (``cli``, ``cli_view``), debugging (``debug``), rendering (``render``), the replay
viewer (``viewer``), scenario export (``export``), simulation (``sim``), the game library
(``store``), benchmarks (``bench``), diagnostics (``diag``).

Tools may import everything else; nothing outside the tools (and the scenario runner)
imports them.  See docs/architecture.md.
"""
