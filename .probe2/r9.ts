import { runRules, ran, prompt } from '../src/domain/rules/harness.testing.ts';
for (const n of [2000, 8000, 16000]) {
  const c = 'echo ' + 'gcloud '.repeat(n);
  const t = Date.now();
  await runRules([prompt('x'), ...ran(c, { output: 'roles/ members' })]);
  console.log(n, c.length, Date.now() - t, 'ms');
}
const re = /\bgcloud\s+(?:[-\w=]+\s+)*?projects\s+(?:get-iam-policy|add-iam-policy-binding|remove-iam-policy-binding|set-iam-policy)\s+([\w.:-]+)/;
for (const n of [5000, 10000, 20000]) { const s = 'gcloud '.repeat(n); const t = Date.now(); re.exec(s); console.log('regex only', s.length, Date.now() - t, 'ms'); }
