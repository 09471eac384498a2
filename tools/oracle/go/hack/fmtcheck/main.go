// Command fmtcheck prints Go values of kubelet v1.21.4's types the way kubelet's log lines and
// error messages print them (fmt's %v, %+v, %q, klog's key=value), one labelled line each, so
// that tests/go/test_go_fmt.py can hold the port's minikubelet.go.fmt to the real output.
// Ours; it only calls kubelet's packages. Built by tools/oracle/build.sh, run by make oracle.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1alpha2"
	"k8s.io/klog/v2"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/pleg"
)

// klogLine runs one klog call and prints what follows the line's header ("] "), as label.
func klogLine(label string, log func()) {
	var b strings.Builder
	klog.SetOutput(&b)
	log()
	klog.Flush()
	line := strings.TrimSuffix(b.String(), "\n")
	fmt.Printf("%s %s\n", label, line[strings.Index(line, "] ")+2:])
}

func main() {
	klog.LogToStderr(false)
	for _, s := range []string{"0", "1", "2", "100m", "250m", "1000m", "0.1", "0.25", "1.5",
		"64Mi", "128Mi", "1Gi", "0.5Gi", "1.5Gi", "1k", "2G", "1e3"} {
		q := resource.MustParse(s)
		fmt.Printf("quantity %s %v\n", s, q)
	}

	yes := true
	c := &v1.Container{
		Name: "app", Image: "busybox:1.36", Command: []string{"sh", "-c", `echo "hi"`}, Args: []string{"a b"},
		WorkingDir: "/w",
		Ports:      []v1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: v1.ProtocolTCP}},
		Env: []v1.EnvVar{{Name: "A", Value: "1"},
			{Name: "B", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
			{Name: "C", ValueFrom: &v1.EnvVarSource{ResourceFieldRef: &v1.ResourceFieldSelector{Resource: "limits.cpu"}}},
			{Name: "D", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
				LocalObjectReference: v1.LocalObjectReference{Name: "cm"}, Key: "k", Optional: &yes}}}},
		Resources: v1.ResourceRequirements{
			Limits:   v1.ResourceList{"cpu": resource.MustParse("500m"), "memory": resource.MustParse("128Mi")},
			Requests: v1.ResourceList{"cpu": resource.MustParse("0.25"), "memory": resource.MustParse("128Mi")}},
		VolumeMounts: []v1.VolumeMount{{Name: "data", MountPath: "/data", ReadOnly: true}},
		LivenessProbe: &v1.Probe{Handler: v1.Handler{HTTPGet: &v1.HTTPGetAction{Path: "/healthz",
			Port: intstr.FromString("http"), Scheme: v1.URISchemeHTTP}},
			TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3},
		Lifecycle: &v1.Lifecycle{PostStart: &v1.Handler{Exec: &v1.ExecAction{Command: []string{"sh", "-c", "x"}}}},
		TerminationMessagePath: "/dev/termination-log", ImagePullPolicy: v1.PullIfNotPresent,
		TerminationMessagePolicy: v1.TerminationMessageReadFile,
	}
	// kuberuntime_manager.go:864 and lifecycle/handlers.go:105.
	fmt.Println("start-failed", fmt.Errorf("%v %+v start failed in pod %v: %v: %s", "container", c, "web_default(uid-web)", errors.New("ErrImagePull"), "boom"))
	fmt.Println("resolve-port", fmt.Errorf("couldn't find port: %v in %v", intstr.FromString("web"), c))
	klogLine("klog-container", func() { klog.InfoS("Creating container in pod", "containerType", "container", "container", c) })

	cid := kubecontainer.ContainerID{Type: "containerd", ID: "abc"}
	fmt.Printf("container-id %+v|%v|%v\n", cid, cid, &cid)
	klogLine("klog-container-id", func() { klog.InfoS("x", "containerID", cid, "pointer", &cid, "string", cid.String()) })

	t0 := time.Unix(1626307200, 100000000).UTC()
	st := &kubecontainer.Status{ID: cid, Name: "app", State: kubecontainer.ContainerStateExited,
		CreatedAt: t0, StartedAt: t0, FinishedAt: time.Unix(1626307220, 0).UTC(), ExitCode: 137,
		Image: "busybox", ImageID: "sha256:x", Hash: 123, RestartCount: 1, Reason: "Error", Message: "m"}
	// kubelet_pods.go:979
	fmt.Printf("status %+v \n", *st)
	ps := &kubecontainer.PodStatus{ID: "uid-web", Name: "web", Namespace: "default",
		ContainerStatuses: []*kubecontainer.Status{st},
		SandboxStatuses: []*runtimeapi.PodSandboxStatus{{Id: "sb1",
			Metadata:  &runtimeapi.PodSandboxMetadata{Name: "web", Uid: "uid-web", Namespace: "default", Attempt: 1},
			State:     runtimeapi.PodSandboxState_SANDBOX_READY, CreatedAt: 1626307200000000000,
			Network:   &runtimeapi.PodSandboxNetworkStatus{Ip: ""},
			Linux:     &runtimeapi.LinuxPodSandboxStatus{Namespaces: &runtimeapi.Namespace{Options: &runtimeapi.NamespaceOption{Network: runtimeapi.NamespaceMode_NODE}}},
			Labels:    map[string]string{"io.kubernetes.pod.name": "web", "app": "web"},
			Annotations: map[string]string{}}}}
	// lifecycle/handlers.go:117
	fmt.Println("no-ip", fmt.Errorf("failed to find networking container: %v", ps))

	now := metav1.NewTime(t0)
	apiStatus := v1.PodStatus{Phase: v1.PodRunning,
		Conditions: []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: now}},
		HostIP:     "10.0.0.1", PodIP: "10.88.0.2", PodIPs: []v1.PodIP{{IP: "10.88.0.2"}}, StartTime: &now,
		ContainerStatuses: []v1.ContainerStatus{{Name: "app",
			State: v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: now}}, Ready: true,
			Image: "busybox", ContainerID: "containerd://abc", Started: &yes}},
		QOSClass: v1.PodQOSBestEffort}
	// status/status_manager.go:437 (a value) and kubelet_pods.go:1542 (a pointer).
	klogLine("klog-api-status", func() { klog.InfoS("Ignoring same status for pod", "status", apiStatus) })
	klogLine("klog-api-status-pointer", func() { klog.InfoS("x", "apiStatus", &apiStatus) })

	// kubelet.go:1970
	e := &pleg.PodLifecycleEvent{ID: "uid-web", Type: pleg.ContainerStarted, Data: "abc"}
	klogLine("klog-pleg-event", func() { klog.InfoS("SyncLoop (PLEG): event for pod", "event", e) })

	// lifecycle/handlers.go:66-67: the output of a hook is not always UTF-8.
	out := []byte("out\xfe\n")
	fmt.Println("hook-message", fmt.Sprintf("message: %q", string(out)))
	klogLine("klog-hook-output", func() {
		klog.ErrorS(errors.New("command 'x' exited with 2: \xff"), "Exec lifecycle hook for Container in Pod failed", "message", string(out))
	})
	os.Stdout.Sync()
}
