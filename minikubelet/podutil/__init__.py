"""Helpers about pods and their status, from pkg/api/v1/pod/ in Go."""
