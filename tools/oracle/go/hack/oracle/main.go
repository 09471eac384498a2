// The oracle (our own code, scratch only): runs kubelet v1.21.4's real kuberuntime manager
// (computePodActions, SyncPod, GetPodStatus) over our fake CRI, for a scenario file:
//
//	pod: {...a Pod manifest...}       # decoded by kubelet's own static-pod decoder
//	presentImages: [busybox:1.34]     # images already on the node
//	steps:
//	  - sync                          # GetPodStatus -> computePodActions -> SyncPod
//	  - wait: 1s                      # move the fake clock
//	  - run: {for: 10s, every: 1s}    # sync, wait, sync, wait ... for that long
//
// and prints a trace that the Python side (oracle_py.py) prints in the same format.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/ioutil"
	"os"
	"sort"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/clock"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	kubeletconfig "k8s.io/kubernetes/pkg/kubelet/config"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	containertest "k8s.io/kubernetes/pkg/kubelet/container/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/kubelet/kuberuntime"
	"sigs.k8s.io/yaml"
)

// helper: containertest.FakeRuntimeHelper plus what the Python port's helper does differently
// (hostname = pod name; init containers marked for the fake runtime; the pod's cgroup from the
// real pod container manager, as kubelet's own GetPodCgroupParent gives it).
type helper struct {
	containertest.FakeRuntimeHelper
}

func (h *helper) GenerateRunContainerOptions(pod *v1.Pod, c *v1.Container, podIP string, podIPs []string) (*kubecontainer.RunContainerOptions, func(), error) {
	opts, cleanup, err := h.FakeRuntimeHelper.GenerateRunContainerOptions(pod, c, podIP, podIPs)
	for _, ic := range pod.Spec.InitContainers {
		if ic.Name == c.Name {
			opts.Annotations = append(opts.Annotations, kubecontainer.Annotation{Name: initAnno, Value: "true"})
		}
	}
	return opts, cleanup, err
}

func (h *helper) GetPodCgroupParent(pod *v1.Pod) string {
	return cm.OraclePodCgroupParent(pod)
}

func (h *helper) GeneratePodHostNameAndDomain(pod *v1.Pod) (string, string, error) {
	if pod.Spec.Hostname != "" {
		return pod.Spec.Hostname, "", nil
	}
	return pod.Name, "", nil
}

type scenario struct {
	Pod           json.RawMessage `json:"pod"`
	PresentImages []string        `json:"presentImages"`
	Steps         []interface{}   `json:"steps"`
}

var epoch = time.Date(2021, 7, 15, 0, 0, 0, 0, time.UTC)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(2)
	}
}

type oracle struct {
	rt      *FakeRuntime
	fc      *clock.FakeClock
	log     *CallLog
	om      *kuberuntime.OracleManager
	rec     *record.FakeRecorder
	backOff *flowcontrol.Backoff
	pod     *v1.Pod
	step    int
}

func (o *oracle) out(format string, a ...interface{}) {
	fmt.Println(o.log.Scrub(fmt.Sprintf(format, a...)))
}

// klogOut holds what klog printed since the last flush.
var klogOut bytes.Buffer

func (o *oracle) flushCalls(prefix string) {
	for _, l := range o.log.Take() {
		o.out("%s: %s", prefix, l)
	}
	for _, l := range o.log.TakeConfigs() {
		o.out("config: %s", l)
	}
	o.flushKlog()
}

// flushKlog prints each klog line as "klog: <severity letter> <text after the header>": the
// header's time is the wall clock and its file:line is Go's, so neither is kept.
func (o *oracle) flushKlog() {
	text := klogOut.String()
	klogOut.Reset()
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			continue
		}
		if i := strings.Index(line, "] "); i > 0 {
			o.out("klog: %s %s", line[:1], line[i+2:])
		} else {
			o.out("klog: %s", line)
		}
	}
}

