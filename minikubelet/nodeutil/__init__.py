"""Helpers about nodes, from pkg/util/node/ in Go (kubelet imports it as ``nodeutil``)."""
