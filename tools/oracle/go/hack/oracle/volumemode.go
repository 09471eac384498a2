// Volume level of the oracle (our own code): kubelet v1.21.4's real volume manager (the
// populator, the reconciler, the operation executor and its back-off, kubelet's volume host with
// the emptyDir, hostPath, secret, configMap and projected plugins) over client-go's fake API
// server and a scratch root directory, stepped by hand, for a scenario's `volumes` steps:
//
//	volumes:
//	  - add: {kind: ConfigMap, ...}   # another client creates a configMap or secret
//	  - pass                          # one populator loop, one reconciler pass; the operations
//	                                  # it started run to their end
//	  - wait: 600ms                   # wall-clock time passes (the back-off reads the wall clock)
//	  - sync                          # what WaitForAttachAndMount asks first: reprocess the pod
//	  - verdict                       # what a wait ending now would return
//	  - files                         # the files the pod's volumes hold
//
// The pod's hostPath paths are moved under a scratch host directory, and the output says the
// port's paths again (/var/lib/kubelet for the root, / for the host), so that both sides print
// the same text.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/ioutil"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/kubelet"
	"k8s.io/kubernetes/pkg/kubelet/configmap"
	containertest "k8s.io/kubernetes/pkg/kubelet/container/testing"
	kubepod "k8s.io/kubernetes/pkg/kubelet/pod"
	podtest "k8s.io/kubernetes/pkg/kubelet/pod/testing"
	"k8s.io/kubernetes/pkg/kubelet/secret"
	"k8s.io/kubernetes/pkg/kubelet/volumemanager"
	"k8s.io/kubernetes/pkg/volume/util"
	"k8s.io/kubernetes/pkg/volume/util/volumepathhandler"
	"k8s.io/klog/v2"
	"sigs.k8s.io/yaml"
)

// The node directories the port's simulated filesystem starts with (minikubelet/sim/volume_fs.py).
var hostDirs = []string{"etc", "tmp", "var/lib/kubelet/pods", "var/log/pods", "run"}

type noStatus struct{}

func (noStatus) GetPodStatus(types.UID) (v1.PodStatus, bool) { return v1.PodStatus{}, false }

type volumeRun struct {
	root, host string
	pod        *v1.Pod
	client     *fake.Clientset
	cms        configmap.Manager
	secrets    secret.Manager
	vm         volumemanager.VolumeManager
	rec        *record.FakeRecorder
	step       int
	lines      []string
}

// out collects a line of the step, with the scratch paths said as the port says them.
func (r *volumeRun) out(format string, a ...interface{}) {
	line := fmt.Sprintf(format, a...)
	line = strings.ReplaceAll(line, r.host, "")
	line = strings.ReplaceAll(line, r.root, "/var/lib/kubelet")
	r.lines = append(r.lines, line)
}

// flush prints the step's lines: what the goroutines logged and recorded, sorted (they ran
// concurrently), then the volumes mounted for the pod.
func (r *volumeRun) flush() {
	text := klogOut.String()
	klogOut.Reset()
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "] "); i > 0 {
			r.out("klog: %s %s", line[:1], line[i+2:])
		}
	}
	for done := false; !done; {
		select {
		case e := <-r.rec.Events:
			r.out("event: %s", e)
		default:
			done = true
		}
	}
	sort.Strings(r.lines)
	for _, l := range r.lines {
		fmt.Println(l)
	}
	r.lines = nil
	var mounted []string
	for name := range r.vm.GetMountedVolumesForPod(util.GetUniquePodName(r.pod)) {
		mounted = append(mounted, name)
	}
	sort.Strings(mounted)
	fmt.Printf("mounted: %v\n", mounted)
}

func (r *volumeRun) header(what string) {
	r.step++
	fmt.Printf("# step %d %s\n", r.step, what)
}

// add writes a configMap or secret as another client would, and waits until kubelet's
// watching manager has it (its reflector runs on its own goroutine).
func (r *volumeRun) add(obj map[string]interface{}) {
	b, _ := json.Marshal(obj)
	kind, _ := obj["kind"].(string)
	switch kind {
	case "ConfigMap":
		var cm v1.ConfigMap
		must(json.Unmarshal(b, &cm))
		if cm.Namespace == "" {
			cm.Namespace = "default"
		}
		_, err := r.client.CoreV1().ConfigMaps(cm.Namespace).Create(context.TODO(), &cm, metav1.CreateOptions{})
		must(err)
		r.until(func() bool { _, err := r.cms.GetConfigMap(cm.Namespace, cm.Name); return err == nil })
	case "Secret":
		var s v1.Secret
		must(json.Unmarshal(b, &s))
		if s.Namespace == "" {
			s.Namespace = "default"
		}
		for k, v := range s.StringData {
			if s.Data == nil {
				s.Data = map[string][]byte{}
			}
			s.Data[k] = []byte(v)
		}
		s.StringData = nil
		_, err := r.client.CoreV1().Secrets(s.Namespace).Create(context.TODO(), &s, metav1.CreateOptions{})
		must(err)
		r.until(func() bool { _, err := r.secrets.GetSecret(s.Namespace, s.Name); return err == nil })
	default:
		must(fmt.Errorf("add: kind %q (ConfigMap or Secret)", kind))
	}
}

