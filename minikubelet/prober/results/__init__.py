"""Probe results and the channel of their changes."""
