"""The export's dataset card: ``README.md`` with the YAML ``configs`` the Hugging Face Hub reads.

One config per domain x size (``<domain>-5x5``), its splits kept apart under
the names ``train``, ``validation``, ``test_id`` and ``test_ood`` (the Hub's
default loader would merge ``test_id`` and ``test_ood`` into one ``test``
split, and every domain into one config). Paths are relative to the export
directory, so ``datasets.load_dataset(export_dir, "<domain>-5x5")`` and a Hub
upload of the directory load the same four splits.

``--format jsonl`` lists each split's ``metadata.jsonl`` and its images, which
``datasets`` loads with its ImageFolder builder (every image column decoded);
a view without images (``wo-v``) lists ``metadata.jsonl`` alone, loaded as JSON.
"""

from __future__ import annotations

from pathlib import Path

from svot.dataset.methods import METHODS, TEXT_ONLY
from svot.dataset.writers import atomic_write_bytes

CARD = "README.md"
#: Export split name -> the Hub split name (``val`` is ``validation`` there).
HUB_SPLITS = {"train": "train", "val": "validation", "test_id": "test_id", "test_ood": "test_ood"}

VIEW_NOTES = {
    "instances": "one row per instance (task, every step's state, texts, chains, labels, images, goal, choices)",
    "predictions": "one row per prediction as Table 5 counts them (state, visualization, goal), prompts with "
                   "`<image>` placeholders and an `images` column in placeholder order",
}


def split_files(dataset: str, split: str, fmt: str, view: str) -> list[str]:
    """The card's ``path`` entries of one split (relative, POSIX)."""
    if fmt == "parquet":
        return [f"{dataset}/{split}.parquet"]
    if view in TEXT_ONLY:
        return [f"{dataset}/{split}/metadata.jsonl"]
    return [f"{dataset}/{split}/metadata.jsonl", f"{dataset}/{split}/images/*.png"]


def _yaml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def card_text(datasets: list[str], splits: list[str], fmt: str, view: str, version: str) -> str:
    lines = ["---", "configs:"]
    for k, name in enumerate(datasets):
        lines.append(f"- config_name: {name}")
        if k == 0:
            lines.append("  default: true")
        lines.append("  data_files:")
        for s in splits:
            lines.append(f"  - split: {HUB_SPLITS[s]}")
            paths = split_files(name, s, fmt, view)
            if len(paths) == 1:
                lines.append(f"    path: {_yaml_str(paths[0])}")
            else:
                lines.append("    path:")
                lines += [f"    - {_yaml_str(p)}" for p in paths]
    lines += ["tags:", "- spatial-reasoning", "- svot", "---", ""]
    note = VIEW_NOTES.get(view) or (
        f"the `{view}` method view: TRL conversational prompt-completion records (see svot's docs/training.md)"
        if view in METHODS else view)
    lines += [
        f"# SVoT grid-domain data ({', '.join(datasets)})",
        "",
        f"Written by `svot export` (svot {version}); `manifest.json` holds the command, seeds, generator "
        "parameters, counts and the sha256 of every file.",
        "",
        f"- View: `{view}`: {note}.",
        f"- Format: `{fmt}`.",
        "- Configs: one per domain and grid size; splits "
        + ", ".join(f"`{HUB_SPLITS[s]}`" for s in splits)
        + " (`validation` is svot's `val`; `test_id` / `test_ood` are the in- and out-of-distribution test sets).",
        "",
        "```python",
        "from datasets import load_dataset",
        f'ds = load_dataset("path/to/this/directory", "{datasets[0]}")',
        "```",
        "",
    ]
    return "\n".join(lines)


def write_card(out: Path, datasets: list[str], splits: list[str], fmt: str, view: str, version: str) -> Path:
    path = Path(out) / CARD
    atomic_write_bytes(path, card_text(datasets, splits, fmt, view, version).encode())
    return path
