"""``python -m minikubelet``: the ``minikubelet`` command line (`minikubelet.sim.cli`)."""

import sys

from minikubelet.sim.cli import main

if __name__ == "__main__":  # imported (as the tests import every module), it does nothing
    sys.exit(main())
