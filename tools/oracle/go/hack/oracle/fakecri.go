// Our own fake CRI runtime and image services for the oracle spike (not Kubernetes code).
// They follow the documented behaviour of the Python port's fake runtime
// (minikubelet/sim/cri/fake_runtime.py, fake_image_service.py, scenario.py), so that the two
// kubelets being compared run over the same runtime:
//   - CREATED -> RUNNING -> EXITED; exits are reaped lazily at every call, at the scripted end;
//   - lifetimes from the pod annotation minikubelet.dev/scenario (runFor/exitCode/stopTime, a
//     list per restart, the last repeating); defaults: init containers exit 0 after 1s, others run
//     forever; init containers are told by the container annotation minikubelet.dev/init-container;
//   - creation times strictly increasing within a pod (1us apart at the same instant);
//   - StopContainer exits 143 (137 if stopTime exceeds the grace period); StopPodSandbox kills
//     running containers with 137; IPs from 10.88.0.2 on;
//   - ExecSync runs the lifetime's postStart/preStop hook scripts (fakehooks.go).
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	grpcstatus "google.golang.org/grpc/status"
	"k8s.io/apimachinery/pkg/util/clock"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1alpha2"
	"sigs.k8s.io/yaml"
)

const (
	podUIDLabel     = "io.kubernetes.pod.uid"
	scenarioAnno    = "minikubelet.dev/scenario"
	imagesAnno      = "minikubelet.dev/images"
	initAnno        = "minikubelet.dev/init-container"
	exitSigterm     = 143
	exitSigkill     = 137
	fakeRuntimeName = "fake"
	fakeVersion     = "0.1.0"
)

// ---------------------------------------------------------------- scenario lifetimes

type lifetime struct {
	runFor      *time.Duration // nil: forever
	exitCode    int32
	stopTime    time.Duration
	runForGiven bool
	// Hook scripts (fakehooks.go); nil: the hook succeeds at once.
	postStart, preStop *hookScript
}

var defaultInit = lifetime{runFor: durp(time.Second), runForGiven: true}
var defaultApp = lifetime{runFor: nil, runForGiven: true}

func durp(d time.Duration) *time.Duration { return &d }

func parseDur(v interface{}) (time.Duration, error) {
	switch x := v.(type) {
	case float64:
		return time.Duration(x * float64(time.Second)), nil
	case string:
		return time.ParseDuration(x)
	}
	return 0, fmt.Errorf("not a duration: %v", v)
}

func parseLifetime(v interface{}) (lifetime, error) {
	if s, ok := v.(string); ok {
		if s == "forever" {
			return lifetime{runForGiven: true}, nil
		}
	}
	if _, ok := v.(map[string]interface{}); !ok {
		d, err := parseDur(v)
		return lifetime{runFor: &d, runForGiven: true}, err
	}
	m := v.(map[string]interface{})
	var lt lifetime
	if rf, ok := m["runFor"]; ok {
		lt.runForGiven = true
		if rf != "forever" {
			d, err := parseDur(rf)
			if err != nil {
				return lt, err
			}
			lt.runFor = &d
		}
	}
	if ec, ok := m["exitCode"].(float64); ok {
		lt.exitCode = int32(ec)
	}
	if st, ok := m["stopTime"]; ok {
		d, err := parseDur(st)
		if err != nil {
			return lt, err
		}
		lt.stopTime = d
	}
	return lt, parseHooks(m, &lt)
}

func (lt lifetime) orDefault(def lifetime) lifetime {
	if lt.runForGiven {
		return lt
	}
	lt.runFor = def.runFor
	lt.runForGiven = true
	return lt
}

type imageScript struct {
	pullTime time.Duration
	fail     int
	notFound bool
}