// probe stores a prober result for the newest container of that name.
func (o *oracle) probe(arg interface{}) {
	m, _ := arg.(map[string]interface{})
	kind, _ := m["kind"].(string)
	name, _ := m["container"].(string)
	result, _ := m["result"].(string)
	o.step++
	id := o.rt.LatestContainer(string(o.pod.UID), name)
	o.out("# step %d probe at +%s: %s %s %s", o.step, o.fc.Now().Sub(epoch), kind, name, result)
	o.om.SetProbeResult(kind, id, result == "success", o.pod)
}

func (o *oracle) sync() {
	o.step++
	o.out("# step %d sync at +%s", o.step, o.fc.Now().Sub(epoch))
	p := o.pod
	st, err := o.om.Runtime().GetPodStatus(p.UID, p.Name, p.Namespace)
	o.flushCalls("status-call")
	if err != nil {
		o.out("status-error: %v", err)
		return
	}
	for _, s := range st.SandboxStatuses {
		o.out("sandbox: %s state=%s attempt=%d ip=%s", s.Id, s.State, s.GetMetadata().GetAttempt(), s.GetNetwork().GetIp())
	}
	for _, c := range st.ContainerStatuses {
		o.out("container: %s %s state=%s exit=%d restarts=%d reason=%s hash=%x", c.Name, c.ID.ID, c.State, c.ExitCode, c.RestartCount, c.Reason, c.Hash)
	}
	a := o.om.ComputePodActions(p, st)
	b, _ := json.Marshal(a)
	o.out("actions: %s", b)
	o.flushCalls("actions-call") // computePodActions makes no CRI call
	res := o.om.Runtime().SyncPod(p, st, nil, o.backOff)
	o.flushCalls("call")
	o.drainEvents()
	for _, r := range res.SyncResults {
		errs := "nil"
		if r.Error != nil {
			errs = r.Error.Error()
		}
		o.out("result: %s target=%v error=%s message=%q", r.Action, r.Target, errs, r.Message)
	}
	if e := res.Error(); e != nil {
		o.out("sync-error: %v", e)
	}
}

func (o *oracle) killPod(arg interface{}) {
	o.step++
	o.out("# step %d killPod at +%s", o.step, o.fc.Now().Sub(epoch))
	p := o.pod
	st, err := o.om.Runtime().GetPodStatus(p.UID, p.Name, p.Namespace)
	o.flushCalls("status-call")
	must(err)
	var grace *int64
	if m, ok := arg.(map[string]interface{}); ok {
		if g, ok := m["grace"].(float64); ok {
			v := int64(g)
			grace = &v
		}
	}
	rp := kubecontainer.ConvertPodStatusToRunningPod(fakeRuntimeName, st)
	err = o.om.Runtime().KillPod(p, rp, grace)
	o.flushCalls("call")
	o.drainEvents()
	if err != nil {
		o.out("kill-error: %v", err)
	}
}

// gc runs the container GC once, with the pod deleted or terminated as the step says:
//
//	gc: {minAge: 0s, maxPerPodContainer: 1, maxContainers: -1, deleted: false, terminated: false,
//	     allSourcesReady: true, evictNonDeletedPods: false}
func (o *oracle) gc(arg interface{}) {
	m, _ := arg.(map[string]interface{})
	flag := func(k string, def bool) bool {
		if v, ok := m[k].(bool); ok {
			return v
		}
		return def
	}
	num := func(k string, def int) int {
		if v, ok := m[k].(float64); ok {
			return int(v)
		}
		return def
	}
	policy := kubecontainer.GCPolicy{MaxPerPodContainer: num("maxPerPodContainer", 1), MaxContainers: num("maxContainers", -1)}
	if v, ok := m["minAge"]; ok {
		policy.MinAge = parseStepDur(v)
	}
	deleted, terminated := flag("deleted", false), flag("terminated", false)
	o.step++
	o.out("# step %d gc at +%s: deleted=%v terminated=%v", o.step, o.fc.Now().Sub(epoch), deleted, terminated)
	o.om.SetPodState(o.pod.UID, deleted, terminated)
	err := o.om.Runtime().GarbageCollect(policy, flag("allSourcesReady", true), flag("evictNonDeletedPods", false))
	o.flushCalls("call")
	o.drainEvents()
	if err != nil {
		o.out("gc-error: %v", err)
	}
}

