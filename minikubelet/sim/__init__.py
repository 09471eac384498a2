"""What the port adds, with no Go counterpart: the world kubelet runs in, simulated.

* [`go`][.go] — Go's channels, ``select``, goroutines and timers on asyncio, with a virtual clock;
* [`cri`][.cri] — an in-memory container runtime and image service behind the CRI, whose
  containers live as a *scenario* says (a stand-in for containerd);
* [`scripted_watch`][.scripted_watch] — a scripted stand-in for the API server's watch of this
  node's pods;
* [`fsnotify`][.fsnotify] — a polling stand-in for the fsnotify directory watcher;
* [`klog`][.klog] — klog's output format (not its code), so the log reads like kubelet's;
* [`node`][.node] — the node the kubelet runs on, built from a few numbers;
* [`manifest`][.manifest] — reading manifests for learners, tests and the config sources, with
  errors that name the file, the document and the field;
* [`cli`][.cli], [`phase_reporter`][.phase_reporter] and [`i18n`][.i18n] — the ``minikubelet``
  command, what it prints besides kubelet's log, and the language it speaks.
"""
