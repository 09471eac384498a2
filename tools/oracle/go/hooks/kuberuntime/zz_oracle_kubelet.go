// Oracle hooks: NOT part of Kubernetes (ours; copied into the vendored package at build time).

package kuberuntime

import (
	"k8s.io/apimachinery/pkg/types"
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"
)

// OraclePodState is what the Kubelet answers about a pod (IsPodDeleted, IsPodTerminated).
type OraclePodState interface {
	IsPodDeleted(uid types.UID) bool
	IsPodTerminated(uid types.UID) bool
}

// WireToKubelet makes the manager read the Kubelet's probe results and pod states, as
// NewMainKubelet wires them.
func (o *OracleManager) WireToKubelet(liveness, startup proberesults.Manager, p OraclePodState) {
	o.M.livenessManager = liveness
	o.M.startupManager = startup
	o.M.podStateProvider = p
	o.M.containerGC.podStateProvider = p
}
