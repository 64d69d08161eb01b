// How an evaluation rejection reads to a client: the code's one presentation in RUN_REJECTIONS
// (presentation.ts of the account model gives the bodies).
import { presentRejection, type Presentation, type Rejection } from '@llm/account-model';
import type { AppError } from '@llm/errors';
import { RUN_REJECTIONS, type RunRejection } from './run/rules.ts';

export const isEvaluationRejectionCode = (code: string): code is RunRejection => Object.hasOwn(RUN_REJECTIONS, code);

export function evaluationRejectionError(r: Rejection): AppError {
  const p: Presentation = isEvaluationRejectionCode(r.code) ? RUN_REJECTIONS[r.code] : 'unprocessable';
  return presentRejection(r, p);
}
