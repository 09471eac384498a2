// Oracle hooks: NOT part of Kubernetes. Written for the oracle spike (scratch only) so that a
// main package can reach the unexported constructor and computePodActions of this package.

package kuberuntime

import (
	"sort"
	"time"

	cadvisorapi "github.com/google/cadvisor/info/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/clock"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	internalapi "k8s.io/cri-api/pkg/apis"
	"k8s.io/kubernetes/pkg/credentialprovider"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/images"
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"
)

// OracleManager wraps the real (unexported) runtime manager.
type OracleManager struct {
	M *kubeGenericRuntimeManager
}

// NewOracleManager builds the real manager the way newFakeKubeRuntimeManager does, then gives
// it kubelet's own image-pull settings (serial pulls, back-off 10s..300s) on the given clock and
// kubelet's default CFS quota.
func NewOracleManager(rs internalapi.RuntimeService, is internalapi.ImageManagerService,
	osIf kubecontainer.OSInterface, helper kubecontainer.RuntimeHelper, fc *clock.FakeClock, rec record.EventRecorder) (*OracleManager, error) {
	// The node of the port's command line: 4 CPUs, 8Gi (a Burstable container's OOM score divides by it).
	mi := &cadvisorapi.MachineInfo{NumCores: 4, MemoryCapacity: 8 << 30}
	m, err := newFakeKubeRuntimeManager(rs, is, mi, osIf, helper, &credentialprovider.BasicDockerKeyring{})
	if err != nil {
		return nil, err
	}
	m.recorder = rec
	// kubelet's default (--cpu-cfs-quota=true); the test constructor turns it off.
	m.cpuCFSQuota = true
	m.imagePuller = images.NewImageManager(
		kubecontainer.FilterEventRecorder(m.recorder),
		m,
		flowcontrol.NewFakeBackOff(10*time.Second, 300*time.Second, fc),
		true, // kubelet's default: serializeImagePulls
		0, 0)
	return &OracleManager{M: m}, nil
}

// Runtime is the manager as kubelet sees it.
func (o *OracleManager) Runtime() kubecontainer.Runtime { return o.M }

// KillInfo is containerToKillInfo with exported fields.
type KillInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Message string `json:"message"`
	Reason  string `json:"reason"`
}

// Actions is podActions in a printable form.
type Actions struct {
	KillPod                    bool       `json:"KillPod"`
	CreateSandbox              bool       `json:"CreateSandbox"`
	SandboxID                  string     `json:"SandboxID"`
	Attempt                    uint32     `json:"Attempt"`
	NextInitContainerToStart   *string    `json:"NextInitContainerToStart"`
	ContainersToStart          []int      `json:"ContainersToStart"`
	ContainersToKill           []KillInfo `json:"ContainersToKill"`
	EphemeralContainersToStart []int      `json:"EphemeralContainersToStart"`
}

// ComputePodActions runs the real computePodActions.
func (o *OracleManager) ComputePodActions(pod *v1.Pod, st *kubecontainer.PodStatus) Actions {
	c := o.M.computePodActions(pod, st)
	a := Actions{
		KillPod:                    c.KillPod,
		CreateSandbox:              c.CreateSandbox,
		SandboxID:                  c.SandboxID,
		Attempt:                    c.Attempt,
		ContainersToStart:          append([]int{}, c.ContainersToStart...),
		EphemeralContainersToStart: append([]int{}, c.EphemeralContainersToStart...),
		ContainersToKill:           []KillInfo{},
	}
	if c.NextInitContainerToStart != nil {
		n := c.NextInitContainerToStart.Name
		a.NextInitContainerToStart = &n
	}
	for id, k := range c.ContainersToKill {
		a.ContainersToKill = append(a.ContainersToKill, KillInfo{ID: id.ID, Name: k.name, Message: k.message, Reason: string(k.reason)})
	}
	sort.Slice(a.ContainersToKill, func(i, j int) bool { return a.ContainersToKill[i].Name < a.ContainersToKill[j].Name })
	return a
}

// SetProbeResult stores a liveness or startup result for a container, as the prober would.
func (o *OracleManager) SetProbeResult(kind, containerID string, success bool, pod *v1.Pod) {
	r := proberesults.Failure
	if success {
		r = proberesults.Success
	}
	id := kubecontainer.ContainerID{Type: o.M.runtimeName, ID: containerID}
	switch kind {
	case "liveness":
		o.M.livenessManager.Set(id, r, pod)
	case "startup":
		o.M.startupManager.Set(id, r, pod)
	}
}

// SetPodState says whether the pod is deleted or terminated, for the container GC (the test
// provider's default is that every pod is both).
func (o *OracleManager) SetPodState(uid types.UID, deleted, terminated bool) {
	p := o.M.podStateProvider.(*fakePodStateProvider)
	delete(p.existingPods, uid)
	delete(p.runningPods, uid)
	if !deleted {
		p.existingPods[uid] = struct{}{}
	}
	if !terminated {
		p.runningPods[uid] = struct{}{}
	}
}
