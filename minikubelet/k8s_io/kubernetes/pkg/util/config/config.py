"""A multiplexer: one channel per config source, each merged into one store by a goroutine.

Go: pkg/util/config/config.go
"""

from __future__ import annotations

from typing import Any, Protocol

from minikubelet.go import Chan, SendChan, go, make_chan


class Merger(Protocol):
    """Go: pkg/util/config/config.go type Merger"""

    async def merge(self, source: str, update: Any) -> None:
        """Go: pkg/util/config/config.go Merger.Merge"""
        ...


class Mux:
    """Go: pkg/util/config/config.go type Mux"""

    def __init__(self, merger: Merger) -> None:
        """Go: pkg/util/config/config.go NewMux"""
        self.merger = merger
        self.sources: dict[str, Chan[Any]] = {}

    def channel(self, source: str) -> SendChan[Any]:
        """The channel a source sends its updates on; made, with its listener, on first use.

        Go: pkg/util/config/config.go (*Mux).Channel
        """
        if len(source) == 0:
            raise ValueError("Channel given an empty name")
        channel = self.sources.get(source)
        if channel is not None:
            return channel.send_only()
        new_channel: Chan[Any] = make_chan(0, name=f"config source {source!r}")
        self.sources[source] = new_channel
        # Go wraps listen in wait.Until(..., 0, wait.NeverStop), which would call it again at
        # once if it ever returned; listen only returns once the channel is closed, and then Go's
        # loop would spin forever on it. Here the goroutine simply ends.
        go(self.listen, source, new_channel, name=f"mux.listen({source})")
        return new_channel.send_only()

    async def listen(self, source: str, listen_channel: Chan[Any]) -> None:
        """Go: pkg/util/config/config.go (*Mux).listen"""
        async for update in listen_channel:
            await self.merger.merge(source, update)
