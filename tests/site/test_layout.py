"""The layout of the port and the Go → Python table generated from it (``tools.site.layout``)."""

from pathlib import Path

import pytest

from tools.site import layout
from tools.site.layout import Module, go_package, modules, problems


def test_the_table_on_both_pages_is_what_the_tree_gives():
    for page, (now, want) in layout.pages().items():
        assert now == want, f"{page.name}: run python -m tools.site.layout"


def test_the_port_follows_the_layout_rules():
    assert problems(modules(), layout.load_notes()) == []


def test_every_module_has_a_row_in_both_languages():
    mods = modules()
    notes = layout.load_notes()
    for lang in ("en", "zh"):
        table = layout.table(mods, notes, lang)
        rows = [line for line in table.splitlines() if line.startswith("| `")]
        named = {m.name for m in mods if f"`{m.name}`" in table}
        assert named == {m.name for m in mods}
        assert len(rows) == len(mods)


@pytest.mark.parametrize(
    ("go_file", "package"),
    [
        ("pkg/kubelet/pleg/generic.go", "k8s.io/kubernetes/pkg/kubelet/pleg"),
        ("pkg/scheduler/framework/types.go", "k8s.io/kubernetes/pkg/scheduler/framework"),
        ("staging/src/k8s.io/api/core/v1/types.go", "k8s.io/api/core/v1"),
        ("staging/src/k8s.io/client-go/tools/record/event.go", "k8s.io/client-go/tools/record"),
    ],
)
def test_go_package_is_the_import_path(go_file, package):
    assert go_package(go_file) == package


def write(root: Path, path: str, docstring: str, lines: int = 3) -> None:
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(f'"""{docstring}"""\n' + "x = 1\n" * lines)


def test_each_rule_is_enforced(tmp_path):
    write(tmp_path, "minikubelet/kubelet.py", "K.\n\nGo: pkg/kubelet/kubelet.go\n")
    write(tmp_path, "minikubelet/helper.py", "Ours, but not under sim.\n")
    write(tmp_path, "minikubelet/sim/fake.py", "A fake.\n\nGo: pkg/kubelet/kubelet.go\n")
    write(tmp_path, "minikubelet/sim/quiet.py", "Ours, with no note.\n")
    write(
        tmp_path,
        "minikubelet/big.py",
        "Two.\n\nGo: pkg/kubelet/a.go\nGo: pkg/kubelet/b.go\n",
        lines=layout.MAX_LINES + 1,
    )
    write(
        tmp_path, "minikubelet/mixed.py", "M.\n\nGo: pkg/kubelet/a.go\nGo: pkg/api/v1/pod/util.go\n"
    )
    notes = {
        "minikubelet.sim.fake": {"en": "e", "zh": "z"},
        "minikubelet.gone": {"en": "e", "zh": "z"},
    }
    found = problems(modules(tmp_path), notes)
    assert found == [
        "minikubelet/big.py: 606 lines without being the port of one Go file",
        "minikubelet/helper.py: ours, so it needs a note in layout-notes.yaml"
        " (a port names its Go file: 'Go: <path>' in its docstring)",
        "minikubelet/mixed.py: ports files of several Go packages: k8s.io/kubernetes/pkg/api/v1/pod, "
        "k8s.io/kubernetes/pkg/kubelet",
        "minikubelet/sim/fake.py: is in a package of our own but ports pkg/kubelet/kubelet.go",
        "minikubelet/sim/quiet.py: ours, so it needs a note in layout-notes.yaml"
        " (a port names its Go file: 'Go: <path>' in its docstring)",
        "layout-notes.yaml: minikubelet.gone: no such module",
    ]


def test_a_page_without_markers_is_an_error():
    with pytest.raises(layout.LayoutError, match="markers"):
        layout.splice("# Go → Python\n", "table", "go-to-python.md")


def test_check_fails_on_a_stale_table(monkeypatch, tmp_path, capsys):
    stale = {}
    for lang, page in layout.PAGES.items():
        copy = tmp_path / page.name
        text = page.read_text(encoding="utf-8")
        copy.write_text(text.replace("`minikubelet.kubelet`", "`minikubelet.old_kubelet`"))
        stale[lang] = copy
    monkeypatch.setattr(layout, "PAGES", stale)
    monkeypatch.setattr(layout, "ROOT", tmp_path)
    assert layout.main(["--check"]) == 1
    assert "is not current" in capsys.readouterr().err
    assert layout.main([]) == 0
    assert layout.main(["--check"]) == 0


def test_module_names():
    assert Module("minikubelet/pleg/generic.py", (), 1).name == "minikubelet.pleg.generic"
    assert Module("minikubelet/types/__init__.py", (), 1).name == "minikubelet.types"
    assert Module("minikubelet/k8s_io/klog/v2/klog.py", (), 1).ours
