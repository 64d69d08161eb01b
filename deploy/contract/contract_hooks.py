# Schemathesis hooks of the contract fuzzing run (deploy/bin/test-contract.mjs loads this module
# through SCHEMATHESIS_HOOKS). Schemathesis cannot generate `application/x-protobuf` bodies on its
# own, which left POST /otlp/v1/traces untested: this registers a strategy for that media type that
# draws arbitrary bytes (the decoder's refusals) and well-formed OTLP ExportTraceServiceRequests
# built here (the ingest path), so the exporters' route is fuzzed like every other.
from hypothesis import strategies as st

import schemathesis


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(number, payload):
    """A length-delimited field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _fixed64(number, value):
    return _varint(number << 3 | 1) + value.to_bytes(8, "little")


def _span(trace_id, span_id, name, start, duration):
    # opentelemetry.proto.trace.v1.Span: trace_id 1, span_id 2, name 5, start 7, end 8.
    return (
        _field(1, trace_id)
        + _field(2, span_id)
        + _field(5, name.encode("utf-8"))
        + _fixed64(7, start)
        + _fixed64(8, start + duration)
    )


@st.composite
def _export_request(draw):
    spans = b""
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        spans += _field(2, _span(
            draw(st.binary(min_size=16, max_size=16)),
            draw(st.binary(min_size=8, max_size=8)),
            draw(st.text(max_size=40)),
            draw(st.integers(min_value=0, max_value=2**63 - 2**40)),
            draw(st.integers(min_value=0, max_value=2**40)),
        ))
    # ExportTraceServiceRequest.resource_spans 1 → ResourceSpans.scope_spans 2 → ScopeSpans.spans 2.
    return _field(1, _field(2, spans))


schemathesis.openapi.media_type(
    "application/x-protobuf",
    st.one_of(_export_request(), st.binary(max_size=2048)),
)
