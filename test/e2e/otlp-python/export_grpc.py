"""One trace through the OpenTelemetry Python SDK's OTLP/gRPC exporter, configured only by the
standard OTEL_EXPORTER_OTLP_* variables (endpoint, headers, compression). Prints the trace and root
span ids as JSON; exits non-zero when the export fails."""
import json
import sys

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult


class Checked(SpanExporter):
    """The gRPC exporter, remembering whether every export succeeded."""

    def __init__(self, inner: SpanExporter) -> None:
        self.inner = inner
        self.failed = False

    def export(self, spans):
        result = self.inner.export(spans)
        if result != SpanExportResult.SUCCESS:
            self.failed = True
        return result

    def shutdown(self) -> None:
        self.inner.shutdown()


label = sys.argv[1]
exporter = Checked(OTLPSpanExporter())
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
tracer = provider.get_tracer("otlp-receivers-e2e")
with tracer.start_as_current_span(f"agent {label}", kind=trace.SpanKind.SERVER, attributes={"gen_ai.operation.name": "invoke_agent", "app.label": label, "app.count": 7, "app.flags": [True, False]}) as parent:
    with tracer.start_as_current_span("chat gpt-4o", kind=trace.SpanKind.CLIENT, attributes={"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o", "gen_ai.usage.input_tokens": 100, "gen_ai.usage.output_tokens": 20, "app.ratio": 0.25}) as chat:
        chat.set_status(trace.Status(trace.StatusCode.ERROR, "upstream said no"))
    ctx = parent.get_span_context()
provider.shutdown()
print(json.dumps({"trace_id": format(ctx.trace_id, "032x"), "span_id": format(ctx.span_id, "016x")}))
sys.exit(1 if exporter.failed else 0)
