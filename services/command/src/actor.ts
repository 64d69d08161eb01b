// Who a write is on behalf of: a request's scope and id, or a worker's stand-in for the user who
// dispatched a run (evaluations/worker/dispatch-worker.ts). Every write path that used to take the request takes
// this, so the server's own writes follow the same rules, quotas and log as a client's.
import type { Request } from 'express';

export type Actor = Pick<Request, 'scope' | 'id'>;
