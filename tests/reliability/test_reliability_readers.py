"""Issue 13, classes 1, 4 and 6: what ``svot evaluate`` reads, how JSONL lines are split, how the CLI exits.

* Images named in a predictions file are read only as regular files under the
  predictions' folder (or ``--images-root``); a path that leads out gets the
  same issue whether or not the file exists; a FIFO is refused without
  blocking; a decompression bomb is refused from its header.
* Every JSONL reader splits on ``"\\n"`` only (records written with
  ``ensure_ascii=False`` may hold U+2028 and friends raw) and numbers lines the
  way ``wc -l`` does.
* The CLI checks its outputs before working, exits non-zero when nothing was
  scored, and ends quietly (status 141) on a closed pipe.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from svot.dataset import export, make_config
from svot.metrics import evaluate
from svot.rulemaze.evaluate import read_predictions as rulemaze_read_predictions

# every character str.splitlines() breaks on besides "\n"; json.dumps(ensure_ascii=False) writes the
# non-control ones raw, and a control one can come from any tool that writes JSON less strictly
LINE_BREAKS = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.fixture(scope="module")
def jsonl_export(tmp_path_factory):
    out = tmp_path_factory.mktemp("readers") / "data"
    export(make_config(out, domains=["maze"], sizes=[5], splits=["test_id"], maps_per_split=1, format="jsonl",
                       image_size=64), quiet=True)
    meta = out / "maze-5x5" / "test_id" / "metadata.jsonl"
    rows = [json.loads(x) for x in meta.read_text(encoding="utf-8").split("\n") if x]
    return out, rows


def _png(size=(64, 64)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (255, 255, 255)).save(buf, "PNG")
    return buf.getvalue()


def _image_issue(data: Path, rows, folder: Path, path: str, **kw) -> str:
    n = len(rows[0]["steps"])
    pred = folder / "p.jsonl"
    pred.write_text(json.dumps({"id": rows[0]["id"], "images": [path] + [None] * (n - 1)}) + "\n")
    rep = evaluate(data, pred, **kw)
    assert rep.scored == 1
    issues = [i for i in rep.issues if i.kind == "image"]
    assert len(issues) == 1, rep.issues
    return issues[0].message


# --------------------------------------------------------------------------- class 1: what evaluate reads


@pytest.mark.parametrize("form", ["dotdot", "absolute", "symlink"])
def test_image_paths_that_lead_out_are_refused_alike_whether_or_not_the_file_exists(form, jsonl_export, tmp_path):
    data, rows = jsonl_export
    folder = tmp_path / "preds"
    folder.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "real.png").write_bytes(_png())
    messages = []
    for name in ("real.png", "fake.png"):  # same length: the messages may differ only by the name
        if form == "dotdot":
            path = f"../outside/{name}"
        elif form == "absolute":
            path = str(outside / name)
        else:
            link = folder / f"link-{name}"
            link.symlink_to(outside / name)
            path = link.name
        msg = _image_issue(data, rows, folder, path)
        messages.append(msg.replace(name, "NAME").replace(f"link-NAME", "NAME"))
    assert messages[0] == messages[1], messages  # nothing tells whether the outside file exists
    assert "only files under" in messages[0] or "leads out" in messages[0] or "climbs out" in messages[0]


def test_images_root_widens_what_is_read(jsonl_export, tmp_path):
    data, rows = jsonl_export
    folder, images = tmp_path / "preds", tmp_path / "imgs"
    folder.mkdir()
    images.mkdir()
    (images / "a.png").write_bytes(_png())
    n = len(rows[0]["steps"])
    pred = folder / "p.jsonl"
    pred.write_text(json.dumps({"id": rows[0]["id"], "images": ["a.png"] + [None] * (n - 1)}) + "\n")
    assert [i.kind for i in evaluate(data, pred).issues] == ["image"]  # not under the predictions' folder
    rep = evaluate(data, pred, images_root=images)
    assert not rep.issues and sum(g.image_n for g in rep.groups.values()) == 1


@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_only_regular_files_are_read_and_a_fifo_does_not_block(kind, jsonl_export, tmp_path):
    """A FIFO with no writer would block ``open()`` forever; it must be refused at once."""
    data, rows = jsonl_export
    folder = tmp_path / "preds"
    folder.mkdir()
    if kind == "fifo":
        os.mkfifo(folder / "x.png")
        name = "x.png"
    elif kind == "directory":
        (folder / "x.png").mkdir()
        name = "x.png"
    else:  # a character device, read with --images-root=/dev
        msg = _image_issue(data, rows, folder, "zero", images_root="/dev")
        assert "not a regular file" in msg
        return
    msg = _image_issue(data, rows, folder, name)
    assert "not a regular file" in msg


@pytest.mark.parametrize("size", [(5000, 5000), (1, 40_000_000)])
def test_a_decompression_bomb_is_refused_from_its_header(size, jsonl_export, tmp_path):
    """A small PNG that decodes to more than 16.7 M pixels is refused before decoding."""
    data, rows = jsonl_export
    folder = tmp_path / "preds"
    folder.mkdir()
    Image.new("1", size).save(folder / "bomb.png", "PNG", optimize=True)
    assert (folder / "bomb.png").stat().st_size < 5_000_000
    msg = _image_issue(data, rows, folder, "bomb.png")
    assert "pixels" in msg or "decompression bomb" in msg


@pytest.mark.parametrize("damage", ["missing", "outside"])
def test_a_broken_image_in_the_data_is_a_one_line_error_naming_it(damage, jsonl_export, tmp_path, capsys):
    import shutil

    from svot.cli import main

    data = tmp_path / "data"
    shutil.copytree(jsonl_export[0], data)
    meta = data / "maze-5x5" / "test_id" / "metadata.jsonl"
    rows = [json.loads(x) for x in meta.read_text(encoding="utf-8").split("\n") if x]
    name = rows[0]["step_images_file_names"][0]
    if damage == "missing":
        (meta.parent / name).unlink()
    else:
        rows[0]["step_images_file_names"][0] = "../../../x.png"
        name = "../../../x.png"
        meta.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    n = len(rows[0]["steps"])
    pred = tmp_path / "p.jsonl"
    shutil.copy(meta.parent / rows[0]["step_images_file_names"][1], tmp_path / "v1.png")
    pred.write_text(json.dumps({"id": rows[0]["id"], "images": ["v1.png"] * n}) + "\n")
    code = main(["evaluate", "--data", str(data), "--predictions", str(pred)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "internal error" not in err, err
    assert name in err or os.path.basename(name) in err


# --------------------------------------------------------------------------- class 4: lines


@pytest.mark.parametrize("sep", LINE_BREAKS)
def test_rulemaze_evaluate_splits_on_newline_only(sep, tmp_path):
    """A valid JSONL file whose strings hold a raw line separator keeps every record and line number."""
    lines = [json.dumps({"id": f"i{k}", "actions": ["up"], "note": f"a{sep}b"}, ensure_ascii=False) for k in range(3)]
    lines.insert(1, "garbage" + sep + "more")
    path = tmp_path / "p.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    preds = rulemaze_read_predictions(path)
    assert sorted(preds.by_id) == ["i0", "i1", "i2"]
    assert preds.lines == 4 and [n for n, _ in preds.malformed] == [2]


@pytest.mark.parametrize("sep", LINE_BREAKS)
def test_svot_evaluate_splits_on_newline_only(sep, jsonl_export, tmp_path):
    data, rows = jsonl_export
    lines = [json.dumps({"id": r["id"], "choice": r["correct_choice"], "answer": f"x{sep}y"}, ensure_ascii=False)
             for r in rows]
    lines.insert(1, "garbage" + sep + "more")
    path = tmp_path / "p.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    rep = evaluate(data, path)
    assert rep.scored == len(rows) and rep.lines == len(rows) + 1
    assert [(i.line, i.kind) for i in rep.issues] == [(2, "json")]
    assert sum(g.choice_correct for g in rep.groups.values()) == len(rows)


@pytest.mark.parametrize("sep", LINE_BREAKS)
def test_data_and_pool_readers_split_on_newline_only(sep, jsonl_export, tmp_path):
    """The truth reader (metadata.jsonl) and the maze-pool reader keep records holding a raw separator."""
    import shutil

    from svot.metrics import load_truth
    from svot.rulemaze.pool import generate_pool, read_pool, write_pool

    data = tmp_path / "data"
    shutil.copytree(jsonl_export[0], data)
    meta = data / "maze-5x5" / "test_id" / "metadata.jsonl"
    rows = [json.loads(x) for x in meta.read_text(encoding="utf-8").split("\n") if x]
    for r in rows:
        r["distribution"] = f"id{sep}x"
    meta.write_bytes("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8"))
    assert len(load_truth(data)) == len(rows)
    pool = tmp_path / "pool.jsonl"
    write_pool(pool, generate_pool("QuestMaze", 3, 3, seed=0))
    text = pool.read_text(encoding="utf-8").replace('"scenario"', f'"x{sep}":1,"scenario"')
    pool.write_bytes(text.encode("utf-8"))
    try:
        mazes = read_pool(pool)
    except Exception as exc:  # noqa: BLE001 - an unknown key may be refused, but on its own line number
        assert ":1:" in str(exc), exc
    else:
        assert len(mazes) == 3


def test_deeply_nested_json_lines_are_counted_not_fatal(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "actions": ["up"]}\n' + "[" * 200_000 + "\n" + '{"id": "b", "actions": "up"}\n')
    preds = rulemaze_read_predictions(path)
    assert sorted(preds.by_id) == ["a", "b"] and [n for n, _ in preds.malformed] == [2]
    assert "nested too deeply" in preds.malformed[0][1]


# --------------------------------------------------------------------------- class 6: CLI exits


def test_json_output_is_checked_before_scoring(jsonl_export, tmp_path, capsys, monkeypatch):
    from svot import cli
    import svot.metrics

    data, rows = jsonl_export
    pred = tmp_path / "p.jsonl"
    pred.write_text(json.dumps({"id": rows[0]["id"], "choice": "A"}) + "\n")
    called = []
    monkeypatch.setattr(svot.metrics, "evaluate", lambda *a, **k: called.append(1))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for target in (blocker / "out.json", tmp_path):  # under a file; a directory
        code = cli.main(["evaluate", "--data", str(data), "--predictions", str(pred), "--json", str(target)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and "cannot write" in err, err
    assert not called  # refused before any scoring


def test_rulemaze_evaluate_json_output_checked_and_nothing_scored_is_an_error(tmp_path, capsys):
    from svot.cli import EXIT_NOTHING_SCORED, main

    out = tmp_path / "rm"
    from svot.rulemaze import dataset as RD

    RD.export(RD.make_config(out, scenarios=["QuestMaze"], seed=3, train=2, test_per_group=1, pool_size=300,
                             formats="parquet"), quiet=True)
    pred = tmp_path / "p.jsonl"
    pred.write_text('{"id": "nope", "actions": ["up"]}\n')
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code = main(["rulemaze", "evaluate", "--data", str(out), "--predictions", str(pred), "--json", str(blocker / "x")])
    assert code == 2 and "cannot write" in capsys.readouterr().err
    assert main(["rulemaze", "evaluate", "--data", str(out), "--predictions", str(pred)]) == EXIT_NOTHING_SCORED
    assert "nothing was scored" in capsys.readouterr().err


def _pipe_to_head(argv: list[str]) -> tuple[int, str]:
    """``svot <argv> | head -n 1``: svot's exit status and its stderr."""
    proc = subprocess.Popen([sys.executable, "-m", "svot.cli", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # what head does after its line
    err = proc.stderr.read().decode()
    return proc.wait(timeout=300), err


def test_a_closed_pipe_ends_quietly(jsonl_export, tmp_path):
    """``svot evaluate ... | head``: no traceback, no "internal error", status 141 as coreutils give."""
    from svot.cli import EXIT_BROKEN_PIPE

    data, rows = jsonl_export
    pred = tmp_path / "p.jsonl"
    # many issues make a long report: more than a pipe buffer, so the write meets the closed pipe
    lines = [json.dumps({"id": rows[0]["id"], "choice": "A"})] + [json.dumps({"id": f"no-{k}"}) for k in range(4000)]
    pred.write_text("\n".join(lines) + "\n")
    code, err = _pipe_to_head(["evaluate", "--data", str(data), "--predictions", str(pred), "--max-issues", "4000"])
    assert code == EXIT_BROKEN_PIPE and err == "", err
