import { session } from './src/domain/synthetic.testing.ts';
import { analyzeText } from './src/domain/analyze.ts';
const GH = 'ghp_' + 'Q7r8A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6';
const r = await analyzeText(session('claude-code', [{ prompt: `here is my token ${GH} create the repo` }, { bash: `curl -s -H "Authorization: token ${GH}" https://api.github.com/user/repos -d '{"name":"x"}'`, output: '{"id":1}' }]));
for (const f of r.findings) console.log(f.severity, f.rule, f.title, '\n  ', f.detail);
