"""Go's ``sort.Sort`` as Go 1.16 (the release kubelet v1.21 is built with) runs it.

``sort.Sort`` is not stable, and with a ``Less`` that is not a strict order it puts elements in
an order that depends on the algorithm's exact steps. kubelet has such a ``Less``: the eviction
manager's ``byEvictionPriority`` says a memory threshold is less than any other threshold,
another memory threshold included. Python's ``sorted`` takes other steps, so a port that wants
Go's result must take Go's steps: this module does, comparison for comparison and swap for swap
(src/sort/sort.go of Go 1.16: ``quickSort``, ``doPivot``, ``medianOfThree``, ``heapSort``,
``insertionSort``). Go 1.19 replaced them with pattern-defeating quicksort; kubelet v1.21 never
ran that.

The caller passes the length and Go's ``Less(i, j)`` and ``Swap(i, j)`` as functions of indexes,
as ``sort.Interface`` does.
"""

from __future__ import annotations

from collections.abc import Callable

Less = Callable[[int, int], bool]
Swap = Callable[[int, int], None]


def sort(n: int, less: Less, swap: Swap) -> None:
    """``sort.Sort`` of a collection of ``n`` elements."""
    _quick_sort(less, swap, 0, n, _max_depth(n))


def _max_depth(n: int) -> int:
    """How deep quicksort may split before heapsort takes over: twice the bit length of n."""
    return 2 * n.bit_length()


def _insertion_sort(less: Less, swap: Swap, a: int, b: int) -> None:
    for i in range(a + 1, b):
        j = i
        while j > a and less(j, j - 1):
            swap(j, j - 1)
            j -= 1


def _sift_down(less: Less, swap: Swap, lo: int, hi: int, first: int) -> None:
    root = lo
    while True:
        child = 2 * root + 1
        if child >= hi:
            return
        if child + 1 < hi and less(first + child, first + child + 1):
            child += 1
        if not less(first + root, first + child):
            return
        swap(first + root, first + child)
        root = child


def _heap_sort(less: Less, swap: Swap, a: int, b: int) -> None:
    first, lo, hi = a, 0, b - a
    for i in range((hi - 1) // 2, -1, -1):
        _sift_down(less, swap, i, hi, first)
    for i in range(hi - 1, -1, -1):
        swap(first, first + i)
        _sift_down(less, swap, lo, i, first)


def _median_of_three(less: Less, swap: Swap, m1: int, m0: int, m2: int) -> None:
    """Leave the median of the three elements at ``m1`` (Go's argument order: m1, m0, m2)."""
    if less(m1, m0):
        swap(m1, m0)
    if less(m2, m1):
        swap(m2, m1)
        if less(m1, m0):
            swap(m1, m0)


def _do_pivot(less: Less, swap: Swap, lo: int, hi: int) -> tuple[int, int]:
    """Partition ``[lo, hi)`` around a median pivot; return where the pivot's run starts and
    ends."""
    m = (lo + hi) >> 1
    if hi - lo > 40:
        # Median of three medians of three.
        s = (hi - lo) // 8
        _median_of_three(less, swap, lo, lo + s, lo + 2 * s)
        _median_of_three(less, swap, m, m - s, m + s)
        _median_of_three(less, swap, hi - 1, hi - 1 - s, hi - 1 - 2 * s)
    _median_of_three(less, swap, lo, m, hi - 1)

    # The pivot sits at lo; [lo+1, a) is below it, [a, b) at most it, [c, hi-1) above it.
    pivot = lo
    a, c = lo + 1, hi - 1
    while a < c and less(a, pivot):
        a += 1
    b = a
    while True:
        while b < c and not less(pivot, b):
            b += 1
        while b < c and less(pivot, c - 1):
            c -= 1
        if b >= c:
            break
        swap(b, c - 1)
        b += 1
        c -= 1

    # Many elements equal to the pivot: gather them so that neither side recurses on them.
    protect = hi - c < 5
    if not protect and hi - c < (hi - lo) // 4:
        dups = 0
        if not less(pivot, hi - 1):
            swap(c, hi - 1)
            c += 1
            dups += 1
        if not less(b - 1, pivot):
            b -= 1
            dups += 1
        if not less(m, pivot):
            swap(m, b - 1)
            b -= 1
            dups += 1
        protect = dups > 1
    if protect:
        while True:
            while a < b and not less(b - 1, pivot):
                b -= 1
            while a < b and less(a, pivot):
                a += 1
            if a >= b:
                break
            swap(a, b - 1)
            a += 1
            b -= 1
    swap(pivot, b - 1)
    return b - 1, c


def _quick_sort(less: Less, swap: Swap, a: int, b: int, max_depth: int) -> None:
    while b - a > 12:
        if max_depth == 0:
            _heap_sort(less, swap, a, b)
            return
        max_depth -= 1
        mlo, mhi = _do_pivot(less, swap, a, b)
        # Recurse into the smaller part, loop on the larger.
        if mlo - a < b - mhi:
            _quick_sort(less, swap, a, mlo, max_depth)
            a = mhi
        else:
            _quick_sort(less, swap, mhi, b, max_depth)
            b = mlo
    if b - a > 1:
        # Twelve elements or fewer: one pass of gap 6, then insertion sort.
        for i in range(a + 6, b):
            if less(i, i - 6):
                swap(i, i - 6)
        _insertion_sort(less, swap, a, b)
