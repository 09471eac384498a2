// Eviction level of the oracle (our own code): kubelet v1.21.4's real eviction manager
// (eviction.NewManager: synchronize, Admit, the thresholds of ParseThresholdConfig, the ranking,
// evictPod, waitForPodsCleanup) on a fake clock, over a stats summary of ours made from the
// scenario's usage script, for a scenario's `eviction` steps:
//
//	nodeMemory: 1Gi                  # the machine's memory (minikubelet run --node-memory; 8Gi)
//	node: {memory: 100Mi, ...}       # the node's own usage  } the format of
//	usage: {ns/name: {app: {...}}}   # the containers' usage } minikubelet/sim/cri/usage_scenario.py
//	imageGC: 2Gi                     # what unused images hold; DeleteUnusedImages frees it
//	kubeletConfig: {...}             # evictionHard, evictionSoft, ... (v1beta1's defaults)
//	pods: [{...a Pod manifest...}]   # a pod's minikubelet.dev/usage annotation wins over usage
//	eviction:
//	  - add: web                     # the pod arrives: Admit; admitted, it runs from now on
//	  - synchronize                  # one pass; after an eviction, the wait for the cleanup
//	  - wait: 10s                    # the fake clock moves
//	  - run: 1m                      # what Start's loop does for that long: a pass, then 10 s
//	                                 # (or, after an eviction, the wait for the cleanup)
//
// An evicted pod is killed at once and cleaned up at the first poll of waitForPodsCleanup. The
// port's driver (tools/oracle/eviction_trace.py) prints the same trace.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/clock"
	"k8s.io/klog/v2"
	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	configv1beta1 "k8s.io/kubernetes/pkg/kubelet/apis/config/v1beta1"
	"k8s.io/kubernetes/pkg/kubelet/eviction"
	evictionapi "k8s.io/kubernetes/pkg/kubelet/eviction/api"
	"k8s.io/kubernetes/pkg/kubelet/lifecycle"
	"k8s.io/kubernetes/pkg/kubelet/util/format"
	"sigs.k8s.io/yaml"
)

const usageAnnotation = "minikubelet.dev/usage"

type evictionScenario struct {
	NodeMemory    string                            `json:"nodeMemory"`
	Node          map[string]interface{}            `json:"node"`
	Usage         map[string]map[string]interface{} `json:"usage"`
	ImageGC       string                            `json:"imageGC"`
	KubeletConfig json.RawMessage                   `json:"kubeletConfig"`
	Pods          []json.RawMessage                 `json:"pods"`
	Eviction      []interface{}                     `json:"eviction"`
}

// level is an amount over time: values[i] from times[i] on, 0 before the first time.
type level struct {
	times  []time.Duration
	values []int64
}

func (l level) at(t time.Duration) int64 {
	v := int64(0)
	for i, from := range l.times {
		if from <= t {
			v = l.values[i]
		}
	}
	return v
}

func amount(v interface{}) int64 {
	switch x := v.(type) {
	case float64:
		return int64(x)
	case string:
		q, err := resource.ParseQuantity(x)
		must(err)
		return q.Value()
	}
	must(fmt.Errorf("not an amount: %v", v))
	return 0
}

func parseLevel(v interface{}) level {
	m, ok := v.(map[string]interface{})
	if !ok {
		return level{[]time.Duration{0}, []int64{amount(v)}}
	}
	var l level
	for k := range m {
		d, err := time.ParseDuration(k)
		must(err)
		l.times = append(l.times, d)
	}
	sort.Slice(l.times, func(i, j int) bool { return l.times[i] < l.times[j] })
	for _, d := range l.times {
		for k, val := range m {
			if kd, _ := time.ParseDuration(k); kd == d {
				l.values = append(l.values, amount(val))
			}
		}
	}
	return l
}

type fsScript struct {
	capacity, inodes int64
	used, inodesUsed level
}

// The defaults of the port's simulated node (usage_scenario.py).
const gi = int64(1) << 30

func parseFs(v interface{}, def fsScript) fsScript {
	m, _ := v.(map[string]interface{})
	fs := def
	if x, ok := m["capacity"]; ok {
		fs.capacity = amount(x)
	}
	if x, ok := m["inodes"]; ok {
		fs.inodes = amount(x)
	}
	if x, ok := m["used"]; ok {
		fs.used = parseLevel(x)
	}
	if x, ok := m["inodesUsed"]; ok {
		fs.inodesUsed = parseLevel(x)
	}
	return fs
}

