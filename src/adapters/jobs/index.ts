export * from './queue.ts';
export * from './runner.ts';
