"""k8s.io/apimachinery/pkg/util/intstr: a number or a name, in one field."""
