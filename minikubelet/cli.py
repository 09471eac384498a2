"""The ``minikubelet`` command line."""

import argparse
import sys

from minikubelet import KUBERNETES_VERSION, __version__
from minikubelet.i18n import language, text


def build_parser(lang: str) -> argparse.ArgumentParser:
    """The argument parser, with its help written in ``lang``."""
    parser = argparse.ArgumentParser(
        prog="minikubelet",
        description=text(
            f"A runnable Python port of kubelet's pod-creation path, as in Kubernetes "
            f"{KUBERNETES_VERSION}.",
            f"kubelet 创建 Pod 这条路径的 Python 移植，可以直接运行，对应 Kubernetes "
            f"{KUBERNETES_VERSION}。",
            lang,
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"minikubelet {__version__} (Kubernetes {KUBERNETES_VERSION})",
        help=text("print the version and exit", "显示版本后退出", lang),
    )
    parser.add_argument(
        "--lang",
        choices=["en", "zh"],
        help=text(
            "language of messages (default: from MINIKUBELET_LANG or the locale)",
            "输出语言（默认读取 MINIKUBELET_LANG 或系统 locale）",
            lang,
        ),
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``minikubelet`` console script."""
    argv = sys.argv[1:] if argv is None else argv
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", choices=["en", "zh"])
    known, _ = pre.parse_known_args(argv)
    parser = build_parser(language(known.lang))
    parser.parse_args(argv)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
