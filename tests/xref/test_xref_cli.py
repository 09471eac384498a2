"""``python -m tools.xref …``: exit codes, text and ``--json`` output."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from tools.xref.cli import main

from .conftest import FIXTURES, K8S, ROOT_DIR

COMMON = ["--root", str(FIXTURES), "--package", "port"]


def _run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_module_entry_point():
    res = subprocess.run(
        [sys.executable, "-m", "tools.xref", "--help"],
        cwd=ROOT_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 0
    for command in ("fetch", "index", "check", "report", "lock"):
        assert command in res.stdout


def test_lock_then_check_then_link_only(capsys, tmp_path):
    lock = str(tmp_path / "fx.lock.json")
    src = ["--src", str(K8S), "--source-version", "v1.21.3", "--lock", lock]
    code, out, _ = _run(capsys, "check", *COMMON, *src)
    assert code == 1 and "lock-missing" in out and "check: FAILED" in out
    code, out, _ = _run(capsys, "lock", *COMMON, *src)
    assert code == 0 and "wrote 3 files and 14 symbols read from v1.21.3" in out
    code, out, _ = _run(capsys, "check", *COMMON, *src)
    assert code == 0 and out.strip().endswith("check: ok")
    code, out, _ = _run(capsys, "index", *COMMON, "--lock", lock, "--offline", "--json")
    data = json.loads(out)
    assert code == 0 and data["mode"] == "link-only" and data["ok"]
    m = next(m for m in data["mappings"] if m["go_symbol"] == "(*Kubelet).syncLoopIteration")
    assert m["permalink"].endswith("/v1.21.3/pkg/kubelet/kubelet.go#L41-L70")
    assert m["blocks"][0]["case"] == "case u, open := <-configCh:"


def test_lock_needs_a_source(capsys, tmp_path):
    code, out, _ = _run(capsys, "lock", *COMMON, "--lock", str(tmp_path / "l.json"), "--offline")
    assert code == 1 and "needs the Go source" in out
    assert not (tmp_path / "l.json").exists()


def test_check_fails_on_broken_mappings_with_locations(capsys):
    code, out, _ = _run(
        capsys, "check", "--root", str(FIXTURES), "--package", "broken", "--src", str(K8S)
    )
    assert code == 1
    assert (
        "broken/mappings.py:9: error: looked for (*Kubelet).syncLoop in pkg/kubelet/kubelet.go"
        in out
    )
    assert "broken/mappings.py:3: error: looked for Go file pkg/kubelet/missing.go" in out


def test_check_json_and_no_fidelity(capsys, tmp_path):
    root = tmp_path / "root"
    shutil.copytree(FIXTURES / "port", root / "port")
    types = root / "port" / "types.py"
    types.write_text(types.read_text().replace("        # Go: default:\n", ""))
    args = ["--root", str(root), "--package", "port", "--src", str(K8S), "--lock", "none.json"]
    code, out, _ = _run(capsys, "check", *args, "--json")
    data = json.loads(out)
    assert code == 1 and not data["ok"]
    assert {p["code"] for p in data["problems"]} == {"missing-case", "lock-missing"}
    code, out, _ = _run(capsys, "check", *args, "--no-fidelity")
    assert "warning: (SyncPodType).String: 'default:'" in out
    assert code == 1  # still: no lock file


def test_report_lists_each_case(capsys):
    code, out, _ = _run(capsys, "report", *COMMON, "--src", str(K8S))
    assert code == 0
    assert "(*Kubelet).syncLoopIteration  pkg/kubelet/kubelet.go:41-70" in out
    assert "ported   L44    case u, open := <-configCh:  port/kubelet.py:27" in out
    assert (
        "omitted  L54    case kubetypes.SET:  port/kubelet.py:35 -- the fixture has no SET" in out
    )
    code, out, _ = _run(capsys, "report", *COMMON, "--src", str(K8S), "--json")
    report = json.loads(out)
    assert {f["go_symbol"] for f in report} >= {"(Pod).Describe", "(*Kubelet).note"}


def _omit(port_root, statement: str) -> list[str]:
    """Mark a statement of the fixture's UpdatePod omitted (line 11 of port/pod_workers.py)."""
    f = port_root / "port" / "pod_workers.py"
    f.write_text(
        f.read_text().replace(
            "        ch = self.updates.setdefault(name, [])\n",
            "        ch = self.updates.setdefault(name, [])\n"
            f"        # Go omitted: {statement} -- the fixture's pods need no worker loop\n",
        )
    )
    return ["--root", str(port_root), "--package", "port", "--src", str(K8S)]


def _section(out: str, header: str) -> list[str]:
    """The lines `report` prints under one function's header."""
    lines = out.splitlines()
    (i,) = [i for i, line in enumerate(lines) if line.startswith(header + "  ")]
    rest = lines[i + 1 :]
    end = next((j for j, line in enumerate(rest) if not line.startswith("  ")), len(rest))
    return rest[:end]


