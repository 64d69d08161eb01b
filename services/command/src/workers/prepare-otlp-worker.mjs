// Worker bootstrap: worker threads do not inherit the parent's TypeScript loader (tsx under
// `npm start`, vite under vitest), so this plain module registers tsx and loads the TS entry.
import { register } from 'tsx/esm/api';

register();
await import('./prepare-otlp-worker.ts');
