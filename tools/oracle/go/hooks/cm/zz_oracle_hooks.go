// Oracle hooks: NOT part of Kubernetes. Ours, copied into the vendored package at build time so
// that the driver can ask the real pod container manager for a pod's cgroup name.

package cm

import (
	v1 "k8s.io/api/core/v1"
)

// OraclePodCgroupParent is kubelet's GetPodCgroupParent on a node with kubelet's defaults
// (--cgroups-per-qos, --cgroup-root=/, --cgroup-driver=cgroupfs): the QoS cgroups the container
// manager makes under kubepods, and the real podContainerManagerImpl naming the pod's cgroup.
func OraclePodCgroupParent(pod *v1.Pod) string {
	root := NewCgroupName(RootCgroupName, defaultNodeAllocatableCgroupName)
	m := &podContainerManagerImpl{
		qosContainersInfo: QOSContainersInfo{
			Guaranteed: root,
			Burstable:  NewCgroupName(root, "burstable"),
			BestEffort: NewCgroupName(root, "besteffort"),
		},
		subsystems:    &CgroupSubsystems{},
		cgroupManager: NewCgroupManager(&CgroupSubsystems{}, "cgroupfs"),
	}
	_, parent := m.GetPodContainerName(pod)
	return parent
}
