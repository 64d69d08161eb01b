"""Runs the real Agenta SDK's evaluation flow against this backend (test/e2e/agenta-sdk-evaluate.e2e.test.ts).

Usage: python evaluate_flow.py <host> <api_key>
Creates a testset of three countries with their expected capitals (the third one deliberately
wrong), then `aevaluate()`s a local application (country -> capital) with a local exact-match
evaluator over it. The SDK executes both in this process and writes the run, its scenarios, cells
and metrics back through our API. Prints one JSON line, last: the run id, the status rolled up from
the scenarios, the scenario count, the testset ids, the step keys the SDK wrote its cells under and
the global and per-scenario metrics as the SDK read them back.
"""

import os

# Before the SDK is imported. Its console logger writes to stdout, at the level this variable names
# (AGENTA_LOG_LEVEL is not read). The OTLP batch processor's delay bounds how long the SDK polls
# GET /tracing/traces/{id} for each step's trace. LiteLLM (imported by the SDK) would otherwise
# fetch its model price list from GitHub, retrying for seconds offline. None of the three changes
# what the SDK sends to the backend.
os.environ.setdefault("AGENTA_LOG_CONSOLE_LEVEL", "ERROR")
os.environ.setdefault("OTEL_BSP_SCHEDULE_DELAY", "500")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import asyncio  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from typing import Any  # noqa: E402

import agenta as ag  # noqa: E402
from agenta.sdk.evaluations import aevaluate  # noqa: E402

CAPITALS = {"France": "Paris", "Germany": "Berlin", "Spain": "Madrid"}


# The decorators register the functions under `user:custom:__main__.<name>:latest`; `aevaluate`
# upserts each as a simple application/evaluator whose revision data carries that URI, and runs the
# local handler it names. With a name, the slug given here is the artifact's slug.
@ag.application(slug="capital-lookup", name="Capital lookup")
def capital(country: str) -> str:
    # Handler parameters other than request/revision/parameters/testcase/inputs/trace/outputs are
    # read by name from the testcase's data (minus testcase_dedup_id).
    return CAPITALS.get(country, "unknown")


@ag.evaluator(slug="capital-exact-match", name="Capital exact match")
def capital_match(testcase: dict, outputs: Any) -> dict:
    # `testcase` is the whole testcase ({id, data, ...}); `outputs` is what the application returned.
    correct = outputs == testcase["data"]["correct_answer"]
    return {"score": 1.0 if correct else 0.0, "success": correct}


def _status(value: Any) -> str:
    return str(getattr(value, "value", value))


def _dump(model: Any) -> Any:
    return model.model_dump(mode="json") if model is not None else None


async def main(host: str, api_key: str) -> dict:
    ag.init(host=host, api_key=api_key)

    testset = await ag.testsets.acreate(
        name="Capitals",
        data=[
            {"country": "France", "correct_answer": "Paris"},
            {"country": "Germany", "correct_answer": "Berlin"},
            {"country": "Spain", "correct_answer": "Barcelona"},
        ],
    )
    if testset is None or testset.id is None:
        raise RuntimeError("the SDK could not create the testset")

    # `testsets` takes testset or testset-revision ids (UUIDs), `applications`/`evaluators` take
    # decorated callables (upserted to revisions) or revision ids.
    result = await aevaluate(
        name="Capitals SDK e2e",
        testsets=[testset.id],
        applications=[capital],
        evaluators=[capital_match],
    )
    if result is None:
        raise RuntimeError("the SDK could not create the evaluation")

    scenarios = result["scenarios"]
    statuses = [_status(s["status"]) for s in scenarios]
    # The SDK closes the run with this same rollup (errors > pending -> running > success).
    status = "errors" if "errors" in statuses else "running" if "pending" in statuses else "success"
    step_keys = sorted({key for s in scenarios for key in (s["results"] or {}).keys()})

    return {
        "run_id": str(result["run"].id),
        "status": status,
        "scenarios": len(scenarios),
        "scenario_ids": [str(s["scenario"].id) for s in scenarios],
        "scenario_statuses": statuses,
        "step_keys": step_keys,
        "testset_id": str(testset.testset_id),
        "testset_revision_id": str(testset.id),
        "global_metrics": _dump(result["metrics"]["global"]),
        "variational_metrics": [_dump(m) for m in result["metrics"]["variational"]],
    }


def run() -> None:
    host, api_key = sys.argv[1], sys.argv[2]
    out = asyncio.run(main(host, api_key))
    # Flush the remaining spans before the process ends, then print the answer as the last line.
    ag.tracing.tracer_provider.force_flush()
    ag.tracing.tracer_provider.shutdown()
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    run()
