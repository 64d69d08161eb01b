// Reads a raw request body up to `limit` bytes. A declared Content-Length above the limit is refused
// before reading anything; a body that grows past it is cut off at the limit. gzip/deflate
// Content-Encoding is inflated with its own cap, so a small compressed bomb cannot exhaust memory.
import type { Request } from 'express';
import zlib from 'node:zlib';
import { AppError } from '@llm/errors';

export const tooLarge = (limit: number): AppError =>
  new AppError({ code: 'too_large', kind: 'too_large', message: `Request body exceeds the ${limit} byte limit.` });

export function readBoundedBody(req: Request, limit: number): Promise<Buffer> {
  const declared = Number(req.header('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    // Do not read it; close the connection after answering so the client stops sending.
    req.socket.once('drain', () => undefined);
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) {
        done = true;
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => { if (!done) { done = true; resolve(Buffer.concat(chunks, size)); } });
    req.on('error', (err) => { if (!done) { done = true; reject(err); } });
  });
}

export function inflateBounded(body: Buffer, encoding: string | undefined, limit: number): Buffer {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (!enc || enc === 'identity') return body;
  const opts = { maxOutputLength: limit };
  try {
    if (enc === 'gzip' || enc === 'x-gzip') return zlib.gunzipSync(body, opts);
    if (enc === 'deflate') return zlib.inflateSync(body, opts);
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit);
    throw new AppError({ code: 'bad_encoding', kind: 'invalid', message: `Body is not valid ${enc} data.` });
  }
  throw new AppError({ code: 'unsupported_encoding', kind: 'unsupported_media_type', message: `Unsupported Content-Encoding '${enc}'.` });
}
