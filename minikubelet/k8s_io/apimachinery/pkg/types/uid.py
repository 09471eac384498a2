"""An object's UID as a type of its own.

Go: staging/src/k8s.io/apimachinery/pkg/types/uid.go

The port keeps UIDs as plain ``str`` in its objects. Where Go hands a ``types.UID`` to klog, the
port wraps the value in [`UID`][] so that klog prints it as Go's does: a named string type is not
a ``string`` to klog's type switch, so it prints with ``%+v``, without quotes
(``podUID=uid-web``, not ``podUID="uid-web"``).
"""

from __future__ import annotations


class UID(str):
    """Go: staging/src/k8s.io/apimachinery/pkg/types/uid.go type UID"""

    __slots__ = ()
