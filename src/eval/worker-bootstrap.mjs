// Entry of a worker thread of `parallel.ts` when it runs from the TypeScript sources (the compiled
// dist/ starts worker.js directly): a worker thread does not inherit the TypeScript
// loader of the thread that started it, so it registers tsx for itself, then loads the worker.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