func scriptsFromAnnotations(ann map[string]string) (map[string][]lifetime, map[string]imageScript, error) {
	cs := map[string][]lifetime{}
	is := map[string]imageScript{}
	if text, ok := ann[scenarioAnno]; ok {
		var m map[string]interface{}
		if err := yaml.Unmarshal([]byte(text), &m); err != nil {
			return nil, nil, err
		}
		for name, spec := range m {
			var runs []lifetime
			if l, ok := spec.([]interface{}); ok {
				for _, s := range l {
					lt, err := parseLifetime(s)
					if err != nil {
						return nil, nil, err
					}
					runs = append(runs, lt)
				}
			} else {
				lt, err := parseLifetime(spec)
				if err != nil {
					return nil, nil, err
				}
				runs = []lifetime{lt}
			}
			cs[name] = runs
		}
	}
	if text, ok := ann[imagesAnno]; ok {
		var m map[string]interface{}
		if err := yaml.Unmarshal([]byte(text), &m); err != nil {
			return nil, nil, err
		}
		for image, spec := range m {
			key := image
			if image != "*" {
				key = defaultTag(image)
			}
			if spec == "notFound" {
				is[key] = imageScript{notFound: true}
				continue
			}
			sm, _ := spec.(map[string]interface{})
			var s imageScript
			if pt, ok := sm["pullTime"]; ok {
				d, err := parseDur(pt)
				if err != nil {
					return nil, nil, err
				}
				s.pullTime = d
			}
			if f, ok := sm["fail"].(float64); ok {
				s.fail = int(f)
			}
			if nf, ok := sm["notFound"].(bool); ok {
				s.notFound = nf
			}
			is[key] = s
		}
	}
	return cs, is, nil
}

func defaultTag(image string) string {
	last := image[strings.LastIndex(image, "/")+1:]
	if strings.Contains(image, "@") || strings.Contains(last, ":") {
		return image
	}
	return image + ":latest"
}

// ---------------------------------------------------------------- call log

// CallLog records every CRI call in order, with IDs replaced by stable aliases (sb1, c1 ...).
type CallLog struct {
	mu      sync.Mutex
	Lines   []string
	Configs []string
	alias   map[string]string
	nsb, nc int
	// Tee, when set, takes each call line instead of Lines (the Kubelet level keeps one stream).
	Tee func(string)
}

func newCallLog() *CallLog { return &CallLog{alias: map[string]string{}} }

func (l *CallLog) add(format string, a ...interface{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Tee != nil {
		l.Tee("call: " + fmt.Sprintf(format, a...))
		return
	}
	l.Lines = append(l.Lines, fmt.Sprintf(format, a...))
}

func (l *CallLog) name(id string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.nameLocked(id)
}

func (l *CallLog) nameLocked(id string) string {
	if a, ok := l.alias[id]; ok {
		return a
	}
	if id == "" {
		return `""`
	}
	return "?" + id
}

func (l *CallLog) newAlias(id string, sandbox bool) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var a string
	if sandbox {
		l.nsb++
		a = fmt.Sprintf("sb%d", l.nsb)
	} else {
		l.nc++
		a = fmt.Sprintf("c%d", l.nc)
	}
	l.alias[id] = a
	return a
}

// Replace every known ID in s by its alias.
func (l *CallLog) Scrub(s string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, a := range l.alias {
		s = strings.ReplaceAll(s, id, a)
	}
	return s
}

func (l *CallLog) Take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.Lines
	l.Lines = nil
	return out
}

func (l *CallLog) TakeConfigs() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.Configs
	l.Configs = nil
	return out
}

func (l *CallLog) config(kind, who string, v interface{}) {
	b, _ := json.Marshal(v)
	var x interface{}
	_ = json.Unmarshal(b, &x)
	x = prune(x)
	b, _ = json.Marshal(x) // map keys sorted
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Configs = append(l.Configs, fmt.Sprintf("%s %s %s", kind, who, string(b)))
}

// prune drops empty values (as omitempty would, recursively).
func prune(x interface{}) interface{} {
	switch v := x.(type) {
	case map[string]interface{}:
		out := map[string]interface{}{}
		for k, e := range v {
			p := prune(e)
			if !empty(p) {
				out[k] = p
			}
		}
		return out
	case []interface{}:
		out := []interface{}{}
		for _, e := range v {
			out = append(out, prune(e))
		}
		return out
	}
	return x
}

func empty(x interface{}) bool {
	switch v := x.(type) {
	case nil:
		return true
	case map[string]interface{}:
		return len(v) == 0
	case []interface{}:
		return len(v) == 0
	case string:
		return v == ""
	case float64:
		return v == 0
	case bool:
		return !v
	}
	return false
}

