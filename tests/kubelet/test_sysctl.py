"""The sysctl admit handler, as ``minikubelet run`` shows it.

Go (v1.21.4 lines): pkg/kubelet/kubelet.go L783-790 (NewMainKubelet registers it after the
eviction handler, with the safe sysctls and --allowed-unsafe-sysctls);
pkg/kubelet/sysctl/whitelist.go (NewWhitelist, validateSysctl, Admit), namespace.go;
pkg/security/podsecuritypolicy/sysctl/mustmatchpatterns.go (SafeSysctlWhitelist);
pkg/apis/core/validation/validation.go validateSysctls.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from minikubelet.config.manifest import load_pods
from minikubelet.sysctl.whitelist import new_whitelist
from tests.test_cli import run_cli


def api_pod(name: str, sysctls: str, extra: str = "") -> str:
    return (
        f"- at: 1s\n  type: ADDED\n  object:\n    apiVersion: v1\n    kind: Pod\n"
        f"    metadata: {{name: {name}, namespace: shop}}\n    spec:\n{extra}"
        f"      securityContext: {{sysctls: [{sysctls}]}}\n"
        f"      containers: [{{name: app, image: nginx}}]\n"
    )


SCRIPT = (
    api_pod(
        "tuned",
        "{name: net.ipv4.tcp_syncookies, value: '1'}, {name: net.core.somaxconn, value: '1024'}",
    )
    + api_pod("safe", "{name: kernel.shm_rmid_forced, value: '1'}")
    + api_pod("hostnet", "{name: net.ipv4.tcp_syncookies, value: '1'}", "      hostNetwork: true\n")
    + api_pod("hostipc", "{name: kernel.msgmax, value: '1'}", "      hostIPC: true\n")
)


def test_only_safe_and_allowed_sysctls_are_admitted(tmp_path: Path):
    script = tmp_path / "script.yaml"
    script.write_text(SCRIPT)
    code, out = run_cli("--api-script", str(script), "--until", "5s")
    assert code == 0
    assert (
        "minikubelet: pod shop/tuned is Failed at 1s (SysctlForbidden: Pod forbidden sysctl: "
        '"net.core.somaxconn" not whitelisted)' in out
    )
    assert "shop/safe                                Running" in out
    # A network sysctl with the host's network would change the node's own setting.
    assert (
        "minikubelet: pod shop/hostnet is Failed at 1s (SysctlForbidden: Pod forbidden sysctl: "
        '"net.ipv4.tcp_syncookies" not allowed with host net enabled)' in out
    )
    assert '"kernel.msgmax" not whitelisted' in out

    code, out = run_cli(
        "--api-script",
        str(script),
        "--until",
        "5s",
        "--allowed-unsafe-sysctls",
        "net.core.*,kernel.msgmax",
    )
    assert "shop/tuned                               Running" in out
    assert '"net.ipv4.tcp_syncookies" not allowed with host net enabled' in out
    assert '"kernel.msgmax" not allowed with host ipc enabled' in out


@pytest.mark.parametrize(
    ("patterns", "message"),
    [
        ("vm.swappiness", 'the sysctl "vm.swappiness" are not known to be namespaced'),
        ("vm.*", 'the sysctls "vm.*" are not known to be namespaced'),
        ("Net.*", 'sysctl "Net.*" must have at most 253 characters and match regex '),
        ("net.*.x", 'sysctl "net.*.x" must have at most 253 characters'),
    ],
)
def test_bad_allowed_unsafe_sysctls_are_refused(capsys, patterns: str, message: str):
    code, out = run_cli("--manifests", "/nonexistent", "--allowed-unsafe-sysctls", patterns)
    assert (code, out) == (2, "")
    assert f"minikubelet: {message}" in capsys.readouterr().err
    with pytest.raises(ValueError):
        new_whitelist([patterns])


def test_prefixes_and_namespaces():
    w = new_whitelist(["kernel.shm*", "fs.mqueue.*", "kernel.sem", "net.ipv4.*"])
    assert w.validate_sysctl("kernel.shmmax", False, False) is None
    assert w.validate_sysctl("kernel.sem", False, False) is None
    assert (
        w.validate_sysctl("kernel.sem", False, True)
        == '"kernel.sem" not allowed with host ipc enabled'
    )
    assert w.validate_sysctl("fs.mqueue.msg_max", True, False) is None
    assert w.validate_sysctl("net.ipv4.ip_forward", False, True) is None
    assert (
        w.validate_sysctl("net.core.somaxconn", False, False)
        == '"net.core.somaxconn" not whitelisted'
    )


@pytest.mark.parametrize(
    ("sysctls", "error"),
    [
        ("[{value: '1'}]", "spec.securityContext.sysctls[0].name: required"),
        (
            "[{name: Net.Core, value: '1'}]",
            'spec.securityContext.sysctls[0].name: invalid value "Net.Core": must have at most '
            "253 characters and match regex",
        ),
        (
            "[{name: net.a, value: '1'}, {name: net.a, value: '2'}]",
            'spec.securityContext.sysctls[1].name: duplicate value "net.a"',
        ),
    ],
)
def test_validation_names_the_field(sysctls: str, error: str):
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
        f"spec:\n  securityContext: {{sysctls: {sysctls}}}\n"
        "  containers: [{name: app, image: nginx}]\n"
    )
    pods, errors = load_pods(text, "p.yaml")
    assert pods == []
    assert len(errors) == 1
    assert f"p.yaml: document 1: {error}" in str(errors[0])
