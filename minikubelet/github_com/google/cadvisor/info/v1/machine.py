"""The machine kubelet runs on, as cAdvisor describes it.

Stands in for github.com/google/cadvisor/info/v1 (``machine.go``), whose ``MachineInfo`` kubelet
reads for its node's capacity (``NumCores``, ``MemoryCapacity``) through
``cadvisor.Interface.MachineInfo``. The port's machine is simulated: it is described by those two
numbers only, given as quantities (a CPU count may be fractional, ``500m``).
"""

from __future__ import annotations

from dataclasses import dataclass

from minikubelet.k8s_io.apimachinery.pkg.api.resource import Quantity


@dataclass(slots=True, kw_only=True)
class MachineInfo:
    """The simulated machine's CPU and memory, which cAdvisor would measure on a real node (Go
    reads its ``MachineInfo``: ``NumCores``, ``MemoryCapacity``)."""

    cpu: Quantity
    memory: Quantity
