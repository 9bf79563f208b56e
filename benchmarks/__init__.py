"""Benchmarks: each ``bench_*.py`` module times cslearn against a reference side by side in one run."""