func labelFilter(sel map[string]string) string {
	var ks []string
	for k, v := range sel {
		ks = append(ks, k+"="+v)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// ---------------------------------------------------------------- runtime service

type fsandbox struct {
	id        string
	config    *runtimeapi.PodSandboxConfig
	podUID    string
	state     runtimeapi.PodSandboxState
	createdAt int64
	ip        string
	network   runtimeapi.NamespaceMode
	handler   string
	scripts   map[string][]lifetime
}

type fcontainer struct {
	id, sandboxID, podUID string
	config                *runtimeapi.ContainerConfig
	imageRef              string
	lt                    lifetime
	createdAt             int64
	state                 runtimeapi.ContainerState
	startedAt, finishedAt int64
	exitCode              int32
	reason                string
	endAt                 *int64
}

type FakeRuntime struct {
	mu          sync.Mutex
	clock       *clock.FakeClock
	log         *CallLog
	images      *FakeImages
	sandboxes   map[string]*fsandbox
	sbByPod     map[string][]string
	containers  map[string]*fcontainer
	ctrByPod    map[string][]string
	lastCreated map[string]int64
	nextIP      int
	nextID      int
	preStops    map[string]preStopRun // by container ID: the preStop hooks being run
}

func NewFakeRuntime(c *clock.FakeClock, log *CallLog, images *FakeImages) *FakeRuntime {
	return &FakeRuntime{clock: c, log: log, images: images,
		sandboxes: map[string]*fsandbox{}, sbByPod: map[string][]string{},
		containers: map[string]*fcontainer{}, ctrByPod: map[string][]string{},
		lastCreated: map[string]int64{}, preStops: map[string]preStopRun{}}
}

func (f *FakeRuntime) now() int64 { return f.clock.Now().UnixNano() }

func (f *FakeRuntime) newID() string {
	f.nextID++
	h := sha256.Sum256([]byte(fmt.Sprintf("oracle-%d", f.nextID)))
	return hex.EncodeToString(h[:])
}

func (f *FakeRuntime) createdAt(pod string) int64 {
	t := f.now()
	if l := f.lastCreated[pod] + 1000; l > t {
		t = l
	}
	f.lastCreated[pod] = t
	return t
}

func (f *FakeRuntime) reap() {
	now := f.now()
	for _, c := range f.containers {
		if c.state == runtimeapi.ContainerState_CONTAINER_RUNNING && c.endAt != nil && *c.endAt <= now {
			f.exit(c, *c.endAt, c.lt.exitCode)
		}
	}
}

func (f *FakeRuntime) exit(c *fcontainer, at int64, code int32) {
	c.state = runtimeapi.ContainerState_CONTAINER_EXITED
	c.finishedAt = at
	c.exitCode = code
	if code == 0 {
		c.reason = "Completed"
	} else {
		c.reason = "Error"
	}
	c.endAt = nil
}

func notFound(format string, a ...interface{}) error {
	return grpcstatus.Error(codes.NotFound, fmt.Sprintf(format, a...))
}

func (f *FakeRuntime) Version(apiVersion string) (*runtimeapi.VersionResponse, error) {
	f.log.add("Version %s", apiVersion)
	return &runtimeapi.VersionResponse{Version: fakeVersion, RuntimeName: fakeRuntimeName,
		RuntimeVersion: fakeVersion, RuntimeApiVersion: "v1alpha2"}, nil
}

func (f *FakeRuntime) Status() (*runtimeapi.RuntimeStatus, error) {
	f.log.add("Status")
	return &runtimeapi.RuntimeStatus{Conditions: []*runtimeapi.RuntimeCondition{
		{Type: runtimeapi.RuntimeReady, Status: true}, {Type: runtimeapi.NetworkReady, Status: true}}}, nil
}

func (f *FakeRuntime) UpdateRuntimeConfig(*runtimeapi.RuntimeConfig) error {
	f.log.add("UpdateRuntimeConfig")
	return nil
}

func (f *FakeRuntime) RunPodSandbox(config *runtimeapi.PodSandboxConfig, handler string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	meta := config.GetMetadata()
	podUID := config.Labels[podUIDLabel]
	if podUID == "" {
		podUID = meta.GetUid()
	}
	scripts, _, err := scriptsFromAnnotations(config.Annotations)
	if err != nil {
		f.log.add("RunPodSandbox %s/%s attempt=%d -> error", meta.GetNamespace(), meta.GetName(), meta.GetAttempt())
		return "", grpcstatus.Error(codes.InvalidArgument, err.Error())
	}
	network := runtimeapi.NamespaceMode_POD
	if sc := config.GetLinux().GetSecurityContext(); sc != nil && sc.NamespaceOptions != nil {
		network = sc.NamespaceOptions.Network
	}
	ip := ""
	if network != runtimeapi.NamespaceMode_NODE {
		f.nextIP++
		ip = fmt.Sprintf("10.88.0.%d", 1+f.nextIP)
	}
	s := &fsandbox{id: f.newID(), config: config, podUID: podUID, state: runtimeapi.PodSandboxState_SANDBOX_READY,
		createdAt: f.createdAt(podUID), ip: ip, network: network, handler: handler, scripts: scripts}
	f.sandboxes[s.id] = s
	f.sbByPod[podUID] = append(f.sbByPod[podUID], s.id)
	a := f.log.newAlias(s.id, true)
	f.log.add("RunPodSandbox %s/%s attempt=%d handler=%q -> %s", meta.GetNamespace(), meta.GetName(), meta.GetAttempt(), handler, a)
	f.log.config("RunPodSandbox", a, config)
	return s.id, nil
}

func (f *FakeRuntime) StopPodSandbox(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	f.log.add("StopPodSandbox %s", f.log.name(id))
	s, ok := f.sandboxes[id]
	if !ok {
		return notFound("an error occurred when try to find sandbox %q", id)
	}
	now := f.now()
	for _, cid := range f.ctrByPod[s.podUID] {
		c := f.containers[cid]
		if c.sandboxID == s.id && c.state == runtimeapi.ContainerState_CONTAINER_RUNNING {
			f.exit(c, now, exitSigkill)
		}
	}
	s.state = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
	return nil
}

func (f *FakeRuntime) RemovePodSandbox(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	f.log.add("RemovePodSandbox %s", f.log.name(id))
	s, ok := f.sandboxes[id]
	if !ok {
		return nil
	}
	delete(f.sandboxes, id)
	f.sbByPod[s.podUID] = remove(f.sbByPod[s.podUID], id)
	for _, cid := range append([]string{}, f.ctrByPod[s.podUID]...) {
		if f.containers[cid].sandboxID == id {
			f.removeContainer(cid)
		}
	}
	return nil
}

func remove(l []string, x string) []string {
	out := []string{}
	for _, e := range l {
		if e != x {
			out = append(out, e)
		}
	}
	return out
}

func (f *FakeRuntime) PodSandboxStatus(id string) (*runtimeapi.PodSandboxStatus, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	f.log.add("PodSandboxStatus %s", f.log.name(id))
	s, ok := f.sandboxes[id]
	if !ok {
		return nil, notFound("an error occurred when try to find sandbox %q", id)
	}
	return &runtimeapi.PodSandboxStatus{Id: s.id, Metadata: s.config.Metadata, State: s.state, CreatedAt: s.createdAt,
		Network: &runtimeapi.PodSandboxNetworkStatus{Ip: s.ip},
		Linux:   &runtimeapi.LinuxPodSandboxStatus{Namespaces: &runtimeapi.Namespace{Options: &runtimeapi.NamespaceOption{Network: s.network}}},
		Labels:  s.config.Labels, Annotations: s.config.Annotations, RuntimeHandler: s.handler}, nil
}

func (f *FakeRuntime) ListPodSandbox(filter *runtimeapi.PodSandboxFilter) ([]*runtimeapi.PodSandbox, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	desc := "nil"
	var ids []string
	if filter != nil {
		st := "nil"
		if filter.State != nil {
			st = filter.State.State.String()
		}
		desc = fmt.Sprintf("id=%s state=%s labels=%s", f.log.name(filter.Id), st, labelFilter(filter.LabelSelector))
	}
	if filter != nil && filter.LabelSelector[podUIDLabel] != "" {
		ids = f.sbByPod[filter.LabelSelector[podUIDLabel]]
	} else {
		for id := range f.sandboxes {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return f.sandboxes[ids[i]].createdAt < f.sandboxes[ids[j]].createdAt })
	}
	var out []*runtimeapi.PodSandbox
	for _, id := range ids {
		s := f.sandboxes[id]
		if filter != nil {
			if filter.Id != "" && s.id != filter.Id {
				continue
			}
			if filter.State != nil && s.state != filter.State.State {
				continue
			}
			match := true
			for k, v := range filter.LabelSelector {
				if s.config.Labels[k] != v {
					match = false
				}
			}
			if !match {
				continue
			}
		}
		out = append(out, &runtimeapi.PodSandbox{Id: s.id, Metadata: s.config.Metadata, State: s.state, CreatedAt: s.createdAt,
			Labels: s.config.Labels, Annotations: s.config.Annotations, RuntimeHandler: s.handler})
	}
	f.log.add("ListPodSandbox %s -> %d", desc, len(out))
	return out, nil
}

func (f *FakeRuntime) PortForward(*runtimeapi.PortForwardRequest) (*runtimeapi.PortForwardResponse, error) {
	return nil, fmt.Errorf("not implemented")
}

func (f *FakeRuntime) lifetimeFor(s *fsandbox, config *runtimeapi.ContainerConfig, name string, attempt uint32) lifetime {
	isInit := config.Annotations[initAnno] == "true"
	def := defaultApp
	if isInit {
		def = defaultInit
	}
	runs, ok := s.scripts[name]
	if !ok || len(runs) == 0 {
		return def
	}
	i := int(attempt)
	if i > len(runs)-1 {
		i = len(runs) - 1
	}
	return runs[i].orDefault(def)
}

func (f *FakeRuntime) CreateContainer(sbID string, config *runtimeapi.ContainerConfig, sbConfig *runtimeapi.PodSandboxConfig) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	meta := config.GetMetadata()
	s, ok := f.sandboxes[sbID]
	if !ok {
		f.log.add("CreateContainer %s %s attempt=%d -> error", f.log.name(sbID), meta.GetName(), meta.GetAttempt())
		return "", notFound("an error occurred when try to find sandbox %q", sbID)
	}
	image := config.GetImage().GetImage()
	imageRef := image
	if f.images != nil {
		img := f.images.lookup(image)
		if img == nil {
			f.log.add("CreateContainer %s %s attempt=%d -> error", f.log.name(sbID), meta.GetName(), meta.GetAttempt())
			return "", notFound("failed to get image %q: image not found", image)
		}
		imageRef = img.Id
	}
	c := &fcontainer{id: f.newID(), sandboxID: sbID, podUID: s.podUID, config: config, imageRef: imageRef,
		lt: f.lifetimeFor(s, config, meta.GetName(), meta.GetAttempt()), createdAt: f.createdAt(s.podUID),
		state: runtimeapi.ContainerState_CONTAINER_CREATED}
	f.containers[c.id] = c
	f.ctrByPod[s.podUID] = append(f.ctrByPod[s.podUID], c.id)
	a := f.log.newAlias(c.id, false)
	f.log.add("CreateContainer %s %s attempt=%d -> %s", f.log.name(sbID), meta.GetName(), meta.GetAttempt(), a)
	f.log.config("CreateContainer", a, config)
	return c.id, nil
}

