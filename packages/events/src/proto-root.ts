// Loads the committed .proto files once. Other teams decode the topics with the same files.
import protobuf from 'protobufjs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../proto/', import.meta.url));
const PROTO_FILES = ['envelope.proto', 'tracing.proto', 'accounts.proto', 'platform.proto', 'webhooks.proto', 'evaluations.proto'];
// keepCase: field names stay as in the .proto files (snake_case, the wire casing of the whole system).
export const protoRoot: protobuf.Root = new protobuf.Root().loadSync(
  PROTO_FILES.map((f) => dir + f),
  { keepCase: true },
);
export const protoFiles = { dir, files: PROTO_FILES };

export const lookup = (name: string): protobuf.Type => protoRoot.lookupType(`llm.events.v1.${name}`);
