export * from './queue.ts';
export * from './job-runner.ts';