func (f *FakeRuntime) StartContainer(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	f.log.add("StartContainer %s", f.log.name(id))
	c, ok := f.containers[id]
	if !ok {
		return notFound("an error occurred when try to find container %q", id)
	}
	if c.state != runtimeapi.ContainerState_CONTAINER_CREATED {
		return grpcstatus.Error(codes.FailedPrecondition, fmt.Sprintf("container %q is in %s state, not CONTAINER_CREATED", id, c.state))
	}
	now := f.now()
	c.state = runtimeapi.ContainerState_CONTAINER_RUNNING
	c.startedAt = now
	if c.lt.runFor != nil {
		e := now + int64(*c.lt.runFor)
		c.endAt = &e
	}
	return nil
}

func (f *FakeRuntime) StopContainer(id string, timeout int64) error {
	f.mu.Lock()
	f.preStopGivenUp(id)
	f.reap()
	f.log.add("StopContainer %s timeout=%d", f.log.name(id), timeout)
	c, ok := f.containers[id]
	if !ok {
		f.mu.Unlock()
		return notFound("an error occurred when try to find container %q", id)
	}
	if c.state != runtimeapi.ContainerState_CONTAINER_RUNNING {
		f.mu.Unlock()
		return nil
	}
	if timeout < 0 {
		timeout = 0
	}
	grace := time.Duration(timeout) * time.Second
	wait := c.lt.stopTime
	if wait > grace {
		wait = grace
	}
	code := int32(exitSigterm)
	if c.lt.stopTime > grace {
		code = exitSigkill
	}
	if wait > 0 {
		// "Sleep" on the fake clock.
		f.advanceTo(f.clock.Now().Add(wait))
		f.reap()
		if c.state != runtimeapi.ContainerState_CONTAINER_RUNNING {
			f.mu.Unlock()
			return nil
		}
	}
	f.exit(c, f.now(), code)
	f.mu.Unlock()
	return nil
}

