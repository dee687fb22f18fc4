"""Paths that come from files: contained, regular, bounded. Every reader and deleter goes through here.

A manifest, a predictions file or a ``metadata.jsonl`` names other files. Such
a name is data, not a licence: a downloaded or tampered directory must not
make svot delete, overwrite or read anything outside the directory it was
given. The rules, one function each:

* :func:`contained`: a name is joined to its root only if it stays under it:
  no absolute path outside the root, no ``..`` component, and no symbolic link
  on the way that leads out. The lexical checks come first and touch no file,
  so the answer for a name outside the root does not depend on what exists
  there.
* :func:`read_regular`: only a regular file is read (a FIFO, device or
  socket is refused without blocking: the file is opened ``O_NONBLOCK`` and
  checked with ``fstat`` before any read), and only up to a size bound;
  :func:`read_text` is the same file as UTF-8 text, every failure one error
  of the caller's class naming the file.
* :func:`open_image`: an image's pixel count is read from its header and
  bounded before it is decoded (a decompression bomb is refused).
* :func:`remove_within`: deletes a file or directory only under the root; a
  symbolic link is removed as a link, never followed.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
import warnings
from pathlib import Path, PurePosixPath, PureWindowsPath

from PIL import Image

from svot.errors import DatasetError, SvotError

#: Largest file read as an image (bytes) and largest image decoded (pixels): 4096 x 4096,
#: the largest ``--image-size`` an export accepts.
MAX_IMAGE_BYTES = 64 * 1024 * 1024
MAX_IMAGE_PIXELS = 4096 * 4096


class OutsideRootError(DatasetError):
    """A path read from a file points outside the directory it must stay in."""


def _parts(name: str) -> tuple[str, ...]:
    # both separators count: a name written on Windows must not slip a '..' past a POSIX check
    return PureWindowsPath(name).parts if "\\" in name else PurePosixPath(name).parts


def contained(root: str | os.PathLike, name: str | os.PathLike, *, what: str = "path") -> Path:
    """``root / name`` when it stays under ``root``; else :class:`OutsideRootError`.

    ``name`` may be absolute only if it lies (lexically) under ``root``.
    Symbolic links inside ``root`` are followed only as far as they stay in it.
    """
    root_path = Path(os.path.abspath(os.fspath(root)))
    text = os.fspath(name)
    if not isinstance(text, str) or not text or "\x00" in text:
        raise OutsideRootError(f"{what} {text!r} is not a usable file name")
    if os.path.isabs(text) or PureWindowsPath(text).drive:
        absolute = Path(os.path.abspath(text))
        try:
            rel_parts = absolute.relative_to(root_path).parts
        except ValueError:
            raise OutsideRootError(f"{what} {text!r} is outside {str(root_path)!r}; only files under it are used") from None
    else:
        rel_parts = tuple(p for p in _parts(text) if p not in ("", "."))
        if ".." in rel_parts:
            raise OutsideRootError(f"{what} {text!r} climbs out with '..'; only files under {str(root_path)!r} are used")
    path = root_path.joinpath(*rel_parts)
    real_root = os.path.realpath(root_path)
    real = os.path.realpath(path)
    if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
        raise OutsideRootError(f"{what} {text!r} leads out of {str(root_path)!r} through a symbolic link")
    return path


def read_regular(path: str | os.PathLike, *, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; never blocks on a FIFO or device.

    Raises :class:`~svot.errors.DatasetError` naming the file (missing, not a
    regular file, too large, unreadable).
    """
    p = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        raise DatasetError(f"{what} {p!r} does not exist") from None
    except OSError as exc:
        raise DatasetError(f"cannot open {what} {p!r}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise DatasetError(f"{what} {p!r} is not a regular file; only regular files are read")
        if st.st_size > max_bytes:
            raise DatasetError(f"{what} {p!r} has {st.st_size} bytes; at most {max_bytes} are read")
        chunks, total = [], 0
        while True:
            block = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not block:
                break
            chunks.append(block)
            total += len(block)
            if total > max_bytes:  # it grew while being read
                raise DatasetError(f"{what} {p!r} has more than {max_bytes} bytes; at most that many are read")
        return b"".join(chunks)
    except OSError as exc:
        raise DatasetError(f"cannot read {what} {p!r}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike, *, max_bytes: int, what: str = "file",
              error: type[SvotError] = DatasetError) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` (:func:`read_regular`; a byte-order mark
    dropped). Every failure (missing, not a regular file, too large, unreadable, not UTF-8) raises ``error``
    as ``<file>: cannot read <what>: <reason>``."""
    name = os.fspath(path)
    try:
        data = read_regular(name, max_bytes=max_bytes, what="file")
    except DatasetError as exc:
        raise error(f"{name}: cannot read {what}: {exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{name}: cannot read {what}: not UTF-8 text (byte {exc.start} is 0x{data[exc.start]:02x})") from None


def open_regular(path: str | os.PathLike, *, what: str = "file"):
    """A binary file object reading ``path``, a regular file (opened ``O_NONBLOCK``, checked with
    ``fstat``: a FIFO or device is refused at once); for files read as a stream, unbounded."""
    p = os.fspath(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise DatasetError(f"{what} {p!r} does not exist") from None
    except OSError as exc:
        raise DatasetError(f"cannot open {what} {p!r}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise DatasetError(f"{what} {p!r} is not a regular file; only regular files are read")
    return os.fdopen(fd, "rb")


def open_image(data: bytes, *, max_pixels: int = MAX_IMAGE_PIXELS, what: str = "image"):
    """A loaded PIL image from encoded bytes, its size checked from the header before decoding."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            im = Image.open(io.BytesIO(data))  # reads the header only
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise DatasetError(f"{what}: refused as a decompression bomb ({exc})") from None
        except Exception as exc:  # noqa: BLE001 - not an image PIL can identify
            raise DatasetError(f"{what}: not a readable image ({type(exc).__name__}: {str(exc)[:80]})") from None
    w, h = im.size
    if w * h > max_pixels:
        im.close()
        raise DatasetError(f"{what}: {w}x{h} pixels is more than the {max_pixels} an image may have")
    try:
        im.load()
    except Exception as exc:  # noqa: BLE001 - truncated or corrupt data
        im.close()
        raise DatasetError(f"{what}: cannot decode it ({type(exc).__name__}: {str(exc)[:80]})") from None
    return im


def read_image_file(path: str | os.PathLike, *, what: str = "image"):
    """:func:`open_image` of a regular file of bounded size."""
    return open_image(read_regular(path, max_bytes=MAX_IMAGE_BYTES, what=what), what=f"{what} {os.fspath(path)!r}")


def remove_within(root: str | os.PathLike, path: str | os.PathLike) -> None:
    """Delete ``path`` (a file, a link, or a directory tree) if it lies under ``root``; else refuse.

    A symbolic link is unlinked, never followed (``shutil.rmtree`` does not
    follow links inside the tree either).
    """
    root_path = Path(os.path.abspath(os.fspath(root)))
    p = Path(os.path.abspath(os.fspath(path)))
    try:
        p.relative_to(root_path)
    except ValueError:
        raise OutsideRootError(f"refusing to delete {str(p)!r}: it is outside {str(root_path)!r}") from None
    if p == root_path:
        raise OutsideRootError(f"refusing to delete the directory {str(root_path)!r} itself")
    parent = os.path.realpath(p.parent)
    real_root = os.path.realpath(root_path)
    if parent != real_root and not parent.startswith(real_root.rstrip(os.sep) + os.sep):
        raise OutsideRootError(f"refusing to delete {str(p)!r}: a symbolic link on the way leads out of {str(root_path)!r}")
    if p.is_symlink() or (p.exists() and not p.is_dir()):
        p.unlink()
    elif p.is_dir():
        shutil.rmtree(p)
