"""Writing a pod's status to the API server, from pkg/util/pod/ in Go (kubelet imports it as
``statusutil``)."""
