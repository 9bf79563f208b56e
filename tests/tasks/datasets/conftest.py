"""Fixtures of the data-layer tests: a temporary ``CSLEARN_CACHE`` and a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import argparse
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "datasets"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    """An empty cache directory, also exported as ``CSLEARN_CACHE``."""
    directory = tmp_path / "cache"
    monkeypatch.setenv("CSLEARN_CACHE", str(directory))
    return directory


def cached_dataset_files(cache_dir: Path) -> list[Path]:
    """Every file under ``datasets/`` of the cache (ingested entries and leftovers)."""
    root = cache_dir / "datasets"
    return sorted(path for path in root.rglob("*") if path.is_file()) if root.exists() else []


def run_cli(argv: list[str]) -> int:
    """Run ``cslearn datasets ...`` in-process through the real argument parser; returns the exit code."""
    from flows.cli.datasets import register

    parser = argparse.ArgumentParser(prog="cslearn")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


@dataclass
class Route:
    """What the server answers on one path: ``failures`` HTTP-500 answers first, optionally after a stall."""

    body: bytes
    failures: int = 0
    stall_seconds: float = 0.0
    content_type: str = "application/octet-stream"


@dataclass
class LocalServer:
    base_url: str
    routes: dict[str, Route]
    hits: Counter = field(default_factory=Counter)

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}"


@pytest.fixture
def http_server():
    """A ``ThreadingHTTPServer`` on 127.0.0.1 (ephemeral port) serving what a test puts in ``routes``."""
    routes: dict[str, Route] = {}
    hits: Counter = Counter()
    release = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server API
            route = routes.get(self.path)
            hits[self.path] += 1
            if route is None:
                self.send_error(404)
                return
            if route.stall_seconds:
                release.wait(route.stall_seconds)  # a stalled server: no byte until the client gave up
            if hits[self.path] <= route.failures:
                self.send_error(500, "injected failure")
                return
            self.send_response(200)
            self.send_header("Content-Type", route.content_type)
            self.send_header("Content-Length", str(len(route.body)))
            self.end_headers()
            self.wfile.write(route.body)

        def log_message(self, *args):  # keep test output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield LocalServer(f"http://127.0.0.1:{server.server_address[1]}", routes, hits)
    finally:
        release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
        time.sleep(0)  # let handler threads finish writing
