"""``python -m mtgk``: the ``mtgk`` command (:func:`mtgk.tools.entry.main`)."""

import sys

from mtgk.tools.entry import main

sys.exit(main())
