"""go.sort: Go 1.16's sort.Sort, step for step."""

from __future__ import annotations

import random

import pytest

from minikubelet.go import sort as go_sort


def sort_list(values, less=lambda a, b: a < b):
    calls = []

    def less_at(i, j):
        calls.append((i, j))
        return less(values[i], values[j])

    def swap(i, j):
        values[i], values[j] = values[j], values[i]

    go_sort.sort(len(values), less_at, swap)
    return calls


@pytest.mark.parametrize("n", [0, 1, 2, 7, 12, 13, 41, 200, 1000])
def test_sorts_any_length_with_duplicates(n):
    # Lengths on each side of Go's thresholds: insertion sort up to 12, Tukey's ninther above 40;
    # few distinct values to reach doPivot's handling of elements equal to the pivot.
    rng = random.Random(n)
    for distinct in (3, n or 1):
        values = [rng.randrange(distinct) for _ in range(n)]
        want = sorted(values)
        sort_list(values)
        assert values == want


def test_all_equal_elements_stay_where_they_are():
    # doPivot with every element equal to the pivot: it gathers them all around the pivot (its
    # "protect" loop) and leaves nothing on either side to sort, so no element moves.
    values = list(range(100))
    sort_list(values, less=lambda a, b: False)
    assert values == list(range(100))


def test_a_short_slice_is_one_gap_6_pass_then_insertion_sort():
    # Go 1.16 sort.go quickSort, b-a <= 12: the first comparison is Less(6, 0), and with no
    # element less than another no swap happens.
    values = list(range(8))
    calls = sort_list(values, less=lambda a, b: False)
    assert calls[:2] == [(6, 0), (7, 1)]
    assert calls[2:] == [(i, i - 1) for i in range(1, 8)]
    assert values == list(range(8))
