"""Per-key exponential back-off: how long kubelet waits before it restarts a crashed container
or pulls an image that failed to pull.

Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go

Each key (a container of a pod, an image of a pod) has a delay that starts at ``initial`` and
doubles every time [`Backoff.next`][] is called, up to ``max_duration``. A key left alone for
twice ``max_duration`` starts again from ``initial``. kubelet uses 10 s and 300 s (Go:
``backOffPeriod`` and ``MaxContainerBackOff`` in kubelet.go): 10 s, 20 s, 40 s, 80 s, 160 s,
300 s, 300 s …

Times are ``float`` seconds (durations) and seconds since the Unix epoch (points in time), as in
[`minikubelet.go`][minikubelet.go]. Go guards the map with a ``sync.RWMutex``; no method
here awaits, so on the port's one thread each call is already atomic and there is no lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.go import Clock


class _RuntimeClock:
    """The clock of whichever runtime is running when it is read (virtual or real).

    Lets a [`Backoff`][] be made before ``go.run`` starts (kubelet makes its back-offs in
    ``NewMainKubelet``) and still read the run's clock.
    """

    @property
    def virtual(self) -> bool:
        from minikubelet.go import current_runtime

        return current_runtime().clock.virtual

    def now(self) -> float:
        from minikubelet.go import now

        return now()

    def monotonic(self) -> float:
        from minikubelet.go import current_runtime

        return current_runtime().clock.monotonic()


#: The clock a [`Backoff`][] uses unless given one: the running runtime's.
RUNTIME_CLOCK: Clock = _RuntimeClock()


@dataclass
class BackoffEntry:
    """Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go type backoffEntry"""

    backoff: float
    last_update: float


@dataclass
class Backoff:
    """Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go type Backoff"""

    clock: Clock
    default_duration: float
    max_duration: float
    per_item_backoff: dict[str, BackoffEntry] = field(default_factory=dict)

    def get(self, id: str) -> float:
        """The current delay of ``id`` (0 when it has none).

        Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go (*Backoff).Get
        """
        delay = 0.0
        entry = self.per_item_backoff.get(id)
        if entry is not None:
            delay = entry.backoff
        return delay

    def next(self, id: str, event_time: float) -> None:
        """Move the delay of ``id`` to the next mark (doubling it), capped at ``max_duration``.

        Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go (*Backoff).Next
        """
        # Go omitted: p.Lock() -- goroutines here switch only at an await: no lock
        # Go: entry, ok := p.perItemBackoff[id]
        entry = self.per_item_backoff.get(id)
        # Go: if !ok || hasExpired(eventTime, entry.lastUpdate, p.maxDuration) {
        if entry is None or has_expired(event_time, entry.last_update, self.max_duration):
            entry = self.init_entry_unsafe(id)
        else:
            delay = entry.backoff * 2  # exponential
            entry.backoff = min(delay, self.max_duration)
        # Go: entry.lastUpdate = p.Clock.Now()
        entry.last_update = self.clock.now()

    def reset(self, id: str) -> None:
        """Forget the delay of ``id``.

        Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go (*Backoff).Reset
        """
        self.per_item_backoff.pop(id, None)

    def is_in_back_off_since(self, id: str, event_time: float) -> bool:
        """True if less than the current delay has passed since ``event_time``.

        Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go (*Backoff).IsInBackOffSince
        """
        # Go omitted: p.RLock() -- goroutines here switch only at an await: no lock
        # Go: entry, ok := p.perItemBackoff[id]
        entry = self.per_item_backoff.get(id)
        # Go: if !ok {
        if entry is None:
            return False
        # Go: if hasExpired(eventTime, entry.lastUpdate, p.maxDuration) {
        if has_expired(event_time, entry.last_update, self.max_duration):
            return False
        # Go: return p.Clock.Since(eventTime) < entry.backoff
        return self.clock.now() - event_time < entry.backoff

    def is_in_back_off_since_update(self, id: str, event_time: float) -> bool:
        """True if less than the current delay has passed from the last update to ``event_time``.

        Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go (*Backoff).IsInBackOffSinceUpdate
        """
        entry = self.per_item_backoff.get(id)
        if entry is None:
            return False
        if has_expired(event_time, entry.last_update, self.max_duration):
            return False
        return event_time - entry.last_update < entry.backoff

    def gc(self) -> None:
        """Forget the keys not updated for twice ``max_duration``.

        Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go (*Backoff).GC
        """
        now = self.clock.now()
        for id, entry in list(self.per_item_backoff.items()):
            if now - entry.last_update > self.max_duration * 2:
                del self.per_item_backoff[id]

    def delete_entry(self, id: str) -> None:
        """Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go (*Backoff).DeleteEntry"""
        self.per_item_backoff.pop(id, None)

    def init_entry_unsafe(self, id: str) -> BackoffEntry:
        """Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go (*Backoff).initEntryUnsafe"""
        entry = BackoffEntry(backoff=self.default_duration, last_update=0.0)
        self.per_item_backoff[id] = entry
        return entry


def new_fake_back_off(initial: float, max_duration: float, tc: Clock) -> Backoff:
    """A back-off on the given clock.

    Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go NewFakeBackOff
    """
    return Backoff(clock=tc, default_duration=initial, max_duration=max_duration)


def new_back_off(initial: float, max_duration: float) -> Backoff:
    """A back-off on the clock of the running runtime (Go: ``clock.RealClock{}``).

    Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go NewBackOff
    """
    return Backoff(clock=RUNTIME_CLOCK, default_duration=initial, max_duration=max_duration)


def has_expired(event_time: float, last_update: float, max_duration: float) -> bool:
    """After 2 × ``max_duration`` without an update, a key starts again from the initial delay.

    Go: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go hasExpired
    """
    return event_time - last_update > max_duration * 2  # consider stable if ok for 2*maxDuration
