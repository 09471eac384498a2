"""``python -m minikubelet``: the ``minikubelet`` command line (`minikubelet.sim.cli`)."""

import sys

from minikubelet.sim.cli import main

sys.exit(main())
