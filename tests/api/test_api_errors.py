"""The API errors kubelet asks about, and several errors printed as one, as apimachinery does.

Go: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (ReasonForError, IsNotFound,
IsAlreadyExists, IsConflict) and pkg/util/errors/errors.go (NewAggregate, aggregate.Error).
"""

from __future__ import annotations

from minikubelet.k8s_io.apimachinery.pkg.api.errors.errors import (
    StatusError,
    is_already_exists,
    is_conflict,
    is_not_found,
    reason_for_error,
)
from minikubelet.k8s_io.apimachinery.pkg.util.errors.errors import AggregateError, new_aggregate
from minikubelet.sim.fake_apiserver import FakeAPIServer


def test_the_fake_api_server_answers_with_errors_kubelet_recognises() -> None:
    server = FakeAPIServer()
    try:
        server.get_pod("default", "web")
    except StatusError as err:
        missing = err
    assert is_not_found(missing) and not is_conflict(missing) and not is_already_exists(missing)
    assert str(missing) == 'pods "web" not found'


def test_a_wrapped_api_error_keeps_its_reason() -> None:
    # Go's ReasonForError unwraps with errors.As; a Python wrapper is "raise ... from".
    try:
        try:
            raise StatusError("Conflict", "the object has been modified")
        except StatusError as inner:
            raise RuntimeError("failed to update status") from inner
    except RuntimeError as outer:
        wrapped = outer
    assert is_conflict(wrapped) and reason_for_error(wrapped) == "Conflict"
    assert reason_for_error(RuntimeError("not an API error")) == ""
    assert not is_not_found(None)


def test_an_aggregate_prints_each_distinct_message_once() -> None:
    a, b = RuntimeError("a"), RuntimeError("b")
    assert new_aggregate([]) is None and new_aggregate([None, None]) is None
    assert str(new_aggregate([a])) == "a"
    assert str(new_aggregate([a, None, b])) == "[a, b]"
    # aggregate.Error keeps the first of equal messages, and one message left is not bracketed.
    assert str(new_aggregate([a, RuntimeError("a")])) == "a"
    assert str(new_aggregate([a, b, RuntimeError("a")])) == "[a, b]"


def test_a_nested_aggregate_is_flattened_where_it_stands() -> None:
    inner = new_aggregate([RuntimeError("b"), RuntimeError("c")])
    outer = new_aggregate([RuntimeError("a"), inner, RuntimeError("c")])
    assert isinstance(outer, AggregateError)
    assert str(outer) == "[a, b, c]"
    assert outer.errors()[1] is inner
