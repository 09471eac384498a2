"""``python -m tools.xref`` — see `tools.xref.cli`."""

import sys

from .cli import main

sys.exit(main())
