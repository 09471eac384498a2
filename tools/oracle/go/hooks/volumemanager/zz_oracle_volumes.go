// Oracle hooks: NOT part of Kubernetes (scratch only). Lets the oracle step the real volume
// manager by hand (one populator loop, one reconciler pass) instead of running its loops on the
// wall clock, and read what WaitForAttachAndMount would conclude at that moment.

package volumemanager

import (
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/volume/util"
)

// OracleStep runs the populator's loop once, then the reconciler's pass once.
func (vm *volumeManager) OracleStep() {
	vm.desiredStateOfWorldPopulator.(interface{ OracleLoop() }).OracleLoop()
	vm.reconciler.(interface{ OracleReconcile() }).OracleReconcile()
}

// OracleBusy says whether an operation on any wanted volume is still running.
func (vm *volumeManager) OracleBusy() bool {
	for _, v := range vm.desiredStateOfWorld.GetVolumesToMount() {
		if vm.operationExecutor.IsOperationPending(v.VolumeName, "", "") {
			return true
		}
	}
	return false
}

// OracleReprocess is what each WaitForAttachAndMount asks of the populator first.
func (vm *volumeManager) OracleReprocess(pod *v1.Pod) {
	vm.desiredStateOfWorldPopulator.ReprocessPod(util.GetUniquePodName(pod))
}

// OracleVerdict is what a wait of WaitForAttachAndMount ending now would return: "mounted", or
// the message of its error (with "<timeout>" for the wait's own error), the lists sorted.
func (vm *volumeManager) OracleVerdict(pod *v1.Pod) string {
	name := util.GetUniquePodName(pod)
	expected := getExpectedVolumes(pod)
	sort.Strings(expected)
	reason := "<timeout>"
	if errs := vm.desiredStateOfWorld.PopPodErrors(name); len(errs) > 0 {
		reason = strings.Join(errs, "; ")
	}
	unmounted := vm.getUnmountedVolumes(name, expected)
	if len(unmounted) == 0 {
		return "mounted"
	}
	return fmt.Sprintf("unmounted volumes=%v, unattached volumes=%v: %s",
		unmounted, vm.getUnattachedVolumes(expected), reason)
}
