"""What the port adds, with no Go counterpart: the world kubelet runs in, simulated.

* [`cri`][.cri] — an in-memory container runtime and image service behind the CRI, whose
  containers live as a *scenario* says (a stand-in for containerd);
* [`scripted_watch`][.scripted_watch] — a scripted stand-in for the API server's watch of this
  node's pods;
* [`node`][.node] — the node the kubelet runs on, built from a few numbers;
* [`cli`][.cli] and [`phase_reporter`][.phase_reporter] — the ``minikubelet``
  command and what it prints besides kubelet's log;
* [`trace`][.trace] — the recorder of a run's steps (selects, channels, pod workers, runtime
  calls) that ``minikubelet run --trace`` writes and the site plays back.
"""
