// A node:test reporter used by scripts/test.mjs: one JSON line per test file with the time its
// top-level tests took (their durations summed; a file's own start-up, e.g. loading tsx, is not
// in it). `npm test` prints the slowest files of each tier from it, so the files that make a
// tier long are named without timing them one by one.
export default async function* timings(source) {
  const perFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const ms = event.data.details?.duration_ms ?? 0;
      perFile.set(event.data.file, (perFile.get(event.data.file) ?? 0) + ms);
    }
  }
  for (const [file, ms] of perFile) yield JSON.stringify({ file, ms: Math.round(ms) }) + '\n';
}
