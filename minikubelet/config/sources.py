"""Whether every config source has sent its pods at least once.

Go: pkg/kubelet/config/sources.go

Until then kubelet does no housekeeping and deletes no pod: a source that has not reported yet
would look as if all its pods were gone.
"""

from __future__ import annotations

from collections.abc import Callable

#: Decides readiness from the sources seen so far. Go: SourcesReadyFn
SourcesReadyFn = Callable[[set[str]], bool]


class SourcesReady:
    """Go: pkg/kubelet/config/sources.go type sourcesImpl"""

    def __init__(self, sources_ready_fn: SourcesReadyFn) -> None:
        """Go: pkg/kubelet/config/sources.go NewSourcesReady"""
        self.sources_seen: set[str] = set()
        self.sources_ready_fn = sources_ready_fn

    def add_source(self, source: str) -> None:
        """Go: pkg/kubelet/config/sources.go (*sourcesImpl).AddSource"""
        self.sources_seen.add(source)

    def all_ready(self) -> bool:
        """Go: pkg/kubelet/config/sources.go (*sourcesImpl).AllReady"""
        return self.sources_ready_fn(self.sources_seen)
