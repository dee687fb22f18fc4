"""Run one document's blocks in order: ``python docs_runner.py blocks.json`` in the docs' temp directory.

Python blocks share one namespace (as if the page were one script); shell
blocks run through ``bash -euo pipefail`` with this interpreter's bin
directory first on PATH. The first failing block stops the run: its
location and error are printed, and the exit status is 1.
"""

import json
import os
import subprocess
import sys
import traceback


def main(spec_path: str) -> int:
    with open(spec_path, encoding="utf-8") as f:
        blocks = json.load(f)
    namespace = {"__name__": "__main__"}
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    for b in blocks:
        print(f"=== {b['where']} ({b['lang']})", flush=True)
        if b["lang"] == "python":
            try:
                exec(compile(b["code"], b["where"], "exec"), namespace)
            except BaseException:  # noqa: BLE001 - any failure of a block is reported with its place
                traceback.print_exc()
                print(f"FAILED {b['where']}", flush=True)
                return 1
            sys.stdout.flush()
        else:
            r = subprocess.run(["bash", "-euo", "pipefail", "-c", b["code"]], env=env)
            if r.returncode:
                print(f"FAILED {b['where']}: bash exited with {r.returncode}", flush=True)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
