import { runRules, ran, prompt } from '../src/domain/rules/harness.testing.ts';
for (const w of ['gcloud ', 'gcloux ']) for (const n of [16000, 32000]) {
  const c = 'echo ' + w.repeat(n);
  const t = Date.now();
  await runRules([prompt('x'), ...ran(c, { output: '' })]);
  console.log(w, c.length, Date.now() - t, 'ms');
}