func (r *volumeRun) until(cond func() bool) {
	for start := time.Now(); !cond(); time.Sleep(time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			must(fmt.Errorf("step %d: gave up waiting", r.step))
		}
	}
}

// files prints the files the pod's volumes hold (not the atomic writer's ..data links).
func (r *volumeRun) files() {
	dir := filepath.Join(r.root, "pods", string(r.pod.UID), "volumes")
	var found []string
	_ = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || strings.Contains(path, "/..") {
			return nil
		}
		if info.Mode().IsRegular() || info.Mode()&os.ModeSymlink != 0 {
			data, err := ioutil.ReadFile(path)
			if err == nil {
				rel, _ := filepath.Rel(dir, path)
				found = append(found, fmt.Sprintf("file: %s = %q", rel, data))
			}
		}
		return nil
	})
	sort.Strings(found)
	for _, f := range found {
		fmt.Println(f)
	}
}

func runVolumes(pod *v1.Pod, steps []interface{}, fs *flag.FlagSet) {
	must(fs.Set("v", "3"))
	root, err := ioutil.TempDir("", "oracle-volumes")
	must(err)
	defer os.RemoveAll(root)
	host := filepath.Join(root, "host")
	for _, d := range hostDirs {
		must(os.MkdirAll(filepath.Join(host, d), 0755))
	}
	for i := range pod.Spec.Volumes {
		if hp := pod.Spec.Volumes[i].HostPath; hp != nil {
			hp.Path = host + hp.Path
		}
	}
	r := &volumeRun{root: root, host: host, pod: pod, client: fake.NewSimpleClientset(),
		rec: record.NewFakeRecorder(10000)}
	r.cms = configmap.NewWatchingConfigMapManager(r.client, time.Minute)
	r.secrets = secret.NewWatchingSecretManager(r.client, time.Minute)
	podManager := kubepod.NewBasicPodManager(podtest.NewFakeMirrorClient(), r.secrets, r.cms)
	podManager.AddPod(pod)
	mgr, mounter, hu, err := kubelet.NewOracleVolumePluginMgr(r.client, root, r.cms, r.secrets)
	must(err)
	r.vm = volumemanager.NewVolumeManager(true, "node", podManager, noStatus{}, r.client, mgr,
		&containertest.FakeRuntime{}, mounter, hu, filepath.Join(root, "pods"), r.rec, false, false,
		volumepathhandler.NewBlockVolumePathHandler())
	klogOut.Reset()
	vs := r.vm.(interface {
		OracleStep()
		OracleBusy() bool
		OracleReprocess(*v1.Pod)
		OracleVerdict(*v1.Pod) string
	})
	for _, s := range steps {
		switch x := s.(type) {
		case string:
			switch x {
			case "pass":
				r.header("pass")
				vs.OracleStep()
				r.until(func() bool { return !vs.OracleBusy() })
				r.flush()
			case "sync":
				r.header("sync")
				vs.OracleReprocess(pod)
			case "verdict":
				r.header("verdict")
				fmt.Println("verdict: " + vs.OracleVerdict(pod))
			case "files":
				r.header("files")
				r.files()
			default:
				must(fmt.Errorf("unknown volume step %q", x))
			}
		case map[string]interface{}:
			switch {
			case x["wait"] != nil:
				time.Sleep(parseStepDur(x["wait"]))
			case x["add"] != nil:
				obj, _ := x["add"].(map[string]interface{})
				r.header("add")
				r.add(obj)
			default:
				must(fmt.Errorf("unknown volume step %v", x))
			}
		}
	}
	klog.Flush()
}

// volumeSteps reads a scenario's `volumes` steps (nil when it has none).
func volumeSteps(data []byte) []interface{} {
	var sc struct {
		Volumes []interface{} `json:"volumes"`
	}
	must(yaml.Unmarshal(data, &sc))
	return sc.Volumes
}
