"""``python -m oda_tui``: the same as the ``oda-tui`` command."""

import sys

from .cli import main

sys.exit(main())
