import { analyzeText } from '../src/domain/analyze.ts';
import { session } from '../src/domain/synthetic.testing.ts';
const n = Number(process.argv[2] ?? 500);
const bash = Array.from({ length: n }, (_, i) => `rm -rf /opt/app/dir${i}`).join('\n');
const t = Date.now();
const r = await analyzeText(session('claude-code', [{ prompt: 'tidy up' }, { bash, output: '', exit: 0 }]));
console.log(n, 'cmds', Date.now() - t, 'ms', r.findings.length, 'findings');
