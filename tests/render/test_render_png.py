"""svot.render.png: the export's PNG encoder (filter None, zlib) writes standard PNGs of the exact pixels."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from svot.domains import DOMAINS, generate, get_spec
from svot.render.image import render_state
from svot.render.png import encode_png


def decode(png: bytes) -> np.ndarray:
    Image.open(io.BytesIO(png)).verify()  # signature, chunk order and every chunk's CRC
    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im)


def chunk_types(png: bytes) -> list[bytes]:
    out, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        out.append(png[at + 4 : at + 8])
        at += 12 + length
    return out


@pytest.mark.parametrize("shape", [(1, 1), (5, 7), (5, 7, 3), (3, 9, 4), (64, 64, 3)])
def test_decodes_to_the_same_pixels(shape):
    pixels = np.random.default_rng(0).integers(0, 256, size=shape, dtype=np.uint8)
    assert np.array_equal(decode(encode_png(pixels)), pixels)


def test_rendered_frames_round_trip_and_are_no_larger_than_pils():
    """Every domain's frames, as the exports write them: exact pixels back, and files no larger
    than PIL's level-6 encoder writes (flat tiles: raw rows deflate well, see the module docstring)."""
    rng = np.random.default_rng(1)
    ours = theirs = 0
    for domain in DOMAINS:
        spec = get_spec(domain)
        for size in spec.sizes:
            state = generate(domain, size, "id", rng, plan=False).state
            frame = render_state(spec, state, 256)
            png = encode_png(frame)
            assert np.array_equal(decode(png), frame), (domain, size)
            buf = io.BytesIO()
            Image.fromarray(frame).save(buf, format="PNG", compress_level=6)
            ours, theirs = ours + len(png), theirs + len(buf.getvalue())
    assert ours <= theirs * 1.05, (ours, theirs)


def test_standard_chunks_only_and_same_bytes_each_time():
    frame = np.zeros((8, 8, 3), np.uint8)
    frame[2:5, 3:6] = (200, 30, 30)
    png = encode_png(frame)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert chunk_types(png) == [b"IHDR", b"IDAT", b"IEND"]  # no tIME / tEXt: nothing varies by run
    assert encode_png(frame.copy()) == png
    width, height, depth, colour = struct.unpack(">IIBB", png[16:26])
    assert (width, height, depth, colour) == (8, 8, 8, 2)
    # every row starts with filter byte 0 (None), then the row's raw pixels
    rows = np.frombuffer(zlib.decompress(png[41:-12]), np.uint8).reshape(8, 1 + 8 * 3)
    assert not rows[:, 0].any() and np.array_equal(rows[:, 1:].reshape(8, 8, 3), frame)


def test_non_contiguous_input():
    frame = np.random.default_rng(2).integers(0, 256, size=(6, 10, 3), dtype=np.uint8)
    view = frame[:, ::2]
    assert np.array_equal(decode(encode_png(view)), view)


@pytest.mark.parametrize(
    "bad, message",
    [
        (np.zeros((4, 4, 3), np.float32), "uint8"),
        (np.zeros((4, 4, 2), np.uint8), r"\(H, W, 3\)"),
        (np.zeros((4,), np.uint8), r"\(H, W\)"),
        (np.zeros((0, 4, 3), np.uint8), "H, W > 0"),
    ],
)
def test_bad_images_are_named(bad, message):
    with pytest.raises(ValueError, match=message):
        encode_png(bad)
