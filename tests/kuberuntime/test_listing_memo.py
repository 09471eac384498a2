"""The listing memo (ours) against fresh conversions: in place changes, logging conversions, and
every conversion of a whole run of a node with crash-looping and deleted pods."""

from __future__ import annotations

import io

from minikubelet.container.runtime import Container
from minikubelet.k8s_io.cri_api.pkg.apis.runtime import v1alpha2 as runtimeapi
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.kuberuntime.helpers import HelperMethods, ListingMemo
from minikubelet.kuberuntime.labels import containerHashLabel, get_container_info_from_labels
from minikubelet.types import (
    KubernetesContainerNameLabel,
    KubernetesPodNameLabel,
    KubernetesPodNamespaceLabel,
    KubernetesPodUIDLabel,
)
from tests.e2e.harness import run_kubelet
from tests.e2e.test_pod_creation import pod


class Manager:
    """What the conversions read of the runtime manager."""

    runtime_name = "fake"

    to_kube_container = HelperMethods.to_kube_container
    sandbox_to_kube_container = HelperMethods.sandbox_to_kube_container


LABELS = {
    KubernetesPodNameLabel: "web",
    KubernetesPodNamespaceLabel: "default",
    KubernetesPodUIDLabel: "uid-web",
    KubernetesContainerNameLabel: "app",
}


def cri_container(cid: str = "c1", hash: str = "1a2b") -> runtimeapi.Container:
    return runtimeapi.Container(
        id=cid,
        metadata=runtimeapi.ContainerMetadata(name="app"),
        image=runtimeapi.ImageSpec(image="busybox:1.34"),
        image_ref="sha256:aa",
        state=runtimeapi.ContainerState_CONTAINER_RUNNING,
        labels=dict(LABELS),
        annotations={containerHashLabel: hash},
    )


def test_an_unchanged_container_is_converted_once_and_a_changed_one_again() -> None:
    m, memo = Manager(), ListingMemo()
    c = cri_container()
    first = memo.to_kube_container(m, c)  # type: ignore[arg-type]
    assert memo.to_kube_container(m, c) is first  # type: ignore[arg-type]
    assert first == m.to_kube_container(c)  # type: ignore[arg-type]

    # Each field the conversion reads, changed in place, gives a fresh conversion.
    changes = [
        ("state", runtimeapi.ContainerState_CONTAINER_EXITED),
        ("image_ref", "sha256:bb"),
        ("image", runtimeapi.ImageSpec(image="busybox:1.35")),
        ("metadata", runtimeapi.ContainerMetadata(name="sidecar")),
    ]
    for field, value in changes:
        setattr(c, field, value)
        got = memo.to_kube_container(m, c)  # type: ignore[arg-type]
        assert got == m.to_kube_container(c), field  # type: ignore[arg-type]
    # CRI never changes annotations in place (the annotations memo keeps them by identity).
    c.annotations = {containerHashLabel: "ff"}
    assert memo.to_kube_container(m, c).hash == 0xFF  # type: ignore[arg-type]


def test_a_conversion_that_logs_or_fails_is_not_kept() -> None:
    m, memo = Manager(), ListingMemo()
    out = io.StringIO()
    klog.configure(verbosity=3, out=out)
    try:
        no_hash = cri_container("c2")
        del no_hash.annotations[containerHashLabel]
        no_label = cri_container("c3")
        del no_label.labels[KubernetesPodUIDLabel]
        for _ in range(2):
            memo.to_kube_container(m, no_hash)  # type: ignore[arg-type]
            memo.container_info_from_labels(no_label)
    finally:
        klog.configure(verbosity=0)
    assert "c2" not in memo.containers and "c3" not in memo.labels
    # Go logs on each listing; so does the port, memo or not.
    assert out.getvalue().count(f'label="{KubernetesPodUIDLabel}"') == 2
    try:
        memo.to_kube_container(m, runtimeapi.Container(id="c4"))  # type: ignore[arg-type]
    except ValueError:
        pass
    else:
        raise AssertionError("a container without an image converted")
    assert "c4" not in memo.containers


def test_labels_are_kept_by_identity_and_sandboxes_by_state() -> None:
    m, memo = Manager(), ListingMemo()
    c = cri_container()
    info = memo.container_info_from_labels(c)
    assert memo.container_info_from_labels(c) is info
    c.labels = {**LABELS, KubernetesPodNameLabel: "other"}
    assert memo.container_info_from_labels(c) == get_container_info_from_labels(c.labels)

    s = runtimeapi.PodSandbox(id="s1", state=runtimeapi.PodSandboxState_SANDBOX_READY)
    ready = memo.sandbox_to_kube_container(m, s)  # type: ignore[arg-type]
    assert memo.sandbox_to_kube_container(m, s) is ready  # type: ignore[arg-type]
    s.state = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
    assert memo.sandbox_to_kube_container(m, s) == m.sandbox_to_kube_container(s)  # type: ignore[arg-type]


def test_the_memo_forgets_what_the_runtime_no_longer_lists() -> None:
    m, memo = Manager(), ListingMemo()
    old = [cri_container(f"old{i}") for i in range(200)]
    for c in old:
        memo.to_kube_container(m, c)  # type: ignore[arg-type]
        memo.container_info_from_labels(c)
    kept = [cri_container("new")]
    memo.to_kube_container(m, kept[0])  # type: ignore[arg-type]
    memo.forget_unlisted([], kept)
    assert list(memo.containers) == ["new"] and list(memo.labels) == []


class CheckedMemo(ListingMemo):
    """A memo that checks each answer against a fresh conversion and counts its hits."""

    def __init__(self) -> None:
        super().__init__()
        self.hits = 0
        self.answers = 0

    def _check(self, got: object, fresh: object, kept: object) -> None:
        assert got == fresh
        self.answers += 1
        self.hits += got is kept

    def container_info_from_labels(self, c: runtimeapi.Container):  # type: ignore[no-untyped-def]
        kept = self.labels.get(c.id, (None, None))[1]
        got = super().container_info_from_labels(c)
        self._check(got, get_container_info_from_labels(c.labels), kept)
        return got

    def to_kube_container(self, m, c) -> Container:  # type: ignore[no-untyped-def]
        kept = self.containers.get(c.id, (None, None))[1]
        got = super().to_kube_container(m, c)
        self._check(got, m.to_kube_container(c), kept)
        return got

    def sandbox_to_kube_container(self, m, s) -> Container:  # type: ignore[no-untyped-def]
        kept = self.sandboxes.get(s.id, (None, None))[1]
        got = super().sandbox_to_kube_container(m, s)
        self._check(got, m.sandbox_to_kube_container(s), kept)
        return got


def test_every_conversion_of_a_run_equals_a_fresh_one() -> None:
    crash = {"minikubelet.dev/scenario": "app: {runFor: 1s, exitCode: 1}"}
    pods = [pod("steady", ["app", "sidecar"]), pod("crash", ["app"], annotations=crash)]
    memo = CheckedMemo()

    def setup(kl) -> None:  # type: ignore[no-untyped-def]
        kl.container_runtime.listing_memo = memo

    # The steady pod is deleted at 40 s: its containers go, and the memo must not answer for them.
    run = run_kubelet(pods=pods, changes=[(40.0, pods[1:])], until=90, verbosity=0, setup=setup)
    assert run.statuses["crash"].container_statuses[0].restart_count >= 3
    assert memo.hits > memo.answers / 2 > 0
    assert "steady" not in run.runtime_containers
