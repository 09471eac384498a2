"""Whether the container runtime and the network are healthy, as kubelet last saw them.

Go: pkg/kubelet/runtime.go

``syncLoop`` asks [`RuntimeState.runtime_errors`][] before every iteration and backs off while
it reports an error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from minikubelet.go import Clock
from minikubelet.k8s_io.apimachinery.pkg.util.errors.errors import AggregateError, new_aggregate

HealthCheckFn = Callable[[], tuple[bool, Exception | None]]

#: Go: ErrNetworkUnknown (pkg/kubelet/errors.go): the network state before its first check.
ErrNetworkUnknown = RuntimeError("network state unknown")


@dataclass
class RuntimeState:
    """Go: pkg/kubelet/runtime.go type runtimeState"""

    clock: Clock
    base_runtime_sync_threshold: float
    last_base_runtime_sync: float | None = None
    network_error: Exception | None = ErrNetworkUnknown
    runtime_error: Exception | None = None
    health_checks: list[tuple[str, HealthCheckFn]] = field(default_factory=list)

    def add_health_check(self, name: str, f: HealthCheckFn) -> None:
        """Go: pkg/kubelet/runtime.go (*runtimeState).addHealthCheck"""
        self.health_checks.append((name, f))

    def set_runtime_sync(self, t: float) -> None:
        """Go: pkg/kubelet/runtime.go (*runtimeState).setRuntimeSync"""
        self.last_base_runtime_sync = t

    def set_network_state(self, err: Exception | None) -> None:
        """Go: pkg/kubelet/runtime.go (*runtimeState).setNetworkState"""
        self.network_error = err

    def set_runtime_state(self, err: Exception | None) -> None:
        """Go: pkg/kubelet/runtime.go (*runtimeState).setRuntimeState"""
        self.runtime_error = err

    def runtime_errors(self) -> AggregateError | None:
        """What is wrong with the container runtime, or None.

        Go: pkg/kubelet/runtime.go (*runtimeState).runtimeErrors
        """
        # Go omitted: s.RLock() -- one goroutine runs at a time here: no lock to take
        # Go: errs := []error{}
        errs: list[Exception] = []
        # Go: if s.lastBaseRuntimeSync.IsZero() {
        if self.last_base_runtime_sync is None:
            errs.append(RuntimeError("container runtime status check may not have completed yet"))
        # Go: if !s.lastBaseRuntimeSync.Add(s.baseRuntimeSyncThreshold).After(time.Now()) {
        elif not self.last_base_runtime_sync + self.base_runtime_sync_threshold > self.clock.now():
            errs.append(RuntimeError("container runtime is down"))
        # Go: for _, hc := range s.healthChecks {
        for name, fn in self.health_checks:
            ok, err = fn()
            if not ok:
                errs.append(RuntimeError(f"{name} is not healthy: {err}"))
        # Go: if s.runtimeError != nil {
        if self.runtime_error is not None:
            errs.append(self.runtime_error)
        # Go: return utilerrors.NewAggregate(errs)
        return new_aggregate(errs)

    def network_errors(self) -> AggregateError | None:
        """Go: pkg/kubelet/runtime.go (*runtimeState).networkErrors"""
        return new_aggregate([self.network_error] if self.network_error is not None else [])


def new_runtime_state(clock: Clock, runtime_sync_threshold: float) -> RuntimeState:
    """Go: pkg/kubelet/runtime.go newRuntimeState"""
    return RuntimeState(clock=clock, base_runtime_sync_threshold=runtime_sync_threshold)