func (f *FakeRuntime) RemoveContainer(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	f.log.add("RemoveContainer %s", f.log.name(id))
	if _, ok := f.containers[id]; ok {
		f.removeContainer(id)
	}
	return nil
}

func (f *FakeRuntime) removeContainer(id string) {
	c := f.containers[id]
	delete(f.containers, id)
	f.ctrByPod[c.podUID] = remove(f.ctrByPod[c.podUID], id)
}

func (f *FakeRuntime) ListContainers(filter *runtimeapi.ContainerFilter) ([]*runtimeapi.Container, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	desc := "nil"
	if filter != nil {
		st := "nil"
		if filter.State != nil {
			st = filter.State.State.String()
		}
		desc = fmt.Sprintf("id=%s state=%s sandbox=%s labels=%s", f.log.name(filter.Id), st, f.log.name(filter.PodSandboxId), labelFilter(filter.LabelSelector))
	}
	var ids []string
	if filter != nil && filter.LabelSelector[podUIDLabel] != "" {
		ids = f.ctrByPod[filter.LabelSelector[podUIDLabel]]
	} else {
		for id := range f.containers {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return f.containers[ids[i]].createdAt < f.containers[ids[j]].createdAt })
	}
	var out []*runtimeapi.Container
	for _, id := range ids {
		c := f.containers[id]
		if filter != nil {
			if filter.Id != "" && c.id != filter.Id {
				continue
			}
			if filter.State != nil && c.state != filter.State.State {
				continue
			}
			if filter.PodSandboxId != "" && c.sandboxID != filter.PodSandboxId {
				continue
			}
			match := true
			for k, v := range filter.LabelSelector {
				if c.config.Labels[k] != v {
					match = false
				}
			}
			if !match {
				continue
			}
		}
		out = append(out, &runtimeapi.Container{Id: c.id, PodSandboxId: c.sandboxID, Metadata: c.config.Metadata,
			Image: c.config.Image, ImageRef: c.imageRef, State: c.state, CreatedAt: c.createdAt,
			Labels: c.config.Labels, Annotations: c.config.Annotations})
	}
	f.log.add("ListContainers %s -> %d", desc, len(out))
	return out, nil
}

