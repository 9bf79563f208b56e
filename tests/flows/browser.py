"""Debian's chromium, headless, for the tests that read pages as a person does.

Two ways in: :func:`chromium_output` runs one command (``--dump-dom`` of a file, ``--screenshot``) and returns
what it printed; :func:`browser_page` opens a page over Chrome's DevTools protocol (its websocket, through the
``websockets`` library Prefect already depends on), for pages that build themselves in JavaScript, such as the
MLflow UI: wait for a condition on the page, read the DOM, take a screenshot of what is on the screen.
Chromium runs with a fresh profile in its own process group, killed afterwards.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

__all__ = ["CHROMIUM_FLAGS", "Page", "browser_page", "chromium_output"]

#: Headless, offline, quiet: no GPU, no QUIC, no first-run, no background or component-update traffic.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)


def _binary() -> str:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.fail(
            "chromium is not installed: `make test` installs Debian's package (apt-get install -y chromium)"
        )
    return binary


def _stop(process: subprocess.Popen, profile: Path) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    shutil.rmtree(profile, ignore_errors=True)


def chromium_output(tmp_path: Path, *arguments: str) -> str:
    """Run chromium once with ``arguments``; returns its stdout (killed after 120 s)."""
    profile = tmp_path / f"chromium-profile-{uuid.uuid4().hex[:8]}"
    process = subprocess.Popen(
        [_binary(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=120)
    finally:
        _stop(process, profile)
    return output


class Page:
    """One browser tab driven over the DevTools protocol (``send`` a method, ``evaluate`` JavaScript)."""

    def __init__(self, connection):
        self._connection = connection
        self._next_id = 0

    def send(self, method: str, **params) -> dict:
        self._next_id += 1
        message_id = self._next_id
        self._connection.send(json.dumps({"id": message_id, "method": method, "params": params}))
        while True:
            message = json.loads(self._connection.recv(timeout=120))
            if message.get("id") == message_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def open(self, url: str) -> None:
        self.send("Page.enable")
        self.send("Page.navigate", url=url)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout: float = 120) -> bool:
        """Whether ``expression`` became true within ``timeout`` seconds (polled twice a second)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.evaluate(expression):
                return True
            time.sleep(0.5)
        return False

    def text(self) -> str:
        return self.evaluate("document.body.innerText") or ""

    def screenshot(self, path: Path) -> Path:
        """A PNG of the window as it is on the screen."""
        data = self.send("Page.captureScreenshot", format="png")["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path


@contextlib.contextmanager
def browser_page(tmp_path: Path, *, width: int = 1600, height: int = 1000) -> Iterator[Page]:
    """A tab of a fresh headless chromium, its window ``width`` x ``height``."""
    from websockets.sync.client import connect

    profile = tmp_path / f"chromium-profile-{uuid.uuid4().hex[:8]}"
    process = subprocess.Popen(
        [
            _binary(),
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",
            f"--window-size={width},{height}",
            "about:blank",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.is_file() and len(port_file.read_text().split()) >= 2):
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail("chromium did not open its DevTools port")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        targets = httpx.get(f"http://127.0.0.1:{port}/json", timeout=30).json()
        page_url = next(target for target in targets if target["type"] == "page")["webSocketDebuggerUrl"]
        with connect(page_url, max_size=2**28, open_timeout=60) as connection:
            yield Page(connection)
    finally:
        _stop(process, profile)
