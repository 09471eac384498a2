"""minikubelet: a small, runnable, deterministic Python port of kubelet's pod-creation path.

The port follows Kubernetes **v1.21.3** (`pkg/kubelet/...`), module by module: each Python module
mirrors one Go file, keeps Go's names and the order of its statements, and says in its docstrings
which Go symbol each function ports.
"""

__version__ = "0.1.0"

#: The Kubernetes release the port follows, line by line.
KUBERNETES_VERSION = "v1.21.3"
