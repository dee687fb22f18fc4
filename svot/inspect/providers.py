"""Inspect model providers ``svot/oracle`` and ``svot/random`` (``--model svot/oracle``).

* ``svot/oracle`` answers from the planner and the ground truth: the correct
  letter or answer, the target step text, the env's plan one ``move`` at a
  time, the dataset's DMP tool trace one call at a time, then the final
  answer. It must score 100% on every task (the tests check it): it proves
  the prompts, tools and scorers agree.
* ``svot/random`` is the floor: a uniform draw from the task's answer space
  (a letter; one of the four candidate goals; one of the instance's state
  texts; uniform random moves). ``-M seed=N`` changes its draws.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo

from svot.errors import ConfigError
from svot.inspect._reference import oracle_output, random_output
from svot.inspect._truth import current_truth

MODELS = ("oracle", "random")


class ReferenceModel(ModelAPI):
    def __init__(self, model_name: str, base_url: str | None = None, api_key: str | None = None,
                 config: GenerateConfig = GenerateConfig(), seed: int = 0, **model_args: Any) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_name not in MODELS:
            raise ConfigError(f"unknown svot model {model_name!r}; choose svot/oracle or svot/random")
        self.seed = int(seed)

    async def generate(self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice,
                       config: GenerateConfig) -> ModelOutput:
        truth = current_truth()
        if self.model_name == "oracle":
            return oracle_output(self.model_name, truth, input)
        return random_output(self.model_name, truth, input, self.seed)


@modelapi(name="svot")
def svot_reference() -> type[ModelAPI]:
    return ReferenceModel
