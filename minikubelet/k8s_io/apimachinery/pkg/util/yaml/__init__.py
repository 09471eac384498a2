"""k8s.io/apimachinery/pkg/util/yaml: turning YAML (or JSON) into the data kubelet decodes."""
