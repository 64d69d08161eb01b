// A path id that must be a UUID (any usual spelling): anything else is a 422 naming the parameter.
import type { Request } from 'express';
import { z } from 'zod';
import { uuidText } from '@llm/contracts';
import { validate } from '@llm/http';

export function pathUuid(req: Request, name: string): string {
  const parsed: Record<string, string> = validate(z.object({ [name]: uuidText }), req.params, 'path');
  return parsed[name]!;
}