type containerUsage struct{ memory, rootfs, logs level }

func parseContainerUsage(v interface{}) map[string]containerUsage {
	out := map[string]containerUsage{}
	m, _ := v.(map[string]interface{})
	for name, raw := range m {
		cm, _ := raw.(map[string]interface{})
		var u containerUsage
		for key, dst := range map[string]*level{"memory": &u.memory, "rootfs": &u.rootfs, "logs": &u.logs} {
			if x, ok := cm[key]; ok {
				*dst = parseLevel(x)
			}
		}
		out[name] = u
	}
	return out
}

type evictionPod struct {
	pod     *v1.Pod
	started time.Time
	usage   map[string]containerUsage
}

// evictionRun is the scenario's node, its pods and the manager, on the fake clock.
type evictionRun struct {
	fc          *clock.FakeClock
	tickers     chan struct{}
	memory      int64
	nodeMemory  level
	nodefs      fsScript
	imagefs     *fsScript
	pidsMax     int64
	pidsUsed    level
	imageGC     int64
	imagesFreed bool
	pods        []*evictionPod
	active      []*evictionPod
	killed      map[types.UID]bool
	polled      chan struct{}
	mgr         eviction.Manager
	admit       lifecycle.PodAdmitHandler
	step        int
	lines       []string
}

func (r *evictionRun) add(format string, a ...interface{}) {
	r.lines = append(r.lines, fmt.Sprintf(format, a...))
}

// tickClock is the fake clock, telling the driver when waitForPodsCleanup has made its ticker
// (only then may the clock move).
type tickClock struct {
	*clock.FakeClock
	made chan struct{}
}

func (c tickClock) NewTicker(d time.Duration) clock.Ticker {
	t := c.FakeClock.NewTicker(d)
	c.made <- struct{}{}
	return t
}

// Get is the stats summary (Go: stats.SummaryProvider) the simulated node reports now.
func (r *evictionRun) Get(bool) (*statsapi.Summary, error) {
	now := metav1.NewTime(r.fc.Now())
	t := r.fc.Now().Sub(epoch)
	var pods []statsapi.PodStats
	var podsMemory, logs, rootfs uint64
	for _, p := range r.active {
		since := r.fc.Now().Sub(p.started)
		ps := statsapi.PodStats{
			PodRef:    statsapi.PodReference{Name: p.pod.Name, Namespace: p.pod.Namespace, UID: string(p.pod.UID)},
			StartTime: metav1.NewTime(p.started),
		}
		var mem, disk uint64
		for _, c := range p.pod.Spec.Containers {
			u := p.usage[c.Name]
			m, rf, lg := uint64(u.memory.at(since)), uint64(u.rootfs.at(since)), uint64(u.logs.at(since))
			ps.Containers = append(ps.Containers, statsapi.ContainerStats{
				Name:      c.Name,
				StartTime: metav1.NewTime(p.started),
				Memory:    &statsapi.MemoryStats{Time: now, WorkingSetBytes: u64(m), UsageBytes: u64(m)},
				Rootfs:    &statsapi.FsStats{Time: now, UsedBytes: u64(rf)},
				Logs:      &statsapi.FsStats{Time: now, UsedBytes: u64(lg)},
			})
			mem += m
			disk += rf + lg
			logs += lg
			rootfs += rf
		}
		ps.Memory = &statsapi.MemoryStats{Time: now, WorkingSetBytes: u64(mem), UsageBytes: u64(mem)}
		ps.EphemeralStorage = &statsapi.FsStats{Time: now, UsedBytes: u64(disk)}
		podsMemory += mem
		pods = append(pods, ps)
	}
	freed := int64(0)
	if r.imagesFreed {
		freed = r.imageGC
	}
	var nodeFs, imageFs *statsapi.FsStats
	if r.imagefs == nil {
		nodeFs = fsStats(r.nodefs, t, int64(logs+rootfs), freed, now)
		imageFs = nodeFs
	} else {
		nodeFs = fsStats(r.nodefs, t, int64(logs), 0, now)
		imageFs = fsStats(*r.imagefs, t, int64(rootfs), freed, now)
	}
	maxPID := r.pidsMax
	running := r.pidsUsed.at(t)
	return &statsapi.Summary{
		Node: statsapi.NodeStats{
			NodeName: "node-1",
			Memory:   memoryStats(r.memory, r.nodeMemory.at(t)+int64(podsMemory), now),
			SystemContainers: []statsapi.ContainerStats{
				{Name: statsapi.SystemContainerPods, Memory: memoryStats(r.memory, int64(podsMemory), now)},
			},
			Fs:      nodeFs,
			Runtime: &statsapi.RuntimeStats{ImageFs: imageFs},
			Rlimit:  &statsapi.RlimitStats{Time: now, MaxPID: &maxPID, NumOfRunningProcesses: &running},
		},
		Pods: pods,
	}, nil
}

