// Lifecycle hooks on the oracle's fake runtime (our own code, not Kubernetes): ExecSync follows
// the hook scripts of the scenario annotation as the Python fake does
// (minikubelet/sim/cri/hooks.py): a lifetime's postStart and preStop (or preStopTime, short for
// preStop: {runFor: ...}), each {runFor, fail: exit, exitCode, output, outputBase64}, or a bare
// duration or "forever". A call whose command is the preStop handler's (as kubelet wrote it on
// the container) follows preStop, any other postStart.
//
// Time. kubelet waits for a postStart hook without a timer, so such a hook "sleeps" on the fake
// clock. It waits for a preStop hook with the real time.After(grace) and measures it with the
// real metav1.Now(), so a preStop hook takes its runFor in real seconds; the fake clock then
// moves by what kubelet waited: the hook's runFor when it ends first, or, when kubelet stops the
// container before it ends, its whole grace period: the real time since the hook began, to the
// nearest second (kubelet's own start is a little earlier than the fake's, so the fake's count
// may fall just short of it).
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	grpcstatus "google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1alpha2"
	utilexec "k8s.io/utils/exec"
)

const preStopAnno = "io.kubernetes.container.preStopHandler"

// hookScript is how one run of a hook goes.
type hookScript struct {
	runFor   *time.Duration // nil: it never returns
	fail     string         // "", "exit" or "refused"
	exitCode int32
	output   []byte
}

func parseHookScript(v interface{}) (hookScript, error) {
	h := hookScript{runFor: durp(0), exitCode: 1}
	if v == "forever" {
		h.runFor = nil
		return h, nil
	}
	m, ok := v.(map[string]interface{})
	if !ok {
		d, err := parseDur(v)
		h.runFor = &d
		return h, err
	}
	if rf, ok := m["runFor"]; ok {
		if rf == "forever" {
			h.runFor = nil
		} else {
			d, err := parseDur(rf)
			if err != nil {
				return h, err
			}
			h.runFor = &d
		}
	}
	h.fail, _ = m["fail"].(string)
	if ec, ok := m["exitCode"].(float64); ok {
		h.exitCode = int32(ec)
	}
	if o, ok := m["output"].(string); ok {
		h.output = []byte(o)
	}
	if o, ok := m["outputBase64"].(string); ok {
		b, err := base64.StdEncoding.DecodeString(o)
		if err != nil {
			return h, err
		}
		h.output = b
	}
	return h, nil
}

// parseHooks reads a lifetime mapping's hook fields into lt.
func parseHooks(m map[string]interface{}, lt *lifetime) error {
	for key, dst := range map[string]**hookScript{"postStart": &lt.postStart, "preStop": &lt.preStop} {
		if v, ok := m[key]; ok {
			h, err := parseHookScript(v)
			if err != nil {
				return err
			}
			*dst = &h
		}
	}
	if v, ok := m["preStopTime"]; ok {
		d, err := parseDur(v)
		if err != nil {
			return err
		}
		lt.preStop = &hookScript{runFor: &d, exitCode: 1}
	}
	return nil
}

// hook is the script of hook name (postStart or preStop) in this run; by default it succeeds
// at once.
func (lt lifetime) hook(name string) hookScript {
	h := lt.postStart
	if name == "preStop" {
		h = lt.preStop
	}
	if h == nil {
		return hookScript{runFor: durp(0), exitCode: 1}
	}
	return *h
}

// isPreStop tells whether cmd is the command of the container's preStop handler.
func isPreStop(config *runtimeapi.ContainerConfig, cmd []string) bool {
	var handler struct {
		Exec *struct {
			Command []string `json:"command"`
		} `json:"exec"`
	}
	if json.Unmarshal([]byte(config.Annotations[preStopAnno]), &handler) != nil || handler.Exec == nil ||
		len(handler.Exec.Command) != len(cmd) {
		return false
	}
	for i, arg := range cmd {
		if handler.Exec.Command[i] != arg {
			return false
		}
	}
	return true
}

// preStopRun is a preStop hook being run: when it began, on the fake clock and the real one.
type preStopRun struct {
	fake time.Time
	real time.Time
}

// advanceTo moves the fake clock to t if t is later (concurrent waits overlap). f.mu is held.
func (f *FakeRuntime) advanceTo(t time.Time) {
	if t.After(f.clock.Now()) {
		f.clock.SetTime(t)
	}
}

// preStopGivenUp is called by StopContainer (f.mu held): kubelet stops a container whose preStop
// hook still runs, so it waited its whole grace period: the fake clock moves by that.
func (f *FakeRuntime) preStopGivenUp(id string) {
	if run, ok := f.preStops[id]; ok {
		delete(f.preStops, id)
		f.advanceTo(run.fake.Add(time.Since(run.real).Round(time.Second)))
	}
}

// ExecSync runs a lifecycle hook in a running container as its script says, and answers as
// kubelet's CRI client would (remote_runtime.go): an exit code other than 0 is a CodeExitError
// "command '<cmd>' exited with <code>: <stderr>". A container that is gone is NotFound, one
// that is not running an Unknown error (as the Python fake); a hook longer than a positive
// time-out is cut with containerd's error.
func (f *FakeRuntime) ExecSync(id string, cmd []string, timeout time.Duration) ([]byte, []byte, error) {
	f.log.add("ExecSync %s %v", f.log.name(id), cmd)
	f.mu.Lock()
	f.reap()
	c, ok := f.containers[id]
	if !ok {
		f.mu.Unlock()
		return nil, nil, notFound("an error occurred when try to find container %q", id)
	}
	if c.state != runtimeapi.ContainerState_CONTAINER_RUNNING {
		f.mu.Unlock()
		return nil, nil, grpcstatus.Error(codes.Unknown, fmt.Sprintf("failed to exec in container: container is in %s state", c.state))
	}
	preStop := isPreStop(c.config, cmd)
	name := "postStart"
	if preStop {
		name = "preStop"
	}
	s := c.lt.hook(name)
	if timeout > 0 && (s.runFor == nil || *s.runFor > timeout) {
		f.advanceTo(f.clock.Now().Add(timeout))
		f.mu.Unlock()
		return nil, nil, grpcstatus.Error(codes.Unknown, fmt.Sprintf("failed to exec in container: timeout %s exceeded: context deadline exceeded", timeout))
	}
	switch {
	case s.runFor == nil:
		f.mu.Unlock()
		select {} // a hook that hangs
	case preStop && *s.runFor > 0:
		f.preStops[id] = preStopRun{fake: f.clock.Now(), real: time.Now()}
		f.mu.Unlock()
		time.Sleep(*s.runFor)
		f.mu.Lock()
		if run, ok := f.preStops[id]; ok {
			delete(f.preStops, id)
			f.advanceTo(run.fake.Add(*s.runFor))
		}
	default:
		f.advanceTo(f.clock.Now().Add(*s.runFor))
	}
	f.mu.Unlock()
	switch s.fail {
	case "exit":
		return nil, s.output, utilexec.CodeExitError{
			Err:  fmt.Errorf("command '%s' exited with %d: %s", strings.Join(cmd, " "), s.exitCode, s.output),
			Code: int(s.exitCode),
		}
	case "refused":
		return nil, nil, grpcstatus.Error(codes.InvalidArgument, "field fail: refused is for an httpGet hook, and this is an exec hook (fail: exit)")
	}
	return s.output, nil, nil
}
