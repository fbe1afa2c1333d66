import { analyzeText } from '../src/domain/analyze.ts';
import { session } from '../src/domain/synthetic.testing.ts';
for (const w of ['gcloud ', 'gcloux ']) {
  const text = session('claude-code', [{ prompt: 'tidy' }, { bash: 'echo ' + w.repeat(32000), output: 'ok' }]);
  const t = Date.now();
  const r: any = await analyzeText(text);
  console.log(w, text.length, Date.now() - t, 'ms', r?.findings?.length);
}
