// A multipart/form-data body (file uploads), read bounded and parsed by the platform's own form
// parser (undici's, behind `Request.formData()`): text fields as strings, the first file part.
import type { Request } from 'express';
import { invalid } from '@llm/errors';
import { readBoundedBody } from '@llm/http';

export interface MultipartForm { fields: Map<string, string>; file: { name: string; content: Buffer } | undefined }

export async function readMultipartForm(req: Request, limit: number): Promise<MultipartForm> {
  const contentType = req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) throw invalid('multipart_required', 'Send the file as multipart/form-data.');
  const raw = await readBoundedBody(req, limit);
  let form: FormData;
  try {
    form = await new globalThis.Request('http://upload.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(raw) }).formData();
  } catch (err) {
    throw invalid('multipart_unreadable', `The form cannot be read: ${(err as Error).message}`);
  }
  const fields = new Map<string, string>();
  let file: MultipartForm['file'];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields.set(name, value);
    else if (!file && name === 'file') file = { name: value.name, content: Buffer.from(await value.arrayBuffer()) };
  }
  return { fields, file };
}
