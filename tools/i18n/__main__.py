"""``python -m tools.i18n DOCS_DIR [--fail-outdated]`` (see `tools.i18n`)."""

import sys

from tools.i18n import main

sys.exit(main())