func (o *oracle) drainEvents() {
	for {
		select {
		case e := <-o.rec.Events:
			o.out("event: %s", e)
			continue
		default:
		}
		return
	}
}

func parseStepDur(v interface{}) time.Duration {
	d, err := parseDur(v)
	must(err)
	return d
}

func main() {
	// klog's flags on a set of our own (pkg/kubelet imports glog, which owns the global names);
	// its lines go to a buffer that each step prints.
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	must(fs.Parse([]string{"-logtostderr=false", "-alsologtostderr=false", "-one_output=true", "-stderrthreshold=FATAL"}))
	klog.SetOutput(&klogOut)
	var data []byte
	var err error
	if len(os.Args) > 1 {
		data, err = ioutil.ReadFile(os.Args[1])
	} else {
		data, err = ioutil.ReadAll(os.Stdin)
	}
	must(err)
	if os.Getenv("ORACLE_MODE") == "eviction" {
		runEviction(data, fs) // evictionmode.go
		return
	}
	if os.Getenv("ORACLE_MODE") == "kubelet" {
		// The Kubelet level also keeps the V(2) lines: "SyncLoop ADD", "SyncLoop (PLEG)" ...
		must(fs.Set("v", "2"))
		runKubelet(data)
		return
	}
	var sc scenario
	must(yaml.Unmarshal(data, &sc))
	parsed, pod, err := kubeletconfig.OracleDecodePod(sc.Pod)
	if !parsed || err != nil {
		must(fmt.Errorf("pod does not decode (parsed=%v): %v", parsed, err))
	}

	if os.Getenv("ORACLE_MODE") == "volumes" {
		runVolumes(pod, volumeSteps(data), fs)
		return
	}
	fc := clock.NewFakeClock(epoch)
	log := newCallLog()
	images := NewFakeImages(fc, log, sc.PresentImages)
	rt := NewFakeRuntime(fc, log, images)
	rec := record.NewFakeRecorder(10000)
	om, err := kuberuntime.NewOracleManager(rt, images, &containertest.FakeOS{}, &helper{}, fc, rec)
	must(err)
	log.Take() // the constructor's Version call
	om.SetPodState(pod.UID, false, false)
	o := &oracle{rt: rt, fc: fc, log: log, om: om, rec: rec, pod: pod,
		backOff: flowcontrol.NewFakeBackOff(10*time.Second, 300*time.Second, fc)}

	if os.Getenv("ORACLE_DUMP_POD") != "" {
		b, _ := json.Marshal(pod)
		fmt.Fprintln(os.Stderr, string(b))
	}
	for _, s := range sc.Steps {
		switch x := s.(type) {
		case string:
			if x != "sync" {
				must(fmt.Errorf("unknown step %q", x))
			}
			o.sync()
		case map[string]interface{}:
			keys := []string{}
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			switch strings.Join(keys, ",") {
			case "wait":
				fc.Step(parseStepDur(x["wait"]))
			case "update":
				b, _ := json.Marshal(x["update"])
				parsed, p, err := kubeletconfig.OracleDecodePod(b)
				if !parsed || err != nil {
					must(fmt.Errorf("updated pod does not decode: %v", err))
				}
				o.step++
				o.out("# step %d update at +%s", o.step, o.fc.Now().Sub(epoch))
				o.pod = p
			case "crashSandbox":
				o.step++
				o.out("# step %d crashSandbox at +%s: %s", o.step, o.fc.Now().Sub(epoch), rt.CrashLatestSandbox(string(o.pod.UID)))
			case "killPod":
				o.killPod(x["killPod"])
			case "probe":
				o.probe(x["probe"])
			case "gc":
				o.gc(x["gc"])
			case "run":
				r := x["run"].(map[string]interface{})
				total, every := parseStepDur(r["for"]), parseStepDur(r["every"])
				end := fc.Now().Add(total)
				for fc.Now().Before(end) {
					o.sync()
					fc.Step(every)
				}
			default:
				must(fmt.Errorf("unknown step %v", x))
			}
		}
	}
}
