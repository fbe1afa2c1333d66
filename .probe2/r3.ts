import { runRules, ran, prompt, severityOf } from '../src/domain/rules/harness.testing.ts';
const dump = async (label: string, steps: any[]) => {
  const d = await runRules(steps);
  console.log('==', label);
  for (const x of d) if (!x.rule.startsWith('context/')) console.log('  ', severityOf(x), x.rule, '|', x.title, '|', (x.detail ?? '').slice(-220));
};
await dump('ssh remote ssh missing', [prompt('check the server'), ...ran(`ssh prod 'rm -rf /srv/data; ssh backup true'`, { exitCode: 127, output: 'bash: line 1: ssh: command not found' })]);
await dump('ssh remote other missing (control)', [prompt('check the server'), ...ran(`ssh prod 'rm -rf /srv/data; foo'`, { exitCode: 127, output: 'bash: line 1: foo: command not found' })]);
const refused = 'The connection to the server localhost:8080 was refused - did you specify the right host or port?';
for (const c of [`kubectl exec db-0 -- sh -c 'rm -rf /var/lib/postgresql/data && kubectl get pods'`, `kubectl -n prod exec db-0 -- sh -c 'rm -rf /var/lib/postgresql/data && kubectl get pods'`, `kubectl -n prod exec db-0 -- sh -c 'rm -rf /var/lib/postgresql/data && echo'`]) {
  await dump(c, [prompt('check the pods'), ...ran(c, { exitCode: 1, output: refused })]);
}