func (r *evictionRun) GetCPUAndMemoryStats() (*statsapi.Summary, error) { return r.Get(false) }

func u64(v uint64) *uint64 { return &v }

func memoryStats(capacity, workingSet int64, now metav1.Time) *statsapi.MemoryStats {
	avail := capacity - workingSet
	if avail < 0 {
		avail = 0
	}
	return &statsapi.MemoryStats{Time: now, AvailableBytes: u64(uint64(avail)), UsageBytes: u64(uint64(workingSet)), WorkingSetBytes: u64(uint64(workingSet))}
}

// fsStats is a filesystem of the node: what the script uses (less what the image GC freed),
// and what the containers use.
func fsStats(s fsScript, t time.Duration, containers, freed int64, now metav1.Time) *statsapi.FsStats {
	used := s.used.at(t) - freed
	if used < 0 {
		used = 0
	}
	used += containers
	inodesUsed := s.inodesUsed.at(t)
	avail, free := s.capacity-used, s.inodes-inodesUsed
	if avail < 0 {
		avail = 0
	}
	if free < 0 {
		free = 0
	}
	return &statsapi.FsStats{Time: now, AvailableBytes: u64(uint64(avail)), CapacityBytes: u64(uint64(s.capacity)),
		UsedBytes: u64(uint64(used)), InodesFree: u64(uint64(free)), Inodes: u64(uint64(s.inodes)), InodesUsed: u64(uint64(inodesUsed))}
}

// HasDedicatedImageFs is the DiskInfoProvider: images have a disk of their own when the scenario
// gives one.
func (r *evictionRun) HasDedicatedImageFs() (bool, error) { return r.imagefs != nil, nil }

type evictionGC struct{ r *evictionRun }

func (g evictionGC) DeleteAllUnusedContainers() error {
	g.r.add("reclaim: DeleteAllUnusedContainers")
	return nil
}

func (g evictionGC) DeleteUnusedImages() error {
	freed := int64(0)
	if !g.r.imagesFreed {
		freed = g.r.imageGC
	}
	g.r.imagesFreed = true
	g.r.add("reclaim: DeleteUnusedImages freed %s", resource.NewQuantity(freed, resource.BinarySI))
	return nil
}

// evictionRecorder writes each event into the step's lines, with the object it is about and
// the annotations of an eviction.
type evictionRecorder struct{ r *evictionRun }

func describeObject(o runtime.Object) string {
	switch x := o.(type) {
	case *v1.Pod:
		return "Pod " + x.Namespace + "/" + x.Name
	case *v1.ObjectReference:
		return x.Kind + " " + x.Name
	}
	return fmt.Sprintf("%T", o)
}

func (e evictionRecorder) Event(o runtime.Object, t, reason, msg string) {
	e.r.add("event: %s %s %s %s", describeObject(o), t, reason, msg)
}
func (e evictionRecorder) Eventf(o runtime.Object, t, reason, f string, a ...interface{}) {
	e.Event(o, t, reason, fmt.Sprintf(f, a...))
}
func (e evictionRecorder) AnnotatedEventf(o runtime.Object, ann map[string]string, t, reason, f string, a ...interface{}) {
	e.Event(o, t, reason, fmt.Sprintf(f, a...))
	if ann != nil {
		var kv []string
		for k, v := range ann {
			kv = append(kv, k+"="+v)
		}
		sort.Strings(kv)
		e.r.add("annotations: %s", strings.Join(kv, " "))
	}
}

