"""Checks of the policy API group; here only the sysctl patterns kubelet is given.

Go: pkg/apis/policy/validation/validation.go
"""

from __future__ import annotations

import re

from minikubelet.k8s_io.kubernetes.pkg.apis.core.validation.validation import (
    SysctlMaxLength,
    SysctlSegmentFmt,
)

# The last part of a pattern may end in ``*``. Go: sysctlPatternSegmentFmt
_sysctlPatternSegmentFmt = "([a-z0-9][-_a-z0-9]*)?[a-z0-9*]"

#: A sysctl name, or a prefix of one followed by ``*``. Go: SysctlPatternFmt
SysctlPatternFmt = "(" + SysctlSegmentFmt + "\\.)*" + _sysctlPatternSegmentFmt

_sysctl_pattern_regexp = re.compile(SysctlPatternFmt)


def is_valid_sysctl_pattern(name: str) -> bool:
    """Go: pkg/apis/policy/validation/validation.go IsValidSysctlPattern"""
    if len(name) > SysctlMaxLength:
        return False
    return _sysctl_pattern_regexp.fullmatch(name) is not None
