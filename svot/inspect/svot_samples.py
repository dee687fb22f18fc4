"""SVoT instances -> Inspect samples: goal prediction (Table 1) and single-step state prediction (Table 2).

Instances come from an export (``svot export --view instances``, Parquet or
ImageFolder; read by :mod:`svot.metrics.evaluation`'s reader) or are built on
the fly from a seed (:func:`svot.dataset.iter_split`, then
:func:`svot.dataset.instance_record`, the exporter's own row). Either way one
row layout feeds the samples, and the prompts are the export's:

* goal, form F: the row's ``prompt`` (task X + free-response question), image v0;
* goal, form C: ``prompt_classification`` (task X + the four choices), image v0;
* state, step i: :func:`svot.dataset.prompts.state_prompt` (Eq. 3: X, the
  ground-truth prefix z_<i with images v_<i, the step's request), the same
  prompt and images as the predictions view's ``state`` record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from inspect_ai.dataset import MemoryDataset, Sample

from svot.dataset import instance_record, iter_split
from svot.dataset.prompts import state_prompt
from svot.dataset.records import PngCache
from svot.errors import DatasetError
from svot.inspect._content import user_message
from svot.dataset.reader import data_files, image_ref, json_value, read_rows
from svot.metrics.state import state_fields

FORMS = ("C", "F")


def _rows_from_export(data, domain: str, size: int, split: str) -> list[dict]:
    rows: list[dict] = []
    for path in data_files(data):
        got, pred_view = read_rows(Path(path), None)
        if pred_view:
            raise DatasetError(f"{path}: the predictions view; export with --view instances for Inspect tasks")
        base = Path(path).parent
        for r in got:
            if r.get("domain") == domain and int(r.get("size", -1)) == size and r.get("split") == split:
                rows.append(_with_images(r, base))
    if not rows:
        raise DatasetError(f"no {domain} {size}x{size} {split} instances under {str(data)!r}")
    return rows


def _with_images(row: dict, base: Path) -> dict:
    """An instance row with ``image`` and per-step ``image``.

    Parquet rows hold the step images in the top-level ``step_images`` column (one per step, in order);
    ImageFolder rows name files instead (``file_name``, ``step_images_file_names``).
    """
    row = dict(row)
    row.setdefault("_base", str(base))
    if "image" not in row:
        row["image"] = row.get("file_name")
    names = row.get("step_images") or row.get("step_images_file_names") or []
    row["steps"] = [{**s, "image": s.get("image", names[i] if i < len(names) else None)}
                    for i, s in enumerate(row["steps"])]
    return row


def _rows_generated(domain: str, size: int, split: str, seed: int, maps: int | None) -> Iterator[dict]:
    pngs = PngCache()
    for inst in iter_split(domain, size, split, seed, None if maps is None else {split: maps}):
        yield _with_images(instance_record(inst, pngs), Path("."))


def instance_rows(domain: str, size: int, split: str, *, data=None, seed: int = 0, maps: int | None = None,
                  limit: int | None = None) -> list[dict]:
    """Instance rows of one domain x size x split, from ``data`` or generated from ``seed``."""
    rows = _rows_from_export(data, domain, size, split) if data is not None else _rows_generated(domain, size, split, seed, maps)
    out = []
    for r in rows:
        if limit is not None and len(out) >= limit:
            break
        out.append(r)
    return out


def _image(value, row: dict):
    base = row.get("_base")
    return image_ref(value, Path(base) if base else None)



def goal_sample(row: dict, form: str, images: bool = True) -> Sample:
    """One goal-prediction sample (Table 1): the direct prompt with image v0."""
    if form not in FORMS:
        raise DatasetError(f"unknown goal form {form!r}; choose C (four-choice) or F (free response)")
    text = row["prompt_classification"] if form == "C" else row["prompt"]
    choices = list(row["choices"])
    target = row["correct_choice"] if form == "C" else row["answer"]
    meta = {
        "task": "goal", "form": form, "instance_id": row["id"], "domain": row["domain"], "size": int(row["size"]),
        "split": row["split"], "choices": choices, "correct": row["correct_choice"], "goal": json_value(row["goal"]),
        # reference models only (svot.inspect._truth): the answer, and the answer space of a random guess
        "truth": {"answer": target, "random": list("ABCD") if form == "C" else choices},
    }
    return Sample(id=f"{row['id']}/{form}", input=[user_message(text, [_image(row["image"], row)], images)], target=target,
                  metadata=meta)


def state_samples(row: dict, show_images: bool = True) -> list[Sample]:
    """One sample per step (Table 2): Eq. 3's prompt; target c_i^z then z_i."""
    domain = row["domain"]
    steps = list(row["steps"])
    images = [_image(row["image"], row)]
    zs: list[str] = []
    texts = [row["initial_state_text"]] + [s["state_text"] for s in steps]
    out = []
    for s in steps:
        i = int(s["step"])
        prompt = state_prompt(row["task"], zs, i, s["action_text"])
        target = f"{s['reasoning']}\n{s['z_text']}"
        fields = state_fields(domain)
        meta = {
            "task": "state", "instance_id": row["id"], "step": i, "domain": domain, "size": int(row["size"]),
            "split": row["split"], "state": json_value(s["state"]), "action_text": s["action_text"],
            "keywords": list(s.get("keywords") or []), "fields": list(fields),
            # reference models only: the target, and a random guess = one of the instance's state texts
            "truth": {"answer": target, "random": [f"Action {i}: {s['action_text']}\n{t}" for t in texts]},
        }
        out.append(Sample(id=f"{row['id']}/state/{i}", input=[user_message(prompt, list(images), show_images)], target=target,
                          metadata=meta))
        zs.append(s["z_text"])
        images.append(_image(s["image"], row))
    return out


def goal_dataset(domain: str, size: int, split: str, form: str, *, images: bool = True, **kw) -> MemoryDataset:
    rows = instance_rows(domain, size, split, **kw)
    return MemoryDataset([goal_sample(r, form, images) for r in rows], name=f"svot-{domain}-{size}x{size}-{split}-goal-{form}")


def state_dataset(domain: str, size: int, split: str, *, steps_limit: int | None = None, images: bool = True,
                  **kw) -> MemoryDataset:
    rows = instance_rows(domain, size, split, **kw)
    samples = [s for r in rows for s in state_samples(r, images)]
    if steps_limit is not None:
        samples = samples[:steps_limit]
    return MemoryDataset(samples, name=f"svot-{domain}-{size}x{size}-{split}-state")
