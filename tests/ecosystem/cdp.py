"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (stdlib only).

Chromium reads commands from fd 3 and writes replies and events to fd 4,
each a JSON message ended by a NUL byte. This drives a real page: navigate,
evaluate script, click at an element's position with real mouse events
(``Input.dispatchMouseEvent``), take a screenshot.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path


class Browser:
    def __init__(self, chromium: Path, width: int = 1280, height: int = 1600):
        self._profile = tempfile.TemporaryDirectory(prefix="svot-cdp-")
        to_child_r, self._w = os.pipe()
        self._r, from_child_w = os.pipe()

        def fds():  # the child's fd 3 reads our commands, fd 4 writes its replies
            a, b = os.dup(to_child_r), os.dup(from_child_w)  # out of the way of 3 and 4 first
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            [str(chromium), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", f"--window-size={width},{height}", f"--user-data-dir={self._profile.name}",
             "--remote-debugging-pipe", "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        targets = self.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.send("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.send("Page.enable", session=True)
        self.send("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    def _read_message(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buf:
            if time.monotonic() > deadline:
                raise TimeoutError("no reply from chromium")
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method: str, session: bool = False, timeout: float = 60, **params) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read_message(timeout)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def eval(self, expression: str):
        r = self.send("Runtime.evaluate", session=True, expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.eval(expression)
            except RuntimeError:
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise TimeoutError(f"waited {timeout}s for {expression}")

    def open(self, url: str) -> None:
        """Navigate and wait until the gallery script has checked the images (``data-ready``)."""
        self.send("Page.navigate", session=True, url=url)
        self.wait_for(f"location.href === {json.dumps(url)} && document.readyState === 'complete' && "
                      "document.getElementById('svot-status').getAttribute('data-ready') === '1'")

    def click(self, selector: str) -> None:
        """A real left click (mouse pressed and released) at the centre of the first element matching ``selector``."""
        box = self.eval(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2]; }})()""")
        if box is None:
            raise LookupError(f"no element matches {selector!r}")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", session=True, type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def type_text(self, selector: str, text: str, enter: bool = False) -> None:
        self.click(selector)
        self.send("Input.insertText", session=True, text=text)
        if enter:
            for kind in ("keyDown", "keyUp"):
                self.send("Input.dispatchKeyEvent", session=True, type=kind, key="Enter", code="Enter",
                          windowsVirtualKeyCode=13, text="\r" if kind == "keyDown" else "")

    def screenshot(self, path: Path) -> Path:
        data = self.send("Page.captureScreenshot", session=True, format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except Exception:  # noqa: BLE001 - already gone
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._w)
        os.close(self._r)
        self._profile.cleanup()
