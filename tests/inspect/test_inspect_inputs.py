"""What reaches the model: images in prompt order, the export's prompts, and the export path."""

from __future__ import annotations

import base64

import pytest

pytest.importorskip("inspect_ai", reason="the eval extra (inspect-ai) is not installed")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage  # noqa: E402

from svot.dataset import export, instance_record, iter_split, make_config, prediction_records  # noqa: E402
from svot.dataset.prompts import IMAGE  # noqa: E402
from svot.dataset.records import PngCache  # noqa: E402
from svot.errors import SvotError  # noqa: E402
from svot.inspect._content import NO_IMAGE  # noqa: E402
from svot.inspect.tasks import goal, play, rulemaze_dmp, state  # noqa: E402
from svot.rulemaze.dataset import export as rm_export  # noqa: E402
from svot.rulemaze.dataset import make_config as rm_config  # noqa: E402


def recording_mock(seen: list):
    def outputs(inp, tools, tool_choice, config):
        seen.append(inp)
        out = ModelOutput.from_content("mockllm", "no answer")
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tiktoken download
        return out

    return {"custom_outputs": outputs}


def test_images_reach_the_model_in_prompt_order(tmp_path):
    """The state prompt of step 3 (Eq. 3) carries v0, v1, v2 at its <image> placeholders; the model must
    get text and images interleaved exactly so, with the predictions view's images in its order."""
    inst = next(i for i in iter_split("sokoban", 5, "test_id", 0, {"test_id": 1}) if i.n_steps >= 3)
    record = next(r for r in prediction_records(inst, PngCache()) if r["kind"] == "state" and r["step"] == 3)
    want_images = [im["bytes"] for im in record["images"]]
    assert len(want_images) == 3 and len(set(want_images)) >= 2  # distinct images, so order can be wrong

    task = state(domain="sokoban", size=5, maps=1)
    seen: list = []
    [log] = inspect_eval(task, model="mockllm/model", model_args=recording_mock(seen), display="none",
                         log_dir=str(tmp_path / "logs"), sample_id=f"{inst.id}/state/3")
    assert log.status == "success"
    [messages] = seen
    content = messages[-1].content
    texts, images = [], []
    for c in content:
        if c.type == "image":
            head, data = c.image.split(",", 1)
            assert head == "data:image/png;base64"
            images.append(base64.b64decode(data))
            texts.append(IMAGE)
        else:
            texts.append(c.text)
    assert images == want_images
    assert "".join(texts) == record["prompt"]


def test_goal_prompt_is_the_exports(tmp_path):
    inst = next(iter_split("maze", 5, "test_id", 0, {"test_id": 1}))
    row = instance_record(inst, PngCache())
    seen: list = []
    [log] = inspect_eval(goal(domain="maze", size=5, form="C", maps=1), model="mockllm/model",
                         model_args=recording_mock(seen), display="none", log_dir=str(tmp_path / "logs"),
                         sample_id=f"{inst.id}/C")
    assert log.status == "success"
    content = seen[0][-1].content
    text = "".join(IMAGE if c.type == "image" else c.text for c in content)
    assert text == row["prompt_classification"]
    assert base64.b64decode(content[1].image.split(",", 1)[1]) == row["image"]["bytes"]


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_tasks_read_an_export(fmt, tmp_path):
    """From an export the samples are the generated ones (same ids, prompts and images), and the oracle scores 100%."""
    export(make_config(tmp_path / "data", domains=["maze"], sizes=[5], splits=["test_id"], format=fmt,
                       maps_per_split=1), workers=1, quiet=True)
    from_export = goal(domain="maze", size=5, form="F", data=str(tmp_path / "data"))
    generated = goal(domain="maze", size=5, form="F", maps=1)
    assert [s.id for s in from_export.dataset] == [s.id for s in generated.dataset]
    for a, b in zip(from_export.dataset, generated.dataset):
        assert a.input[0].content == b.input[0].content
    [log] = inspect_eval(from_export, model="svot/oracle", display="none", log_dir=str(tmp_path / "logs"))
    assert log.results.scores[0].metrics["accuracy"].value == 1.0
    steps = state(domain="maze", size=5, data=str(tmp_path / "data"), steps=2)
    [log] = inspect_eval(steps, model="svot/oracle", display="none", log_dir=str(tmp_path / "logs"))
    assert {s.name: s.metrics["mean"].value for s in log.results.scores} == {"state_scorer": 1.0,
                                                                            "reasoning_scorer": 1.0}


def test_text_only_prompts_write_the_placeholders_out():
    task = goal(domain="maze", size=5, form="F", maps=1, images=False)
    row = instance_record(next(iter_split("maze", 5, "test_id", 0, {"test_id": 1})), PngCache())
    [part] = task.dataset[0].input[0].content
    assert part.type == "text" and part.text == row["prompt"].replace(IMAGE, NO_IMAGE)


@pytest.mark.parametrize("make, match", [
    (lambda: goal(domain="maze", size=5, form="X", maps=1), "form"),
    (lambda: goal(domain="maze", size=5, split="test", maps=1), "split"),
    (lambda: goal(domain="chess", maps=1), "domain"),
    (lambda: play(domain="maze", size=5, split="test_id", episodes=1), "split"),
    (lambda: goal(domain="maze", size=5, data="/nonexistent/svot-data"), "no data"),
])
def test_bad_task_arguments_are_named(make, match):
    with pytest.raises(SvotError, match=match):
        make()


@pytest.mark.slow
def test_rulemaze_tasks_read_an_export(tmp_path):
    rm_export(rm_config(tmp_path / "rm", ["regular"], train=0, test_per_group=1, pool_size=2000,
                        formats="parquet"), quiet=True)
    from_export = rulemaze_dmp(scenario="regular", data=str(tmp_path / "rm"), per_group=1)
    generated = rulemaze_dmp(scenario="regular", per_group=1, pool_size=2000)
    assert [s.id for s in from_export.dataset] == [s.id for s in generated.dataset]
    [log] = inspect_eval(from_export, model="svot/oracle", display="none", log_dir=str(tmp_path / "logs"))
    assert log.results.scores[0].metrics["mean"].value == 1.0  # EM
