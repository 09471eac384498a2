"""The syntax of names, keys, label values and ports, as the API server checks them.

Go: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go

Each function returns what is wrong with its value, or None when nothing is. Go returns a list
of its messages (empty when the value is valid); the port returns one message of its own, in
English and Chinese, that says the whole rule, for the loader's errors name the field and say
how to fix it.
"""

from __future__ import annotations

import re

from minikubelet.base.i18n import Bilingual, both
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import quoted

#: Go: qualifiedNameMaxLength
qualifiedNameMaxLength = 63
#: Go: LabelValueMaxLength
LabelValueMaxLength = 63
#: Go: DNS1123LabelMaxLength
DNS1123LabelMaxLength = 63
#: Go: DNS1123SubdomainMaxLength
DNS1123SubdomainMaxLength = 253

_DNS1123_LABEL = r"[a-z0-9](?:[-a-z0-9]*[a-z0-9])?"
_DNS1123_LABEL_RE = re.compile(_DNS1123_LABEL)
_DNS1123_SUBDOMAIN_RE = re.compile(rf"{_DNS1123_LABEL}(?:\.{_DNS1123_LABEL})*")
_QUALIFIED_NAME_RE = re.compile(r"(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_LABEL_VALUE_RE = re.compile(r"(?:(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")
_ENV_VAR_NAME_RE = re.compile(r"[-._a-zA-Z][-._a-zA-Z0-9]*")
_PORT_NAME_CHARSET_RE = re.compile(r"[-a-z0-9]+")
_PORT_NAME_ONE_LETTER_RE = re.compile(r"[a-z]")


def is_qualified_name(value: str, what: tuple[str, str] = ("key", "键")) -> Bilingual | None:
    """A label or annotation key: a name, with an optional DNS subdomain prefix and ``/``.

    Go: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go IsQualifiedName

    ``what`` names the value in the message (English, Chinese).
    """
    parts = value.split("/")
    # Go: case 1:
    if len(parts) == 1:
        name = parts[0]
    # Go: case 2:
    elif len(parts) == 2:
        prefix, name = parts
        if len(prefix) == 0 or is_dns1123_subdomain(prefix):
            return both(
                f"invalid {what[0]} {quoted(value)}: the prefix before '/' must be a DNS subdomain",
                f"{what[1]} {quoted(value)} 不合法：'/' 之前的前缀必须是 DNS 子域名",
            )
    # Go: default:
    else:
        return _qualified_name_rule(value, what)
    if len(name) > qualifiedNameMaxLength or not _QUALIFIED_NAME_RE.fullmatch(name):
        return _qualified_name_rule(value, what)
    return None


def _qualified_name_rule(value: str, what: tuple[str, str]) -> Bilingual:
    """Ours: the whole rule of a qualified name, said once for each way of breaking it."""
    return both(
        f"invalid {what[0]} {quoted(value)}: the name must be at most 63 characters of "
        "letters, digits, '-', '_' and '.', starting and ending with a letter or digit, "
        "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/my-key')",
        f"{what[1]} {quoted(value)} 不合法：名称部分只能由字母、数字、'-'、'_' 和 '.' 组成，"
        "以字母或数字开头和结尾，最多 63 个字符；前面可以加一个 DNS 子域名前缀和 '/'"
        "（例如 'example.com/my-key'）",
    )


def is_valid_label_value(value: str) -> Bilingual | None:
    """Go: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go IsValidLabelValue"""
    if len(value) > LabelValueMaxLength or not _LABEL_VALUE_RE.fullmatch(value):
        return both(
            f"invalid label value {quoted(value)}: must be empty or at most 63 "
            "characters of letters, digits, '-', '_' and '.', starting and ending with "
            "a letter or digit",
            f"标签值 {quoted(value)} 不合法：可以为空；否则只能由字母、数字、'-'、'_' "
            "和 '.' 组成，以字母或数字开头和结尾，最多 63 个字符",
        )
    return None


def is_dns1123_label(value: str, what: tuple[str, str] = ("name", "名称")) -> Bilingual | None:
    """Go: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go IsDNS1123Label

    ``what`` names the value in the message (English, Chinese).
    """
    if len(value) > DNS1123LabelMaxLength or not _DNS1123_LABEL_RE.fullmatch(value):
        return both(
            f"invalid {what[0]} {quoted(value)}: must be at most 63 characters of lowercase "
            "letters, digits and '-', starting and ending with a letter or digit "
            "(a DNS-1123 label)",
            f"{what[1]} {quoted(value)} 不合法：只能由小写字母、数字和 '-' 组成，以字母或数字"
            "开头和结尾，最多 63 个字符（DNS-1123 标签）",
        )
    return None


def is_dns1123_subdomain(value: str) -> Bilingual | None:
    """A name that must be a DNS-1123 subdomain (a pod's, a node's).

    Go: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go IsDNS1123Subdomain
    """
    if len(value) > DNS1123SubdomainMaxLength or not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        return both(
            f"invalid name {quoted(value)}: must be at most 253 characters of lowercase "
            "letters, digits, '-' and '.', starting and ending with a letter or digit "
            "(a DNS-1123 subdomain)",
            f"名称 {quoted(value)} 不合法：只能由小写字母、数字、'-' 和 '.' 组成，以字母或"
            "数字开头和结尾，最多 253 个字符（DNS-1123 子域名）",
        )
    return None


def is_valid_port_num(port: int) -> Bilingual | None:
    """Go: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go IsValidPortNum"""
    if 1 <= port <= 65535:
        return None
    return both(
        f"invalid port {port}: must be between 1 and 65535",
        f"端口 {port} 不合法：必须在 1 到 65535 之间",
    )


def is_valid_port_name(port: str) -> Bilingual | None:
    """An IANA service name.

    Go: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go IsValidPortName
    """
    if (
        len(port) > 15
        or not _PORT_NAME_CHARSET_RE.fullmatch(port)
        or not _PORT_NAME_ONE_LETTER_RE.search(port)
        or "--" in port
        or (len(port) > 0 and (port[0] == "-" or port[-1] == "-"))
    ):
        return both(
            f"invalid port name {quoted(port)}: must be at most 15 characters of lowercase "
            "letters, digits and '-', with at least one letter, not starting or ending with "
            "'-' and without '--' (an IANA service name)",
            f"端口名称 {quoted(port)} 不合法：只能由小写字母、数字和 '-' 组成，至少含一个字母，"
            "不能以 '-' 开头或结尾，不能含 '--'，最多 15 个字符（IANA 服务名）",
        )
    return None


def is_env_var_name(value: str) -> Bilingual | None:
    """Go: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go IsEnvVarName"""
    if not _ENV_VAR_NAME_RE.fullmatch(value) or has_ch_dir_prefix(value):
        return both(
            f"invalid environment variable name {quoted(value)}: must "
            "consist of letters, digits, '_', '-' and '.', and must not start with "
            "a digit",
            f"环境变量名 {quoted(value)} 不合法：只能由字母、数字、'_'、'-' "
            "和 '.' 组成，且不能以数字开头",
        )
    return None


def has_ch_dir_prefix(value: str) -> bool:
    """Go: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go hasChDirPrefix"""
    # Go: case value == ".":
    # Go: case value == "..":
    # Go: case strings.HasPrefix(value, ".."):
    return value == "." or value == ".." or value.startswith("..")
