"""Node selector terms, read once and matched against nodes.

Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go

A term's ``matchExpressions`` become a label selector and its ``matchFields`` a field selector
(a node has one field, ``metadata.name``). A term that cannot be read (a bad key, ``Gt`` with a
word) matches no node; the "lazy" selector keeps its problems and reports them only when it is
matched. Only what kubelet's admission uses is here: the scheduler's preferred terms and
``RequiredNodeAffinity`` are left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.k8s_io.api.core.v1 import (
    Node,
    NodeSelector,
    NodeSelectorOperator,
    NodeSelectorRequirement,
    NodeSelectorTerm,
)
from minikubelet.k8s_io.apimachinery.pkg.fields import selector as fields_selector
from minikubelet.k8s_io.apimachinery.pkg.labels import selector as labels_selector
from minikubelet.k8s_io.apimachinery.pkg.runtime.serializer.json.json import (
    field_path,
    index_path,
)
from minikubelet.k8s_io.apimachinery.pkg.selection import operator as selection


@dataclass(slots=True)
class ParsedNodeSelectorTerm:
    """One term, read: its selectors, or the problems that stop it from matching.

    Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go type nodeSelectorTerm
    """

    match_labels: labels_selector.Selector | None = None
    match_fields: fields_selector.Selector | None = None
    parse_errs: list[str] = field(default_factory=list)

    def match(
        self, node_labels: dict[str, str], node_fields: dict[str, str]
    ) -> tuple[bool, list[str]]:
        """Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go (*nodeSelectorTerm).match"""
        if self.parse_errs:
            return False, self.parse_errs
        if self.match_labels is not None and not self.match_labels.matches(node_labels):
            return False, []
        if (
            self.match_fields is not None
            and len(node_fields) > 0
            and not self.match_fields.matches(node_fields)
        ):
            return False, []
        return True, []


@dataclass(slots=True)
class LazyErrorNodeSelector:
    """The terms of a node selector, read; matching reports the problems of unreadable ones.

    Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go type LazyErrorNodeSelector
    """

    terms: list[ParsedNodeSelectorTerm]

    def match(self, node: Node | None) -> tuple[bool, list[str]]:
        """Whether a term matches the node; if none does, the problems of the terms that could
        not be read.

        Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go (*LazyErrorNodeSelector).Match
        """
        if node is None:
            return False, []
        node_labels = dict(node.metadata.labels or {})
        node_fields = extract_node_fields(node)
        errs: list[str] = []
        for term in self.terms:
            match, t_errs = term.match(node_labels, node_fields)
            if t_errs:
                errs.extend(t_errs)
                continue
            if match:
                return True, []
        return False, errs


def new_lazy_error_node_selector(ns: NodeSelector, path: str = "") -> LazyErrorNodeSelector:
    """Read each non-empty term (an empty term selects nothing, so it is dropped).

    Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go NewLazyErrorNodeSelector
    """
    terms_path = field_path(path, "nodeSelectorTerms")
    parsed_terms = [
        new_node_selector_term(term, index_path(terms_path, i))
        for i, term in enumerate(ns.node_selector_terms)
        if not is_empty_node_selector_term(term)
    ]
    return LazyErrorNodeSelector(terms=parsed_terms)


def is_empty_node_selector_term(term: NodeSelectorTerm) -> bool:
    """Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go isEmptyNodeSelectorTerm"""
    return len(term.match_expressions) == 0 and len(term.match_fields) == 0


def extract_node_fields(n: Node) -> dict[str, str]:
    """The node's fields a term can select on: its name, if it has one.

    Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go extractNodeFields
    """
    f: dict[str, str] = {}
    if len(n.metadata.name) > 0:
        f["metadata.name"] = n.metadata.name
    return f


def new_node_selector_term(term: NodeSelectorTerm, path: str) -> ParsedNodeSelectorTerm:
    """Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go newNodeSelectorTerm"""
    parsed_term = ParsedNodeSelectorTerm()
    if len(term.match_expressions) != 0:
        parsed_term.match_labels, errs = node_selector_requirements_as_selector(
            term.match_expressions, field_path(path, "matchExpressions")
        )
        parsed_term.parse_errs.extend(errs)
    if len(term.match_fields) != 0:
        parsed_term.match_fields, errs = node_selector_requirements_as_field_selector(
            term.match_fields, field_path(path, "matchFields")
        )
        parsed_term.parse_errs.extend(errs)
    return parsed_term


def node_selector_requirements_as_selector(
    nsm: list[NodeSelectorRequirement], path: str
) -> tuple[labels_selector.Selector | None, list[str]]:
    """A label selector from ``matchExpressions``; ``None`` and the problems if one is bad.

    Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go nodeSelectorRequirementsAsSelector
    """
    if len(nsm) == 0:
        return labels_selector.nothing(), []
    errs: list[str] = []
    selector = labels_selector.new_selector()
    for i, expr in enumerate(nsm):
        p = index_path(path, i)
        op: selection.Operator
        match expr.operator:
            # Go: case v1.NodeSelectorOpIn:
            case NodeSelectorOperator.IN:
                op = selection.In
            # Go: case v1.NodeSelectorOpNotIn:
            case NodeSelectorOperator.NOT_IN:
                op = selection.NotIn
            # Go: case v1.NodeSelectorOpExists:
            case NodeSelectorOperator.EXISTS:
                op = selection.Exists
            # Go: case v1.NodeSelectorOpDoesNotExist:
            case NodeSelectorOperator.DOES_NOT_EXIST:
                op = selection.DoesNotExist
            # Go: case v1.NodeSelectorOpGt:
            case NodeSelectorOperator.GT:
                op = selection.GreaterThan
            # Go: case v1.NodeSelectorOpLt:
            case NodeSelectorOperator.LT:
                op = selection.LessThan
            # Go: default:
            case _:
                errs.append(f"{field_path(p, 'operator')}: unsupported value {expr.operator!r}")
                continue
        r, r_errs = labels_selector.new_requirement(expr.key, op, list(expr.values), p)
        if r_errs:
            errs.extend(r_errs)
        else:
            selector = selector.add(r)
    if errs:
        return None, errs
    return selector, []


def node_selector_requirements_as_field_selector(
    nsr: list[NodeSelectorRequirement], path: str
) -> tuple[fields_selector.Selector | None, list[str]]:
    """A field selector from ``matchFields`` (``In``/``NotIn`` with one value each); ``None`` and
    the problems if one is bad.

    Go: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go nodeSelectorRequirementsAsFieldSelector
    """
    if len(nsr) == 0:
        return fields_selector.nothing(), []
    errs: list[str] = []
    selectors: list[fields_selector.Selector] = []
    for i, expr in enumerate(nsr):
        p = index_path(path, i)
        match expr.operator:
            # Go: case v1.NodeSelectorOpIn:
            case NodeSelectorOperator.IN:
                if len(expr.values) != 1:
                    errs.append(f"{field_path(p, 'values')}: must have one element")
                else:
                    selectors.append(
                        fields_selector.one_term_equal_selector(expr.key, expr.values[0])
                    )
            # Go: case v1.NodeSelectorOpNotIn:
            case NodeSelectorOperator.NOT_IN:
                if len(expr.values) != 1:
                    errs.append(f"{field_path(p, 'values')}: must have one element")
                else:
                    selectors.append(
                        fields_selector.one_term_not_equal_selector(expr.key, expr.values[0])
                    )
            # Go: default:
            case _:
                errs.append(
                    f"{field_path(p, 'operator')}: unsupported value {expr.operator!r}: "
                    'supported values: "In", "NotIn"'
                )
    if errs:
        return None, errs
    return fields_selector.and_selectors(*selectors), []