def test_report_lists_an_omitted_statement_under_its_function_with_its_reason(capsys, port_root):
    args = _omit(port_root, "go p.managePodLoop(ch)")
    code, out, _ = _run(capsys, "report", *args)
    assert code == 0
    assert (
        "  omitted         go p.managePodLoop(ch)  port/pod_workers.py:11 -- the fixture's pods "
        "need no worker loop"
    ) in _section(out, "(*podWorkers).UpdatePod")
    assert "go p.managePodLoop" not in "".join(_section(out, "(*Kubelet).syncLoopIteration"))
    code, out, _ = _run(capsys, "report", *args, "--json")
    (f,) = [f for f in json.loads(out) if f["go_symbol"] == "(*podWorkers).UpdatePod"]
    assert f["omissions"] == [
        {
            "what": "go p.managePodLoop(ch)",
            "reason": "the fixture's pods need no worker loop",
            "py_file": "port/pod_workers.py",
            "py_line": 11,
        }
    ]
    code, out, _ = _run(capsys, "check", *args, "--lock", "none.json")
    assert "unresolved-anchor" not in out


def test_an_omission_of_a_statement_the_go_lacks_fails_the_check(capsys, port_root):
    args = _omit(port_root, "go p.startWorker(ch)")
    code, out, _ = _run(capsys, "check", *args, "--lock", "none.json")
    assert code == 1 and "check: FAILED" in out
    assert (
        "port/pod_workers.py:11: error: '# Go omitted: go p.startWorker(ch)' names no statement "
        "of (*podWorkers).UpdatePod (pkg/kubelet/pod_workers.go:17-28); did you mean "
        "'go p.managePodLoop(ch)'? [unresolved-anchor]"
    ) in out
    # the report shows the error, and does not list the omission as if it named a statement
    code, out, _ = _run(capsys, "report", *args)
    assert "go p.startWorker(ch)" not in "".join(_section(out, "(*podWorkers).UpdatePod"))
    assert "port/pod_workers.py:11: error: '# Go omitted: go p.startWorker(ch)'" in out


def test_require_source(capsys, dead_url):
    code, out, err = _run(capsys, "index", *COMMON, "--require-source", "--base-url", dead_url)
    assert code == 1 and "no-source" in out and "Link-only mode" in err


def test_fetch(capsys, http_dir, dead_url, tmp_path):
    www, base = http_dir
    shutil.copytree(K8S, www / "v1.21.3")
    cache = ["--cache-dir", str(tmp_path / "c"), "--lock", str(tmp_path / "none.json")]
    code, out, _ = _run(capsys, "fetch", *COMMON, *cache, "--base-url", f"{base}/v1.21.3")
    # No lock, so no git blob id to check them by: kept, said unverified in one line.
    assert code == 0 and "0/3 Go files of v1.21.3 verified in" in out
    assert "\nxref fetch: 3 unverified (the lock has no git blob id for them): pkg/" in out
    code, out, _ = _run(capsys, "fetch", *COMMON, *cache, "--base-url", dead_url, "--force")
    assert code == 0  # already cached and verified: nothing missing
    cache2 = ["--cache-dir", str(tmp_path / "c2"), "--lock", str(tmp_path / "none.json")]
    code, out, _ = _run(capsys, "fetch", *COMMON, *cache2, "--base-url", dead_url, "--json")
    data = json.loads(out)
    assert code == 1 and data["network_error"] and len(data["missing"]) == 3


def test_index_any_go_tree(capsys, tmp_path):
    tree = FIXTURES / "gotree"
    args = ["index", "--go-tree", str(tree), "--cache-dir", str(tmp_path / "c"), "--json"]
    code, out, _ = _run(capsys, *args)
    data = json.loads(out)
    assert code == 0 and data["files"] == 2 and data["parsed"] == 2
    assert data["files_with_syntax_errors"] == ["broken.go"]
    code, out, _ = _run(capsys, *args[:-1])
    assert "2 Go files under" in out and "1 files with syntax errors" in out


def test_progress_bars_do_not_break_output(capsys, tmp_path, http_dir):
    www, base = http_dir
    shutil.copytree(K8S, www / "v1.21.3")
    args = ["--cache-dir", str(tmp_path / "c"), "--lock", str(tmp_path / "none.json")]
    code, out, err = _run(
        capsys, "fetch", *COMMON, *args, "--base-url", f"{base}/v1.21.3", "--progress", "--json"
    )
    assert code == 0 and len(json.loads(out)["fetched"]) == 3  # bars go to stderr only
    assert "downloading 3 Go files" in err
    code, out, _ = _run(
        capsys, "index", "--go-tree", str(FIXTURES / "gotree"), *args, "--progress", "--json"
    )
    assert code == 0 and json.loads(out)["files"] == 2


def test_fetch_reports_a_mapped_file_absent_at_the_tag(capsys, http_dir, tmp_path):
    www, base = http_dir
    shutil.copytree(K8S, www / "v1.21.3")
    (www / "v1.21.3" / "pkg/kubelet/pod_workers.go").unlink()
    args = ["--cache-dir", str(tmp_path / "c"), "--lock", str(tmp_path / "none.json")]
    code, out, _ = _run(capsys, "fetch", *COMMON, *args, "--base-url", f"{base}/v1.21.3")
    assert code == 1 and "0/3 Go files of v1.21.3 verified" in out and "2 unverified" in out
    assert "pkg/kubelet/pod_workers.go: not found at v1.21.3 (404)" in out
    # offline afterwards: the cache is used (the absent file is known, not "missing")
    code, out, _ = _run(capsys, "check", *COMMON, *args, "--offline", "--json")
    data = json.loads(out)
    assert data["mode"] == "source"
    assert {p["file"] for p in data["problems"] if p["code"] == "unresolved-file"} == {
        "port/pod_workers.py"
    }