func (f *FakeRuntime) ContainerStatus(id string) (*runtimeapi.ContainerStatus, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reap()
	f.log.add("ContainerStatus %s", f.log.name(id))
	c, ok := f.containers[id]
	if !ok {
		return nil, notFound("an error occurred when try to find container %q", id)
	}
	return &runtimeapi.ContainerStatus{Id: c.id, Metadata: c.config.Metadata, State: c.state, CreatedAt: c.createdAt,
		StartedAt: c.startedAt, FinishedAt: c.finishedAt, ExitCode: c.exitCode, Image: c.config.Image, ImageRef: c.imageRef,
		Reason: c.reason, Labels: c.config.Labels, Annotations: c.config.Annotations, Mounts: c.config.Mounts, LogPath: c.config.LogPath}, nil
}

func (f *FakeRuntime) UpdateContainerResources(id string, r *runtimeapi.LinuxContainerResources) error {
	f.log.add("UpdateContainerResources %s", f.log.name(id))
	return nil
}

func (f *FakeRuntime) Exec(*runtimeapi.ExecRequest) (*runtimeapi.ExecResponse, error) {
	return nil, fmt.Errorf("not implemented")
}

func (f *FakeRuntime) Attach(*runtimeapi.AttachRequest) (*runtimeapi.AttachResponse, error) {
	return nil, fmt.Errorf("not implemented")
}

func (f *FakeRuntime) ReopenContainerLog(id string) error { return nil }

func (f *FakeRuntime) ContainerStats(id string) (*runtimeapi.ContainerStats, error) {
	return nil, fmt.Errorf("not implemented")
}

func (f *FakeRuntime) ListContainerStats(*runtimeapi.ContainerStatsFilter) ([]*runtimeapi.ContainerStats, error) {
	return nil, nil
}

// ---------------------------------------------------------------- image service

type FakeImages struct {
	mu      sync.Mutex
	clock   *clock.FakeClock
	log     *CallLog
	images  map[string]*runtimeapi.Image // by name and by ID
	pulls   map[string]int
	scripts map[string]imageScript
}

