"""A store that hands its whole content to a function after every change.

Go: staging/src/k8s.io/client-go/tools/cache/undelta_store.go

kubelet's file and API server sources keep their pods in one: each add, update, delete or
replace pushes the full list of pods as a SET to PodConfig, which works out what changed.
"""

from __future__ import annotations

import builtins
from collections.abc import Awaitable, Callable
from typing import Any

from minikubelet.k8s_io.api.core.v1 import Pod

PushFunc = Callable[[list[Pod]], Awaitable[None]]


class UndeltaStore:
    """Go: staging/src/k8s.io/client-go/tools/cache/undelta_store.go type UndeltaStore

    ``push_func`` is a coroutine function here, because kubelet's push sends on a channel.
    """

    def __init__(self, push_func: PushFunc, key_func: Callable[[Pod], str]) -> None:
        """Go: staging/src/k8s.io/client-go/tools/cache/undelta_store.go NewUndeltaStore"""
        self.push_func = push_func
        self.key_func = key_func
        self.items: dict[str, Pod] = {}

    def list(self) -> list[Pod]:
        """Every object, ordered by key.

        Go's store lists in map order, which is random; sorting keeps runs repeatable.
        """
        return [self.items[k] for k in sorted(self.items)]

    def get_by_key(self, key: str) -> tuple[Pod | None, bool]:
        """Go: staging/src/k8s.io/client-go/tools/cache/store.go (*cache).GetByKey"""
        item = self.items.get(key)
        return item, item is not None

    async def add(self, obj: Pod) -> None:
        """Go: staging/src/k8s.io/client-go/tools/cache/undelta_store.go (*UndeltaStore).Add"""
        self.items[self.key_func(obj)] = obj
        await self.push_func(self.list())

    async def update(self, obj: Pod) -> None:
        """Go: staging/src/k8s.io/client-go/tools/cache/undelta_store.go (*UndeltaStore).Update"""
        self.items[self.key_func(obj)] = obj
        await self.push_func(self.list())

    async def delete(self, obj: Pod) -> None:
        """Go: staging/src/k8s.io/client-go/tools/cache/undelta_store.go (*UndeltaStore).Delete"""
        self.items.pop(self.key_func(obj), None)
        await self.push_func(self.list())

    # `list` here is the method above: builtins.list is the type.
    async def replace(self, objs: builtins.list[Any], resource_version: str = "") -> None:
        """Go: staging/src/k8s.io/client-go/tools/cache/undelta_store.go (*UndeltaStore).Replace"""
        self.items = {self.key_func(o): o for o in objs}
        await self.push_func(self.list())
