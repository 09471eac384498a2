"""k8s.io/apimachinery/pkg/util/wait: running a function periodically until told to stop."""
