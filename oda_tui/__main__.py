"""``python -m oda_tui``: the same as the ``oda-tui`` command."""

import sys

from .cli.main import main

sys.exit(main())
