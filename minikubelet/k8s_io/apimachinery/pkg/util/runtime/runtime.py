"""Errors that no caller can return are handed to ``HandleError``, which logs them.

Go: staging/src/k8s.io/apimachinery/pkg/util/runtime/runtime.go

kubelet calls ``utilruntime.HandleError`` where it gives up on an error it cannot return (a
container that failed to start, a pod it could not kill). The error's text is the whole log line:
an ``E`` line with no quotes and no key/value pairs, unlike ``klog.ErrorS``::

    E0715 00:00:01.000000       1 kuberuntime_manager.py:771] container &Container{Name:app,…} start failed in pod web_default(uid-web): ErrImagePull: …

Not ported: Go's second error handler, a global rate limit that sleeps (on the wall clock) so that
errors are logged at most once a millisecond. It changes no line and no decision, and a run on the
virtual clock has no wall-clock pace to keep.
"""

from __future__ import annotations

from collections.abc import Callable

from minikubelet.k8s_io.klog.v2 import klog


def log_error(err: BaseException) -> None:
    """Log the error's text as kubelet's caller of ``HandleError`` (two frames up).

    Go: staging/src/k8s.io/apimachinery/pkg/util/runtime/runtime.go logError
    """
    klog.error_depth(2, err)


#: What ``HandleError`` calls for each error. Go: ``ErrorHandlers`` (without the rate limit).
ErrorHandlers: list[Callable[[BaseException], None]] = [log_error]


def handle_error(err: BaseException | None) -> None:
    """Hand an error nobody can return to each of ``ErrorHandlers``; a nil error is ignored.

    Go: staging/src/k8s.io/apimachinery/pkg/util/runtime/runtime.go HandleError
    """
    if err is None:
        return
    for fn in ErrorHandlers:
        fn(err)
