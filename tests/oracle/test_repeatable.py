"""What changes from one run of the Go oracle to the next is made canonical, so that ``make
oracle`` on another machine writes the goldens that are committed (tools.oracle.norm,
tools.oracle.compare.normalise)."""

from __future__ import annotations

from tools.oracle import compare
from tools.oracle.norm import norm


def _removal(cid: str) -> list[str]:
    return [
        f"call: ContainerStatus {cid}",
        f"call: ContainerStatus {cid}",
        f"call: RemoveContainer {cid}",
    ]


def _gc_trace(order: list[str]) -> list[str]:
    created = [
        f"call: CreateContainer sb1 {name} attempt={n} -> {cid}"
        for n, (name, cid) in enumerate([("a", "c1"), ("b", "c2"), ("a", "c3"), ("b", "c4")])
    ]
    return [
        "# step 1 run at +0s",
        *created,
        "# step 2 gc at +1m0s: deleted=false terminated=false",
        'call: ListContainers id="" state=nil sandbox="" labels= -> 4',
        *(line for cid in order for line in _removal(cid)),
        'call: ListContainers id="" state=nil sandbox="" labels= -> 0',
        "# step 3 run at +1m1s",
    ]


def test_the_gcs_evict_units_come_in_name_order_whatever_the_map_order() -> None:
    # Go walks the evict units (a's containers, b's) from a map: either unit may come first.
    a_first = norm(_gc_trace(["c1", "c3", "c2", "c4"]))
    assert norm(_gc_trace(["c2", "c4", "c1", "c3"])) == a_first
    assert a_first == _gc_trace(["c1", "c3", "c2", "c4"])


def test_the_order_within_an_evict_unit_still_counts() -> None:
    # removeOldestN's order inside one unit is Go's, not the map's: a change there still shows.
    assert norm(_gc_trace(["c3", "c1", "c2", "c4"])) != norm(_gc_trace(["c1", "c3", "c2", "c4"]))


def test_outside_a_gc_step_removals_are_not_moved() -> None:
    trace = [
        "# step 2 run at +1m0s" if line.startswith("# step 2 gc") else line
        for line in _gc_trace(["c2", "c4", "c1", "c3"])
    ]
    assert norm(trace) == trace


def test_the_volume_goldens_leave_out_the_reflectors_and_the_machines_disk() -> None:
    go = [
        "# step 1 pass",
        'klog: I Starting reflector *v1.ConfigMap (0s) from object-"default"/"settings"',
        'klog: I Listing and watching *v1.ConfigMap from object-"default"/"settings"',
        "klog: I Statfs_t of /var/lib/kubelet/pods/u/volumes/x: {Type:61267 Bsize:4096 Bfree:1}",
        'klog: I Stopping reflector *v1.ConfigMap (0s) from object-"default"/"settings"',
        "mounted: [x]",
    ]
    assert compare.normalise("volumes", go) == [
        "# step 1 pass",
        "klog: I Statfs_t of /var/lib/kubelet/pods/u/volumes/x: <statfs>",
        "mounted: [x]",
    ]
    # The committed goldens are as a run writes them: nothing left to take out.
    for name in compare.scenario_names("volumes"):
        lines = compare.golden(name, "volumes")
        assert compare.normalise("volumes", lines) == lines, name
    for name in compare.scenario_names("runtime"):
        lines = compare.golden(name, "runtime")
        assert compare.normalise("runtime", lines) == lines, name
