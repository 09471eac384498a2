"""k8s.io/apimachinery/pkg/util/errors: several errors as one."""
