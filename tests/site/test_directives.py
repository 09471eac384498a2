"""The directive lines of the pages: found outside code, parsed as literals, expanded in place."""

import pytest

from tools.site.directives import DirectiveError, expand, find, parse


def test_parse_positional_and_keyword_literals():
    d = parse('{{ sidebyside("pkg/kubelet/kubelet.go", "(*Kubelet).syncLoop", doc=True) }}', 7)
    assert (d.name, d.args, d.kwargs, d.line) == (
        "sidebyside",
        ["pkg/kubelet/kubelet.go", "(*Kubelet).syncLoop"],
        {"doc": True},
        7,
    )


@pytest.mark.parametrize(
    "text",
    [
        "{{ run(open('/etc/passwd')) }}",  # not a literal
        "{{ run(**opts) }}",
        "{{ a.b() }}",
        "{{ run('x' }}",
    ],
)
def test_parse_refuses_anything_but_literal_calls(text):
    with pytest.raises(DirectiveError):
        parse(text, 3)


def test_directives_in_fenced_code_are_left_alone():
    md = "\n".join(
        [
            "# Page",
            '{{ run("minikubelet run --until 1s") }}',
            "```markdown",
            '{{ run("shown, not run") }}',
            "```",
            "    ~~~~",
            '    {{ run("still code") }}',
            "    ~~~~",
            '  {{ pdb("x.py", "a.b") }}',
        ]
    )
    found = list(find(md))
    assert [(d.name, d.line, d.indent) for d in found] == [("run", 2, ""), ("pdb", 9, "  ")]


def test_expand_replaces_each_line_keeping_its_indentation():
    md = 'text\n\n    {{ run("a") }}\n\nmore\n'
    out = expand(md, {"run": lambda d: f"```text\n{d.args[0]}\n```"})
    assert out == "text\n\n    ```text\n    a\n    ```\n\nmore\n"


def test_unknown_directives_are_errors():
    with pytest.raises(DirectiveError, match="unknown directive 'sidebside'"):
        expand('{{ sidebside("a", "b") }}\n', {"sidebyside": lambda d: ""})


def test_double_braces_inside_a_sentence_are_not_directives():
    assert not list(find("Write {{ run() }} on a line of its own.\n"))


def test_handler_errors_name_the_line():
    def fail(d):
        raise DirectiveError("no such symbol")

    with pytest.raises(DirectiveError, match="line 3: sidebyside: no such symbol"):
        expand('a\n\n{{ sidebyside("x.go", "Y") }}\n', {"sidebyside": fail})
