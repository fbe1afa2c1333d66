import { runRules, ran, cmd, prompt, write, severityOf, result } from '../src/domain/rules/harness.testing.ts';
const show = (label: string, d: any[]) => { console.log('---', label); for (const x of d.filter((x) => x.rule.startsWith('secrets/'))) console.log('  ', severityOf(x), x.rule, '::', x.title); };
const key = 'f3a9c1e77b2d4e6fa0b8c9d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1';
const mk = (commitRes: any) => {
  const w = write('/home/dev/project/.env', `SESSION_SECRET=${key}\n`);
  const c = cmd('git add .env && git commit -m "add env"');
  return [prompt('set up sessions'), ...ran('openssl rand -hex 32', { output: key + '\n' }), w, result(w.callId, { output: 'File created successfully' }), c, result(c.callId, commitRes)];
};
show('commit ok', await runRules(mk({ exitCode: 0, output: '[main abc123] add env\n 1 file changed' })));
show('commit denied by user', await runRules(mk({ denied: true, isError: true, output: "The user doesn't want to proceed with this tool use." })));
show('commit rejected by pre-commit hook', await runRules(mk({ exitCode: 1, output: 'gitleaks...........Failed\n- hook id: gitleaks\n- exit code: 1\nFinding: SESSION_SECRET=f3a9...\n' })));
