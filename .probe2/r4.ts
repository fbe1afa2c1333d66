import { runRules, ran, prompt, severityOf } from '../src/domain/rules/harness.testing.ts';
const dump = async (label: string, steps: any[]) => {
  const d = await runRules(steps);
  console.log('==', label);
  for (const x of d) if (!x.rule.startsWith('context/')) console.log('  ', severityOf(x), x.rule, '|', x.title, '|', (x.detail ?? '').slice(-220));
};
const c = 'mkdir -p build && rm -rf /srv/old-data && ./setup.sh';
await dump('later child, GNU quoted other dir same basename', [prompt('set up the project'), ...ran(c, { exitCode: 1, output: "installing...\nmkdir: cannot create directory '/opt/build': Permission denied" })]);
await dump('later child, GNU quoted different name (control)', [prompt('set up the project'), ...ran(c, { exitCode: 1, output: "installing...\nmkdir: cannot create directory '/opt/cache': Permission denied" })]);
await dump('later child, BSD/macOS unquoted', [prompt('set up the project'), ...ran(c, { exitCode: 1, output: "installing...\nmkdir: /usr/local/lib/app: Permission denied" })]);
const c2 = 'mkdir -p a && rm -rf /srv/old-data && ./setup.sh';
await dump('later child, basename one letter', [prompt('set up the project'), ...ran(c2, { exitCode: 1, output: "installing...\nmkdir: cannot create directory '/usr/share/data': Permission denied" })]);
