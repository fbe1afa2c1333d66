import { runRules, ran, prompt, severityOf } from '../src/domain/rules/harness.testing.ts';
import { refusal } from '../src/domain/rules/outcome.ts';
const res = (output: string, exitCode: number | null) => ({ kind: 'tool_result', index: 1, line: 2, at: null, callId: 'c1', output, exitCode, isError: exitCode !== 0 && exitCode !== null, denied: false } as any);
const dump = async (label: string, steps: any[]) => {
  const d = await runRules(steps);
  console.log('==', label);
  for (const x of d) if (!x.rule.startsWith('context/')) console.log('  ', severityOf(x), x.rule, '|', x.title, '|', (x.detail ?? '').slice(-220));
};
const out = (p: string) => `cp: cannot create regular file '${p}': No such file or directory`;
console.log(refusal(res(out('config/autostart/app.desktop'), 1), 'write', '/home/dev/.config/autostart/app.desktop', 'cp app.desktop ~/.config/autostart/app.desktop; cp app.desktop config/autostart/app.desktop'));
console.log(refusal(res(out('backup/.bashrc'), 1), 'write', '/home/dev/.bashrc', 'x'));
console.log(refusal(res(out('mybashrc'), 1), 'write', '/home/dev/.bashrc', 'x'));
console.log(refusal(res(out('xbin/deploy'), 1), 'write', '/usr/local/bin/deploy', 'x'));
const c = 'cp app.desktop ~/.config/autostart/app.desktop; cp app.desktop config/autostart/app.desktop';
await dump('autostart write + failing project copy', [prompt('package the desktop entry'), ...ran(c, { exitCode: 1, output: out('config/autostart/app.desktop') })]);
await dump('autostart write + failing other copy (control)', [prompt('package the desktop entry'), ...ran(c.replace(/config\/autostart/, 'pkg'), { exitCode: 1, output: out('pkg/app.desktop') })]);
const c2 = 'sudo cp deploy /usr/local/bin/deploy; cp deploy xbin/deploy';
await dump('usr/local/bin + xbin', [prompt('build the tool'), ...ran(c2, { exitCode: 1, output: out('xbin/deploy') })]);
await dump('CONTROL autostart write + failing pkg copy', [prompt('package the desktop entry'), ...ran('cp app.desktop ~/.config/autostart/app.desktop; cp app.desktop pkg/autostart/app.desktop', { exitCode: 1, output: out('pkg/autostart/app.desktop') })]);