func NewFakeImages(c *clock.FakeClock, log *CallLog, present []string) *FakeImages {
	f := &FakeImages{clock: c, log: log, images: map[string]*runtimeapi.Image{}, pulls: map[string]int{}, scripts: map[string]imageScript{}}
	for _, p := range present {
		f.add(p)
	}
	return f
}

func imageID(name string) string {
	h := sha256.Sum256([]byte(name))
	return "sha256:" + hex.EncodeToString(h[:])
}

func (f *FakeImages) add(name string) string {
	name = defaultTag(name)
	if img, ok := f.images[name]; ok {
		return img.Id
	}
	id := imageID(name)
	repo := name
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		repo = name[:i]
	}
	img := &runtimeapi.Image{Id: id, RepoTags: []string{name}, RepoDigests: []string{repo + "@sha256:" + id[7:]},
		Size_: 1000000, Spec: &runtimeapi.ImageSpec{Image: id}}
	f.images[name] = img
	f.images[id] = img
	return id
}

func (f *FakeImages) lookup(image string) *runtimeapi.Image {
	f.mu.Lock()
	defer f.mu.Unlock()
	if img, ok := f.images[image]; ok {
		return img
	}
	return f.images[defaultTag(image)]
}

func (f *FakeImages) ListImages(filter *runtimeapi.ImageFilter) ([]*runtimeapi.Image, error) {
	f.log.add("ListImages")
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := map[string]bool{}
	var out []*runtimeapi.Image
	for _, img := range f.images {
		if !seen[img.Id] {
			seen[img.Id] = true
			out = append(out, img)
		}
	}
	return out, nil
}

func (f *FakeImages) ImageStatus(image *runtimeapi.ImageSpec) (*runtimeapi.Image, error) {
	f.log.add("ImageStatus %s", image.GetImage())
	return f.lookup(image.GetImage()), nil
}

func (f *FakeImages) PullImage(image *runtimeapi.ImageSpec, auth *runtimeapi.AuthConfig, sb *runtimeapi.PodSandboxConfig) (string, error) {
	name := defaultTag(image.GetImage())
	f.log.add("PullImage %s", name)
	script := imageScript{}
	found := false
	if sb != nil && sb.Annotations != nil {
		_, is, err := scriptsFromAnnotations(sb.Annotations)
		if err != nil {
			return "", grpcstatus.Error(codes.InvalidArgument, err.Error())
		}
		if s, ok := is[name]; ok {
			script, found = s, true
		}
	}
	if !found {
		if s, ok := f.scripts[name]; ok {
			script = s
		} else if s, ok := f.scripts["*"]; ok {
			script = s
		}
	}
	f.mu.Lock()
	f.pulls[name]++
	attempt := f.pulls[name]
	f.mu.Unlock()
	if script.notFound {
		return "", grpcstatus.Error(codes.NotFound, fmt.Sprintf("failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", name, name, name))
	}
	if script.pullTime > 0 {
		f.clock.Step(script.pullTime)
	}
	if attempt <= script.fail {
		return "", grpcstatus.Error(codes.Unknown, fmt.Sprintf("failed to pull and unpack image %q: scripted pull failure %d of %d", name, attempt, script.fail))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.add(name), nil
}

func (f *FakeImages) RemoveImage(image *runtimeapi.ImageSpec) error {
	f.log.add("RemoveImage %s", image.GetImage())
	return nil
}

func (f *FakeImages) ImageFsInfo() ([]*runtimeapi.FilesystemUsage, error) { return nil, nil }

// CrashLatestSandbox makes the pod's newest sandbox NOTREADY without stopping its containers
// (as the Python fake's crash_sandbox does).
func (f *FakeRuntime) CrashLatestSandbox(podUID string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ids := f.sbByPod[podUID]
	if len(ids) == 0 {
		return ""
	}
	s := f.sandboxes[ids[len(ids)-1]]
	s.state = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
	return s.id
}

// LatestContainer is the ID of the newest container of that name in the pod (no CRI call is
// logged), or "" if there is none.
func (f *FakeRuntime) LatestContainer(podUID, name string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	best, at := "", int64(-1)
	for _, id := range f.ctrByPod[podUID] {
		c := f.containers[id]
		if c.config.GetMetadata().GetName() == name && c.createdAt > at {
			best, at = id, c.createdAt
		}
	}
	return best
}
