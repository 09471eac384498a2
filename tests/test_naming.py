"""The naming rule for constants and enum members (README, contributor notes), checked.

Every Enum of the port has UPPER_SNAKE_CASE members, and each member that ports a Go constant is
also bound at module level, next to its enum, under the Go constant's name.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import pkgutil
import re

import minikubelet

UPPER_SNAKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
# Members that are ours, with no Go constant to be bound as: (enum, member) → why.
OURS = {
    ("ContainerKillReason", "NONE"): "Go's zero value of containerKillReason, which has no name",
}


def _enums():
    for info in pkgutil.walk_packages(minikubelet.__path__, "minikubelet."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and issubclass(obj, enum.Enum)
                and obj.__module__ == module.__name__
                and name == obj.__name__
            ):
                yield module, obj


def test_enum_members_are_upper_snake_case_and_bound_under_their_go_names():
    problems = []
    enums = list(_enums())
    assert len(enums) > 20
    for module, cls in enums:
        bound = {id(v) for k, v in vars(module).items() if not k.startswith("_")}
        for name, member in cls.__members__.items():
            if not UPPER_SNAKE.fullmatch(name):
                problems.append(f"{cls.__module__}.{cls.__name__}.{name}: not UPPER_SNAKE_CASE")
            if id(member) not in bound and (cls.__name__, name) not in OURS:
                problems.append(
                    f"{cls.__module__}.{cls.__name__}.{name}: not bound at module level under "
                    "its Go name"
                )
    assert not problems, "\n".join(problems)
