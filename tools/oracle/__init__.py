"""The oracle: real kubelet v1.21.4 code run on our scenarios, its traces kept as goldens.

tools/oracle/build.sh lays out and builds the Go side (go/: our driver and hook files, copied into
the vendored kubelet at build time); ``python -m tools.oracle`` writes the goldens and diffs the
port (compare.py, port_trace.py). See docs/oracle.md.
"""
