"""Benchmarks, run by `mjtable bench <target>`; each module has `add_arguments` and `run`."""
