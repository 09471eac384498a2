"""k8s.io/apimachinery/pkg/util/validation: the syntax of names, label values and ports."""