// evictionKlog takes klog's lines into the step's lines: "klog: <severity> <text>".
type evictionKlog struct{ r *evictionRun }

func (k evictionKlog) Write(b []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if i := strings.Index(line, "] "); i > 0 {
			k.r.add("klog: %s %s", line[:1], line[i+2:])
		}
	}
	return len(b), nil
}

func (r *evictionRun) header(what string) {
	r.step++
	fmt.Printf("# step %d %s at +%v\n", r.step, what, r.fc.Now().Sub(epoch))
}

func (r *evictionRun) flush() {
	for _, l := range r.lines {
		fmt.Println(l)
	}
	r.lines = nil
}

func (r *evictionRun) activePods() []*v1.Pod {
	var out []*v1.Pod
	for _, p := range r.active {
		out = append(out, p.pod)
	}
	return out
}

func (r *evictionRun) byName(name string) *evictionPod {
	for _, p := range r.pods {
		if p.pod.Name == name {
			return p
		}
	}
	must(fmt.Errorf("no pod %q in the scenario", name))
	return nil
}

func thresholdValue(v evictionapi.ThresholdValue) string {
	if v.Quantity != nil {
		return v.Quantity.String()
	}
	return fmt.Sprintf("%.4g%%", float64(v.Percentage)*100)
}

