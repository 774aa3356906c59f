"""``python -m mtgk``: the ``mtgk`` command (:func:`mtgk.tools.cli.main`)."""

import sys

from mtgk.tools.cli import main

sys.exit(main())
