"""``$(VAR)`` references in a container's command, args and probe commands.

Go: third_party/forked/golang/expansion/expand.go

The syntax, as kubelet reads it:

* ``$(NAME)`` is replaced by what the mapping gives for ``NAME``; [`mapping_func_for`][] gives
  the reference back unchanged (``$(NAME)``) when no map defines the name;
* ``$$`` is an escaped ``$``: one ``$`` is written and the rest is not read as a reference;
* a ``$`` before anything else, a ``$(`` with no closing ``)`` and a ``$`` at the very end are
  copied as they are.

Go walks the string's **bytes**, not its characters, so the port does too: the text is encoded to
UTF-8 (with ``surrogateescape``, so that any Go string round-trips) and decoded back at the end.
One consequence is kept on purpose: after a lone ``$``, Go converts the next *byte* to a rune
(``string(input[0])``), so ``$`` followed by a multi-byte character writes that byte as a
Latin-1 character and then the character's remaining bytes. A reader meets it only with
``$é``-like text; the tests pin it.
"""

from __future__ import annotations

from collections.abc import Callable

operator = ord("$")
referenceOpener = ord("(")
referenceCloser = ord(")")


def syntax_wrap(input: str) -> str:
    """``NAME`` → ``$(NAME)``.

    Go: third_party/forked/golang/expansion/expand.go syntaxWrap
    """
    return "$(" + input + ")"


def mapping_func_for(*context: dict[str, str]) -> Callable[[str], str]:
    """A mapping for [`expand`][]: the first map that has the name gives its value; a name no
    map has is given back as written (``$(NAME)``).

    Go: third_party/forked/golang/expansion/expand.go MappingFuncFor
    """

    def mapping(input: str) -> str:
        for vars in context:
            if input in vars:
                return vars[input]
        return syntax_wrap(input)

    return mapping


def _b(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def expand(input: str, mapping: Callable[[str], str]) -> str:
    """``input`` with every ``$(NAME)`` replaced by ``mapping(NAME)`` (see the module's rules).

    Go: third_party/forked/golang/expansion/expand.go Expand
    """
    data = _b(input)
    buf = bytearray()
    checkpoint = 0
    cursor = 0
    # Go: for cursor := 0; cursor < len(input); cursor++ {
    while cursor < len(data):
        if data[cursor] == operator and cursor + 1 < len(data):
            buf += data[checkpoint:cursor]
            read, is_var, advance = try_read_variable_name(data[cursor + 1 :])
            if is_var:
                buf += _b(mapping(read.decode("utf-8", "surrogateescape")))
            else:
                buf += read
            cursor += advance
            checkpoint = cursor + 1
        cursor += 1
    return (bytes(buf) + data[checkpoint:]).decode("utf-8", "surrogateescape")


def try_read_variable_name(input: bytes) -> tuple[bytes, bool, int]:
    """What follows a ``$``: (the bytes read, whether they name a variable, bytes consumed).

    ``input`` starts just after the ``$`` and is not empty.

    Go: third_party/forked/golang/expansion/expand.go tryReadVariableName
    """
    match input[0]:
        # Go: case operator:
        case c if c == operator:
            return input[0:1], False, 1
        # Go: case referenceOpener:
        case c if c == referenceOpener:
            for i in range(1, len(input)):
                if input[i] == referenceCloser:
                    return input[1:i], True, i + 1
            return b"$(", False, 1
        # Go: default:
        case c:
            # Go: string(input[0]) makes a rune of the byte, so a byte above 0x7f becomes the
            # two-byte UTF-8 form of that Latin-1 character.
            return b"$" + chr(c).encode("utf-8"), False, 1
