"""``metav1.Time``: a moment, written in manifests as an RFC 3339 string.

Go: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go

In the port a time is a ``float`` of seconds since the Unix epoch (what the runtime's clock
gives), or ``None`` when unset. [`Time`][] is that ``float`` with [`TimeJSON`][] attached,
which the manifest decoder and encoder use for fields of this type, as Go's ``encoding/json``
uses the ``UnmarshalJSON`` and ``MarshalJSON`` methods of Go's ``Time``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from minikubelet.base.i18n import both
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import describe


class TimeJSON:
    """How a [`Time`][] is read from and written to a manifest."""

    @staticmethod
    def unmarshal_json(value: Any) -> float:
        """An RFC 3339 string (or an explicit YAML ``!!timestamp``) as seconds since the epoch.

        Go: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go (*Time).UnmarshalJSON

        Raises ``ValueError`` with the message a manifest error shows.
        """
        if isinstance(value, datetime):  # an explicit !!timestamp
            moment = value if value.tzinfo else value.replace(tzinfo=UTC)
            return moment.timestamp()
        if isinstance(value, str):
            try:
                moment = datetime.fromisoformat(value)
            except ValueError:
                pass
            else:
                if moment.tzinfo is not None:
                    return moment.timestamp()
        got = describe(value)
        raise ValueError(
            both(
                f'expected an RFC 3339 time such as "2021-07-15T00:00:00Z", got {got}',
                f'应为 "2021-07-15T00:00:00Z" 这样的 RFC 3339 时间，实际为{got.zh}',
            )
        )

    @staticmethod
    def marshal_json(t: float) -> str:
        """RFC 3339 in UTC.

        Go: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go (Time).MarshalJSON

        Go writes whole seconds; the port keeps microseconds when a time has them, so that a
        pod written out and read back is equal to the original.
        """
        moment = datetime.fromtimestamp(t, UTC)
        if moment.microsecond:
            return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


Time = Annotated[float, TimeJSON]
"""A time in seconds since the Unix epoch (a ``float``), read and written as RFC 3339."""
