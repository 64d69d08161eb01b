/** The bytes are not valid protobuf for the expected message. */
export class WireFormatError extends Error {
  override readonly name = 'WireFormatError';
}
