// Worker threads do not inherit the tsx loader of the main thread: register it here, then load
// the TypeScript shard worker. (Plain .mjs so that Node can start it without any loader.)
import { register } from 'tsx/esm/api';

register();
await import('./shard-worker.ts');
