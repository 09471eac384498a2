// Oracle hooks: NOT part of Kubernetes (ours; copied into the vendored package at build time).

package prober

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/prober/results"
	"k8s.io/kubernetes/pkg/kubelet/status"
)

// OracleManager is kubelet's real probe manager whose workers are registered but never run:
// a worker probes on real-time tickers, so the oracle sets their results itself, through the
// same results managers, at the scenario's steps.
type OracleManager struct{ *manager }

// NewOracleManager builds the real manager.
func NewOracleManager(sm status.Manager, l, r, s results.Manager, runner kubecontainer.CommandRunner, rec record.EventRecorder) *OracleManager {
	return &OracleManager{NewManager(sm, l, r, s, runner, rec).(*manager)}
}

// AddPod is the real AddPod without `go w.run()`.
func (m *OracleManager) AddPod(pod *v1.Pod) {
	m.workerLock.Lock()
	defer m.workerLock.Unlock()
	key := probeKey{podUID: pod.UID}
	for _, c := range pod.Spec.Containers {
		key.containerName = c.Name
		for _, pt := range []struct {
			set bool
			t   probeType
		}{{c.StartupProbe != nil, startup}, {c.ReadinessProbe != nil, readiness}, {c.LivenessProbe != nil, liveness}} {
			if !pt.set {
				continue
			}
			key.probeType = pt.t
			if _, ok := m.workers[key]; ok {
				return
			}
			m.workers[key] = newWorker(m.manager, pt.t, pod, c)
		}
	}
}
