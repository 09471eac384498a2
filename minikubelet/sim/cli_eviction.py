"""``minikubelet run``'s eviction flags, written and read as kubelet's are. Ours, not kubelet's.

kubelet reads ``--eviction-hard`` and ``--eviction-soft`` as ``signal<quantity`` pairs and the
grace periods and minimum reclaims as ``signal=value`` pairs (component-base's
``LangleSeparatedMapStringString`` and ``MapStringString``, in cmd/kubelet/app, outside the Go
files the port reads). [`configure_eviction`][] puts them into the kubelet configuration and
checks them as kubelet does at start, so a bad threshold is refused before anything runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from minikubelet.base.i18n import text


def add_eviction_flags(run: argparse.ArgumentParser, lang: str) -> None:
    """kubelet's eviction flags, with kubelet's syntax (``memory.available<100Mi``)."""

    def t(en: str, zh: str) -> str:
        return text(en, zh, lang)

    run.add_argument(
        "--eviction-hard",
        action="append",
        metavar="SIGNAL<QUANTITY[,…]",
        help=t(
            "hard eviction thresholds, e.g. memory.available<100Mi,nodefs.available<10%% "
            "(kubelet's flag; given, it replaces kubelet's defaults)",
            "硬驱逐阈值，例如 memory.available<100Mi,nodefs.available<10%%（kubelet 的同名参数；"
            "一旦给出，就取代 kubelet 的默认值）",
        ),
    )
    run.add_argument(
        "--eviction-soft",
        action="append",
        metavar="SIGNAL<QUANTITY[,…]",
        help=t(
            "soft eviction thresholds, each with a grace period (kubelet's flag)",
            "软驱逐阈值，每个都要有宽限期（kubelet 的同名参数）",
        ),
    )
    run.add_argument(
        "--eviction-soft-grace-period",
        action="append",
        metavar="SIGNAL=DURATION[,…]",
        help=t(
            "how long each soft threshold must hold before pods are evicted, e.g. "
            "memory.available=1m30s (kubelet's flag)",
            "每个软阈值须持续多久才驱逐 Pod，例如 memory.available=1m30s（kubelet 的同名参数）",
        ),
    )
    run.add_argument(
        "--eviction-minimum-reclaim",
        action="append",
        metavar="SIGNAL=QUANTITY[,…]",
        help=t(
            "how much beyond a threshold must be free again before pressure ends (kubelet's flag)",
            "压力解除前，需在阈值之外再回收多少资源（kubelet 的同名参数）",
        ),
    )
    run.add_argument(
        "--eviction-pressure-transition-period",
        default="5m",
        metavar="DURATION",
        help=t(
            "how long a pressure condition stays after its threshold was last met (default 5m)",
            "阈值最后一次被触及后，压力状况还要保持多久（默认 5m）",
        ),
    )
    run.add_argument(
        "--eviction-max-pod-grace-period",
        type=int,
        default=0,
        metavar="SECONDS",
        help=t(
            "the grace period of a pod a soft threshold evicts (kubelet's flag; default 0)",
            "因软阈值被驱逐的 Pod 的宽限期（kubelet 的同名参数；默认 0）",
        ),
    )


def parse_flag_map(values: list[str] | None, flag: str, sep: str) -> dict[str, str] | None:
    """A map flag of kubelet's: ``key<value`` pairs (``sep`` ``<``) or ``key=value`` pairs,
    comma-separated; the flag may be repeated (None: not given).

    Ours, read as kubelet reads these flags (component-base's ``MapStringString`` and
    ``LangleSeparatedMapStringString``): pairs trimmed, empty ones skipped, a later key wins.
    Raises ValueError with pflag's words.
    """
    if values is None:
        return None
    result: dict[str, str] = {}
    for value in values:
        for pair in value.split(","):
            pair = pair.strip()
            if pair == "":
                continue
            k, found, v = pair.partition(sep)
            if not found:
                raise ValueError(
                    f'invalid argument "{value}" for "{flag}" flag: malformed pair, '
                    f"expect string{sep}string"
                )
            result[k.strip()] = v.strip()
    return result


def configure_eviction(kube_cfg: Any, args: argparse.Namespace) -> None:
    """Put the eviction flags into ``kube_cfg`` and check them as kubelet does at start (its
    ``ParseThresholdConfig``); raises ValueError with kubelet's message."""
    from minikubelet.eviction.helpers import parse_threshold_config
    from minikubelet.go.duration import parse_duration

    hard = parse_flag_map(args.eviction_hard, "--eviction-hard", "<")
    if hard is not None:
        kube_cfg.eviction_hard = hard
    kube_cfg.eviction_soft = parse_flag_map(args.eviction_soft, "--eviction-soft", "<") or {}
    kube_cfg.eviction_soft_grace_period = (
        parse_flag_map(args.eviction_soft_grace_period, "--eviction-soft-grace-period", "=") or {}
    )
    kube_cfg.eviction_minimum_reclaim = (
        parse_flag_map(args.eviction_minimum_reclaim, "--eviction-minimum-reclaim", "=") or {}
    )
    try:
        kube_cfg.eviction_pressure_transition_period = parse_duration(
            args.eviction_pressure_transition_period
        )
    except ValueError as err:
        raise ValueError(
            f'invalid argument "{args.eviction_pressure_transition_period}" for '
            f'"--eviction-pressure-transition-period" flag: {err}'
        ) from None
    kube_cfg.eviction_max_pod_grace_period = args.eviction_max_pod_grace_period
    parse_threshold_config(
        kube_cfg.enforce_node_allocatable,
        kube_cfg.eviction_hard,
        kube_cfg.eviction_soft,
        kube_cfg.eviction_soft_grace_period,
        kube_cfg.eviction_minimum_reclaim,
    )
