"""Runs the real Agenta SDK against this backend (test/e2e/agenta-sdk.e2e.test.ts).

Usage: python trace_and_read.py <host> <api_key>
Prints one JSON line: the trace id the SDK produced, the scope it resolved through
GET /projects/current, and the trace URL it builds from that scope.
"""

import json
import sys

import agenta as ag


def main() -> None:
    host, api_key = sys.argv[1], sys.argv[2]
    ag.init(host=host, api_key=api_key)

    # This SDK version lets `spankind` (default "TASK") win over `type`, so a non-task child names
    # its type there; it arrives upper-case in ag.type.node and is stored lower-cased.
    @ag.instrument(spankind="TOOL")
    def lookup_capital(country: str) -> str:
        return {"France": "Paris"}.get(country, "unknown")

    # A root span is always a workflow for the SDK, whatever it is told.
    @ag.instrument()
    def answer(country: str) -> dict:
        ag.tracing.store_meta({"purpose": "sdk-e2e"})
        capital = lookup_capital(country)
        ctx = ag.tracing.get_span_context()
        answer.trace_id = f"{ctx.trace_id:032x}"
        # The SDK resolves organization/workspace/project with GET /projects/current here.
        answer.url = ag.tracing.get_trace_url()
        return {"capital": capital}

    result = answer("France")
    ag.tracing.tracer_provider.force_flush()
    singleton = ag.DEFAULT_AGENTA_SINGLETON_INSTANCE
    print(json.dumps({
        "trace_id": answer.trace_id,
        "result": result,
        "url": answer.url,
        "organization_id": singleton.organization_id,
        "workspace_id": singleton.workspace_id,
        "project_id": singleton.project_id,
    }))
    ag.tracing.tracer_provider.shutdown()


if __name__ == "__main__":
    main()
