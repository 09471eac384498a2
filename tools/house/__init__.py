"""Housekeeping scripts of the repository itself (issue #26). Ours."""
