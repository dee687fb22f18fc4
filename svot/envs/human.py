"""The ``"human"`` render mode: the env's ``rgb_array`` image in a pygame window.

With ``render_mode="human"`` the env draws itself after every ``reset()`` and
``step()`` (Gymnasium's convention; ``render()`` returns ``None``), waiting
``1 / metadata["render_fps"]`` seconds between frames, and ``env.close()`` closes
the window. pygame is imported only here (``pip install pygame`` or
``pip install "svot[rl]"``).

Where no display exists (a headless server: SDL finds no video device) the
window is never opened: a warning says so once and rendering does nothing, so a
script written for a desktop still runs. ``SDL_VIDEODRIVER=dummy`` gives SDL an
off-screen display (what the tests use).
"""

from __future__ import annotations

import os

import gymnasium as gym
import numpy as np

from svot.errors import ConfigError


def require_pygame():
    """Import pygame (without its banner) or raise an ImportError that says how to install it."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame  # optional: the 'rl' extra (render_mode="human" only)
    except ImportError as exc:
        raise ImportError('render_mode="human" needs pygame: pip install pygame (or pip install "svot[rl]")') from exc
    return pygame


class HumanWindow:
    """One pygame window showing ``(H, W, 3)`` uint8 frames at most ``fps`` times a second.

    ``show(frame)`` opens the window on first use (sized to the frame), draws the
    frame, handles window events and waits for the frame rate. Closing the window
    with the mouse stops drawing (no window reopens until ``close()``);
    :meth:`close` shuts pygame's display down and may be called any number of times.
    """

    def __init__(self, title: str = "SVoT", fps: float | None = 4):
        self.pygame = require_pygame()
        self.title = title
        self.fps = fps
        self.screen = None
        self.clock = None
        self.available = True  # False once we know there is no display or the user closed the window
        self.warned = False

    @property
    def is_open(self) -> bool:
        return self.screen is not None

    def _open(self, width: int, height: int) -> bool:
        pg = self.pygame
        try:
            pg.display.init()
            self.screen = pg.display.set_mode((width, height))
        except pg.error as exc:
            self.available = False
            self.screen = None
            if not self.warned:
                gym.logger.warn(
                    f"render_mode='human': no display to open a window on ({exc}); nothing will be drawn. "
                    "Use render_mode='rgb_array' on a headless machine (or SDL_VIDEODRIVER=dummy)."
                )
                self.warned = True
            return False
        pg.display.set_caption(self.title)
        self.clock = pg.time.Clock()
        return True

    def show(self, frame: np.ndarray) -> None:
        frame = np.ascontiguousarray(frame, dtype=np.uint8)
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ConfigError(f"HumanWindow.show takes an (H, W, 3) uint8 image, got {frame.dtype} {frame.shape}")
        if not self.available:
            return
        pg = self.pygame
        h, w = frame.shape[:2]
        if self.screen is None or self.screen.get_size() != (w, h):
            if self.screen is not None:
                self.screen = pg.display.set_mode((w, h))
            elif not self._open(w, h):
                return
        for event in pg.event.get():
            if event.type == pg.QUIT:
                self.close()
                self.available = False
                return
        self.screen.blit(pg.image.frombuffer(frame.tobytes(), (w, h), "RGB"), (0, 0))
        pg.event.pump()
        pg.display.flip()
        if self.fps:
            self.clock.tick(self.fps)

    def close(self) -> None:
        if self.screen is not None:
            self.pygame.display.quit()
            self.screen = None
            self.clock = None
