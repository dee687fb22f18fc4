"""Prompt text with ``<image>`` placeholders -> Inspect message content, images in prompt order."""

from __future__ import annotations

import base64
from pathlib import Path

from inspect_ai.model import ChatMessageUser, Content, ContentImage, ContentText

from svot.dataset.prompts import IMAGE
from svot.dataset.records import encode_png
from svot.errors import DatasetError
from svot.safe_paths import MAX_IMAGE_BYTES, read_regular


def png_bytes(value) -> bytes:
    """PNG bytes of an export image value: bytes, ``{"bytes", "path"}``, a path, or an RGB array."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, dict):
        if value.get("bytes") is not None:
            return bytes(value["bytes"])
        value = value.get("path")
    if isinstance(value, (str, Path)):  # a regular file of bounded size only: a FIFO there must not block (rule 1)
        return read_regular(value, max_bytes=MAX_IMAGE_BYTES, what="image")
    if hasattr(value, "shape"):
        return encode_png(value)
    raise DatasetError(f"cannot read an image from a {type(value).__name__}")


def image_content(value) -> ContentImage:
    data = base64.b64encode(png_bytes(value)).decode("ascii")
    return ContentImage(image=f"data:image/png;base64,{data}")


NO_IMAGE = "[image not shown]"


def interleave(text: str, images: list, show: bool = True) -> list[Content]:
    """Split ``text`` at its ``<image>`` placeholders and put the images there, in order.

    ``show=False`` (text-only models, e.g. Inspect's Hugging Face provider) writes
    :data:`NO_IMAGE` in their place; svot's prompts also give every state as text.
    """
    parts = text.split(IMAGE)
    if len(parts) - 1 != len(images):
        raise DatasetError(f"the prompt has {len(parts) - 1} {IMAGE} placeholders for {len(images)} images")
    out: list[Content] = []
    for i, part in enumerate(parts):
        if part:
            out.append(ContentText(text=part))
        if i < len(images):
            out.append(image_content(images[i]) if show else ContentText(text=NO_IMAGE))
    if not show:  # one text part
        return [ContentText(text="".join(c.text for c in out))]
    return out


def user_message(text: str, images: list, show: bool = True) -> ChatMessageUser:
    return ChatMessageUser(content=interleave(text, images, show))