// state prints what the manager reports after a pass: its conditions (and what the kubelet's
// IsUnder…Pressure calls answer), and each threshold it has seen met.
func (r *evictionRun) state() {
	conds, ths := eviction.OracleState(r.mgr)
	fmt.Printf("conditions: %v memory=%v disk=%v pid=%v\n", conds, r.mgr.IsUnderMemoryPressure(),
		r.mgr.IsUnderDiskPressure(), r.mgr.IsUnderPIDPressure())
	var lines []string
	for _, t := range ths {
		min := "none"
		if t.Threshold.MinReclaim != nil {
			min = thresholdValue(*t.Threshold.MinReclaim)
		}
		lines = append(lines, fmt.Sprintf("threshold: %s<%s grace=%v minReclaim=%s since=+%v met=%v",
			t.Threshold.Signal, thresholdValue(t.Threshold.Value), t.Threshold.GracePeriod, min,
			t.Since.Sub(epoch), t.Met))
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
}

// synchronize runs one pass; after an eviction, the wait for the cleanup (the pod is cleaned up
// at the first poll, a second later). It says whether a pod was evicted.
func (r *evictionRun) synchronize() bool {
	r.header("synchronize")
	evicted := eviction.OracleSynchronize(r.mgr, r, r.activePods)
	if evicted != nil {
		r.add("evicted: %s", format.Pods(evicted))
	}
	r.flush()
	r.state()
	if evicted == nil {
		return false
	}
	done := make(chan struct{})
	go func() {
		eviction.OracleWaitForPodsCleanup(r.mgr, func(p *v1.Pod) bool {
			r.polled <- struct{}{}
			return r.killed[p.UID]
		}, evicted)
		close(done)
	}()
	<-r.tickers
	r.fc.Step(time.Second)
	<-r.polled
	<-done
	r.header("cleanup")
	r.flush()
	return true
}

func (r *evictionRun) kill(pod *v1.Pod, status v1.PodStatus, grace *int64) error {
	g := "nil"
	if grace != nil {
		g = fmt.Sprint(*grace)
	}
	r.add("kill: %s/%s phase=%s reason=%s message=%q gracePeriodOverride=%s", pod.Namespace, pod.Name,
		status.Phase, status.Reason, status.Message, g)
	r.killed[pod.UID] = true
	var still []*evictionPod
	for _, p := range r.active {
		if p.pod.UID != pod.UID {
			still = append(still, p)
		}
	}
	r.active = still
	return nil
}

func (r *evictionRun) arrive(name string) {
	p := r.byName(name)
	r.header("add " + name)
	res := r.admit.Admit(&lifecycle.PodAdmitAttributes{Pod: p.pod, OtherPods: r.activePods()})
	if res.Admit {
		r.add("admit: %s/%s admit=true", p.pod.Namespace, p.pod.Name)
		p.started = r.fc.Now()
		r.active = append(r.active, p)
	} else {
		r.add("admit: %s/%s admit=false reason=%s message=%q", p.pod.Namespace, p.pod.Name, res.Reason, res.Message)
	}
	r.flush()
}

func runEviction(data []byte, fs *flag.FlagSet) {
	must(fs.Set("v", "3"))
	var sc evictionScenario
	must(yaml.Unmarshal(data, &sc))

	cfg := &kubeletconfigv1beta1.KubeletConfiguration{}
	if len(sc.KubeletConfig) > 0 {
		must(json.Unmarshal(sc.KubeletConfig, cfg))
	}
	configv1beta1.SetDefaults_KubeletConfiguration(cfg)
	thresholds, err := eviction.ParseThresholdConfig(cfg.EnforceNodeAllocatable, cfg.EvictionHard,
		cfg.EvictionSoft, cfg.EvictionSoftGracePeriod, cfg.EvictionMinimumReclaim)
	must(err)

	made := make(chan struct{}, 1)
	fc := clock.NewFakeClock(epoch)
	r := &evictionRun{fc: fc, tickers: made, killed: map[types.UID]bool{}, polled: make(chan struct{}, 1)}
	mem := sc.NodeMemory
	if mem == "" {
		mem = "8Gi"
	}
	r.memory = amount(mem)
	r.nodefs = fsScript{100 * gi, 6553600, level{[]time.Duration{0}, []int64{10 * gi}}, level{[]time.Duration{0}, []int64{200000}}}
	r.pidsMax, r.pidsUsed = 4194304, level{[]time.Duration{0}, []int64{200}}
	if x, ok := sc.Node["memory"]; ok {
		r.nodeMemory = parseLevel(x)
	}
	def := r.nodefs
	r.nodefs = parseFs(sc.Node["nodefs"], def)
	if x, ok := sc.Node["imagefs"]; ok {
		f := parseFs(x, def)
		r.imagefs = &f
	}
	if p, ok := sc.Node["pids"].(map[string]interface{}); ok {
		if x, ok := p["max"]; ok {
			r.pidsMax = amount(x)
		}
		if x, ok := p["used"]; ok {
			r.pidsUsed = parseLevel(x)
		}
	}
	if sc.ImageGC != "" {
		r.imageGC = amount(sc.ImageGC)
	}
	for _, raw := range sc.Pods {
		p := decodePod(raw)
		ep := &evictionPod{pod: p, usage: parseContainerUsage(sc.Usage[p.Namespace+"/"+p.Name])}
		if text, ok := p.Annotations[usageAnnotation]; ok {
			var m map[string]interface{}
			must(yaml.Unmarshal([]byte(text), &m))
			ep.usage = parseContainerUsage(m)
		}
		r.pods = append(r.pods, ep)
	}

	klog.SetOutput(evictionKlog{r})
	gc := evictionGC{r}
	nodeRef := &v1.ObjectReference{Kind: "Node", Name: "node-1", UID: "node-1", Namespace: ""}
	config := eviction.Config{
		PressureTransitionPeriod: cfg.EvictionPressureTransitionPeriod.Duration,
		MaxPodGracePeriodSeconds: int64(cfg.EvictionMaxPodGracePeriod),
		Thresholds:               thresholds,
		KernelMemcgNotification:  false,
		PodCgroupRoot:            "/kubepods",
	}
	r.mgr, r.admit = eviction.NewManager(r, config, r.kill, func(*v1.Pod) (*v1.Pod, bool) { return nil, false },
		gc, gc, evictionRecorder{r}, nodeRef, tickClock{fc, made})

	for _, s := range sc.Eviction {
		switch x := s.(type) {
		case string:
			if x != "synchronize" {
				must(fmt.Errorf("unknown eviction step %q", x))
			}
			r.synchronize()
		case map[string]interface{}:
			switch {
			case x["add"] != nil:
				if names, ok := x["add"].([]interface{}); ok {
					for _, n := range names {
						r.arrive(fmt.Sprint(n))
					}
				} else {
					r.arrive(fmt.Sprint(x["add"]))
				}
			case x["wait"] != nil:
				fc.Step(parseStepDur(x["wait"]))
			case x["run"] != nil:
				end := fc.Now().Add(parseStepDur(x["run"]))
				for fc.Now().Before(end) {
					if !r.synchronize() {
						fc.Step(10 * time.Second)
					}
				}
			default:
				must(fmt.Errorf("unknown eviction step %v", x))
			}
		}
	}
}
