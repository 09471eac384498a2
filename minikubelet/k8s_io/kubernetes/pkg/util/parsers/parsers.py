"""Parsing a container image's name: its repository, tag and digest.

Go: pkg/util/parsers/parsers.go
"""

from __future__ import annotations

import re

# Image references, after the grammar of container image names ("registry/path:tag@digest").
_IMAGE_PATH_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_IMAGE_DOMAIN = (
    r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
    r"(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?"
)
_IMAGE_REFERENCE = re.compile(
    rf"^(?:(?P<domain>{_IMAGE_DOMAIN})/)?"
    rf"(?P<path>{_IMAGE_PATH_COMPONENT}(?:/{_IMAGE_PATH_COMPONENT})*)"
    r"(?::(?P<tag>[\w][\w.-]{0,127}))?"
    r"(?:@(?P<digest>[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$"
)


def parse_image_name(image: str) -> tuple[str, str, str]:
    """The repository to pull, the tag and the digest of an image reference.

    Go: pkg/util/parsers/parsers.go ParseImageName

    A reference with neither tag nor digest has the tag ``"latest"``. Raises ``ValueError`` when
    ``image`` is not a valid reference (Go returns an error).
    """
    # The first component is a registry when it looks like one (has '.' or ':', is
    # "localhost", or has capitals); otherwise the name is on the default registry.
    first, slash, _ = image.partition("/")
    looks_like_domain = bool(slash) and (
        any(c in first for c in ".:") or first == "localhost" or first.lower() != first
    )
    match = _IMAGE_REFERENCE.match(image if looks_like_domain else f"docker.io/{image}")
    if match is None or len(match.group("domain") or "") + len(match.group("path")) + 1 > 255:
        raise ValueError(f"couldn't parse image name: invalid reference format: {image!r}")
    if re.fullmatch(r"[a-f0-9]{64}", match.group("path")):
        raise ValueError(f"couldn't parse image name: a bare identifier is not a name: {image!r}")
    domain, path = match.group("domain"), match.group("path")
    if domain == "docker.io" and "/" not in path:
        path = f"library/{path}"  # the default registry's official images
    tag, digest = match.group("tag") or "", match.group("digest") or ""
    if not tag and not digest:
        tag = "latest"
    return f"{domain}/{path}", tag, digest
