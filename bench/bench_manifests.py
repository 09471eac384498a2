"""How fast manifests load, and how fast hostile ones are refused.

Loads the example manifests (read, decode, default, validate: what kubelet's file source does to
each file on every 20 s listing) and prints manifests per second, with libyaml's parser and with
PyYAML's pure Python one for comparison; then times the refusal of an alias bomb (387 million
strings once expanded), of 5,000 levels of nesting, and of a 10 MiB manifest.

    python bench/bench_manifests.py
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from minikubelet.config.manifest import load_pods  # noqa: E402
from minikubelet.k8s_io.apimachinery.pkg.util.yaml import decoder  # noqa: E402

#: PyYAML's pure Python parser with the decoder's scalar rules.
PureLoader = decoder.loader_class(yaml.SafeLoader)


def best(run: Callable[[], object], n: int, repeat: int = 5) -> float:
    """The best time of ``repeat`` runs of ``n`` calls, per call, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(n):
            run()
        times.append((time.perf_counter() - start) / n)
    return min(times)


def per_second(text: str, allow_pod_list: bool) -> float:
    pods, errors = load_pods(text, "bench", allow_pod_list=allow_pod_list)
    assert pods and not errors, errors
    return 1 / best(lambda: load_pods(text, "bench", allow_pod_list=allow_pod_list), 300)


def refusal(name: str, text: str, expected: str) -> None:
    start = time.perf_counter()
    _, errors = load_pods(text, "bench")
    seconds = time.perf_counter() - start
    assert errors and expected in str(errors[0]), errors
    print(f"  {name:<40} refused in {seconds * 1000:8.1f} ms: {str(errors[0])[7:70]}")


def main() -> None:
    examples = {
        "static-pods/nginx.yaml": False,
        "static-pods/init-container.yaml": False,
        "http-pods/pod-list.yaml": True,
    }
    print(f"PyYAML {yaml.__version__}, libyaml: {yaml.__with_libyaml__}")
    print(f"{'manifest':<34} {'libyaml /s':>12} {'pure Python /s':>15} {'speed-up':>9}")
    for name, pod_list in examples.items():
        text = (ROOT / "examples" / name).read_text()
        fast = per_second(text, pod_list)
        fast_loader = decoder._Loader
        decoder._Loader = PureLoader  # what runs where PyYAML has no libyaml
        try:
            slow = per_second(text, pod_list)
        finally:
            decoder._Loader = fast_loader
        print(f"{name:<34} {fast:12.0f} {slow:15.0f} {fast / slow:8.1f}x")

    print("hostile manifests:")
    bomb = ['a0: &a0 ["lol"]'] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)
    ]
    head = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n"
    refusal(
        "alias bomb (9 levels of 9 aliases)",
        head + "  annotations:\n" + "".join(f"    {line}\n" for line in bomb),
        "excessive aliasing",
    )
    refusal("5,000 levels of nesting", head + "  labels: " + "[" * 5000, "nesting depth")
    spec = "spec:\n  containers: [{name: app, image: nginx}]\n"
    big = head + "  annotations:\n"
    big += "".join(f"    k{i}: {'x' * 80}\n" for i in range(110_000)) + spec
    refusal(f"{len(big) >> 20} MiB of annotations", big, "annotations are too long")


if __name__ == "__main__":
    main()
