// Oracle hooks: NOT part of Kubernetes. Written for the oracle (tools/oracle/go/hack/oracle/
// evictionmode.go): they only reach the eviction manager's unexported names, so that the driver
// can step its control loop by hand instead of running Start's goroutine.

package eviction

import (
	"time"

	v1 "k8s.io/api/core/v1"
	evictionapi "k8s.io/kubernetes/pkg/kubelet/eviction/api"
)

// OracleSynchronize runs one pass of the manager's control loop.
func OracleSynchronize(m Manager, d DiskInfoProvider, f ActivePodsFunc) []*v1.Pod {
	return m.(*managerImpl).synchronize(d, f)
}

// OracleWaitForPodsCleanup waits, as Start's loop does after an eviction, for the pods to be
// cleaned up (on the manager's clock).
func OracleWaitForPodsCleanup(m Manager, f PodCleanedUpFunc, pods []*v1.Pod) {
	m.(*managerImpl).waitForPodsCleanup(f, pods)
}

// OracleThreshold is a threshold the manager has seen met: since when, and whether it is among
// the thresholds met with their grace period (m.thresholdsMet).
type OracleThreshold struct {
	Threshold evictionapi.Threshold
	Since     time.Time
	Met       bool
}

// OracleState is what the manager holds after a pass: its node conditions and the thresholds
// it has seen met.
func OracleState(m Manager) ([]v1.NodeConditionType, []OracleThreshold) {
	mi := m.(*managerImpl)
	mi.RLock()
	defer mi.RUnlock()
	var out []OracleThreshold
	for t, at := range mi.thresholdsFirstObservedAt {
		out = append(out, OracleThreshold{t, at, hasThreshold(mi.thresholdsMet, t)})
	}
	return append([]v1.NodeConditionType(nil), mi.nodeConditions...), out
}
