"""Build-time tools, run from the repository (``python -m tools.<name>``), never installed."""
