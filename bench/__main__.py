"""``python -m bench``: every figure of the speed issue and the learner's latency, as one table
(see bench/table.py)."""

from bench.table import main

main()
