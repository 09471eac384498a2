"""The log lines a reader greps for, through ``minikubelet run`` on the examples: values are
printed as kubelet v1.21.4 prints them (Go's fmt and klog; tests/go/test_go_fmt.py holds the
formatting itself to kubelet's own output).

Go (v1.21.4 lines): pkg/kubelet/prober/prober.go L116 (``"probeType", probeType``, a Stringer);
pkg/kubelet/kuberuntime/kuberuntime_manager.go L864 (``utilruntime.HandleError`` of a failed start,
``%+v`` of the ``*v1.Container``) and L683 (``"containerStatusID", containerStatus.ID``, a
``kubecontainer.ContainerID`` value); pkg/kubelet/kubelet_pods.go L979-981 (``%+v`` of each
``*status`` of the pod cache); staging/src/k8s.io/apimachinery/pkg/util/runtime/runtime.go
L113-114 (``klog.ErrorDepth(2, err)``: the error's text, unquoted).
"""

from __future__ import annotations

import re

import pytest

from tests.test_cli import EXAMPLES, run_cli
from tools.oracle import compare

# A Python repr of a dataclass (``Status(id=…``) or of an enum member (``<State.EXITED: …>``).
_PYTHON_REPR = re.compile(r"\b[A-Z][A-Za-z]+\([a-z_]+=|<[A-Z][A-Za-z]+\.[A-Z_]+: ")


def _run(*args: str) -> str:
    code, out = run_cli(*args)
    assert code == 0
    return out


def test_a_probe_type_is_quoted_by_its_string_method():
    out = _run("--manifests", EXAMPLES + "/liveness", "--until", "40s", "-v", "4")
    assert re.search(
        r'\] "Probe failed" probeType="Liveness" pod="default/stuck-minikubelet" '
        r'podUID=[0-9a-f]+ containerName="app" probeResult=failure output="HTTP GET ',
        out,
    )
    assert "probeType=0" not in out
    # A types.UID is a named string type: klog prints it with %+v, unquoted (the oracle's
    # Kubelet-level goldens show podUID=uid-web).
    assert 'podUID="' not in out
    # A kubecontainer.ContainerID value prints as its struct, not as containerd://… text.
    assert re.search(
        r'"Message for Container of pod" containerName="app" '
        r"containerStatusID=\{Type:fake ID:[0-9a-f]{64}\} pod=",
        out,
    )
    assert not _PYTHON_REPR.search(out)


def test_a_failed_start_is_the_error_alone_with_the_whole_container():
    out = _run("--manifests", EXAMPLES + "/image-pulls", "--until", "5s", "-v", "0")
    m = re.search(
        r"^E\S+ \S+ +1 kuberuntime_manager\.py:\d+\] (container &Container\{Name:web,"
        r"Image:registry\.example/shop/web:2\.O,.*) start failed in pod "
        r"no-such-image-minikubelet_default\(([0-9a-f]+)\): (.*)$",
        out,
        re.M,
    )
    assert m, "no start-failed line"
    # The same line as real kubelet's for its own pod (tests/oracle/golden/image-not-found).
    (golden,) = {line for line in compare.golden("image-not-found") if "start failed" in line}
    expected = (
        golden.removeprefix("klog: E ")
        .replace("Name:app,", "Name:web,")
        .replace("nosuch:1.0", "registry.example/shop/web:2.O")
        .replace("ImagePullPolicy:Always", "ImagePullPolicy:IfNotPresent")
        .replace("web_default(uid-web)", f"no-such-image-minikubelet_default({m.group(2)})")
    )
    assert m.group(0).split("] ", 1)[1] == expected


def test_no_value_prints_as_python_and_statuses_print_as_go_structs():
    out = _run("--api-script", EXAMPLES + "/api/deletion.yaml", "--until", "1m", "-v", "10")
    assert not _PYTHON_REPR.search(out), _PYTHON_REPR.search(out)
    m = re.search(
        r'"Pod is terminated, but some containers have not been cleaned up" pod="shop/web" '
        r'status="(.*)"$',
        out,
        re.M,
    )
    assert m
    assert re.fullmatch(
        r"(\{ID:\{Type:fake ID:[0-9a-f]{64}\} Name:\S+ State:(exited|running|created|unknown) "
        r"CreatedAt:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC StartedAt:.* "
        r"ExitCode:-?\d+ Image:\S* ImageID:\S* Hash:\d+ RestartCount:\d+ Reason:.* Message:.*\} )+",
        m.group(1),
    ), m.group(1)


@pytest.mark.parametrize("example", ["hooks", "liveness", "sandbox-death"])
def test_no_python_repr_reaches_the_log(example: str):
    out = _run("--manifests", f"{EXAMPLES}/{example}", "--until", "1m", "-v", "10")
    found = _PYTHON_REPR.search(out)
    assert not found, out[max(0, found.start() - 200) : found.end() + 200]
