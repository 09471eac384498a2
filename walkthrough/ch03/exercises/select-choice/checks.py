"""What ch03/select-choice checks in your ``select``: a uniform, seeded choice of a ready case."""

from __future__ import annotations

from collections import Counter

from minikubelet import go
from minikubelet.go import make_chan, recv, select
from minikubelet.types import FileSource, PodOperation, PodUpdate
from walkthrough.expect import expect, expect_equal
from walkthrough.fixtures import RecordingHandler, make_pod, new_kubelet, run_go

ROUNDS = 3000
#: The chi-squared value a uniform choice among 3 stays under 999 times in 1000 (2 degrees).
CHI2_LIMIT = 13.82


def choices(seed: int, channels: int = 3, ready: set[int] | None = None) -> list[int]:
    """The case each of ROUNDS selects chose, with the ``ready`` channels holding a value."""
    ready = set(range(channels)) if ready is None else ready
    chosen: list[int] = []

    async def main() -> None:
        chans = [make_chan(1) for _ in range(channels)]
        for _ in range(ROUNDS):
            for i in ready:
                if len(chans[i]) == 0:
                    await chans[i].send(i)
            selected = await select(*(recv(c) for c in chans))
            chosen.append(selected.index)

    go.run(main, seed=seed, until=None)
    return chosen


def counts(chosen: list[int], channels: int = 3) -> list[int]:
    tally = Counter(chosen)
    return [tally[i] for i in range(channels)]


def check_a_lone_ready_case_is_taken() -> None:
    got = counts(choices(1, ready={2}))
    expect_equal(
        got,
        [0, 0, ROUNDS],
        en="When only one case is ready, select runs that one, every time.",
        zh="只有一个分支就绪时，select 每次都执行那一个。",
    )


def check_each_ready_case_has_the_same_chance() -> None:
    got = counts(choices(1))
    expected = ROUNDS / 3
    chi2 = sum((n - expected) ** 2 / expected for n in got)
    expect(
        chi2 < CHI2_LIMIT,
        en=f"With three cases always ready, {ROUNDS} selects (seed 1) chose them {got[0]}, "
        f"{got[1]} and {got[2]} times. Go picks uniformly at random among the ready cases, "
        f"about {expected:.0f} each (chi-squared {chi2:.1f}, a fair choice stays under "
        f"{CHI2_LIMIT}): a select that prefers a case lets a busy channel starve the others.",
        zh=f"三个分支一直就绪时，{ROUNDS} 次 select（种子 1）分别选了它们 {got[0]}、{got[1]}、"
        f"{got[2]} 次。Go 在就绪的分支中均匀随机地选择，每个大约 {expected:.0f} 次（卡方值 "
        f"{chi2:.1f}，公平的选择会低于 {CHI2_LIMIT}）：偏爱某个分支的 select 会让繁忙的通道饿死其他通道。",
    )


def check_the_same_seed_gives_the_same_choices() -> None:
    first, again, other = choices(1)[:200], choices(1)[:200], choices(2)[:200]
    expect(
        first == again and first != other,
        en="The choice must come from the runtime's random generator, seeded by the run: the "
        "same seed gives the same choices (a run can be replayed in a debugger), another seed "
        "other ones.",
        zh="选择必须取自运行时的随机数生成器，它由这次运行的种子决定：同一个种子得到同样的选择"
        "（这样一次运行可以在调试器里重放），换一个种子就得到别的选择。",
    )


def first_handled(seed: int) -> str:
    """One iteration of the loop with an ADD on configCh and a housekeeping tick both ready."""
    handler = RecordingHandler()

    async def main() -> None:
        kl = new_kubelet(sources={FileSource})
        kl.sources_ready.add_source(FileSource)
        config_ch = make_chan(1, name="configCh")
        housekeeping_ch = make_chan(1, name="housekeepingCh")
        await config_ch.send(PodUpdate(pods=[make_pod("web")], op=PodOperation.ADD))
        await housekeeping_ch.send(0.0)
        await kl.sync_loop_iteration(
            config_ch, handler, make_chan(1), housekeeping_ch, kl.pleg.watch()
        )

    run_go(main, seed=seed)
    return handler.calls[0][0] if handler.calls else "nothing"


def check_the_sync_loop_serves_every_ready_channel() -> None:
    seen: dict[str, list[int]] = {}
    for seed in range(1, 41):
        seen.setdefault(first_handled(seed), []).append(seed)
    expect(
        set(seen) == {"additions", "cleanups"},
        en="With an update on configCh and a housekeeping tick both waiting, syncLoopIteration "
        "must sometimes take the one and sometimes the other (over seeds 1 to 40, each at least "
        f"once). Your select took: {', '.join(f'{k} (seeds {v[:5]}…)' for k, v in seen.items())}.",
        zh="configCh 上有更新、清理定时器也触发了时，syncLoopIteration 应当有时先处理前者、有时先处理"
        "后者（种子 1 到 40 中，两者都至少出现一次）。你的 select 选择的是："
        f"{'，'.join(f'{k}（种子 {v[:5]}…）' for k, v in seen.items())}。",
    )
