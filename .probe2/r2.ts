import { runRules, ran, prompt, severityOf } from '../src/domain/rules/harness.testing.ts';
const dump = async (label: string, steps: any[]) => {
  const d = await runRules(steps);
  console.log('==', label);
  for (const x of d) console.log('  ', severityOf(x), x.rule, '|', x.title, '|', (x.detail ?? '').slice(-200));
};
const refused = 'The connection to the server localhost:8080 was refused - did you specify the right host or port?';
await dump('kubectl -n prod exec drop, unreached words (inner)', [prompt('check the pods'), ...ran(`kubectl -n prod exec db-0 -- sh -c 'psql -U app -c "DROP DATABASE app" && kubectl get pods'`, { exitCode: 1, output: `DROP DATABASE\n${refused}` })]);
await dump('kubectl -n prod exec drop, plain output', [prompt('check the pods'), ...ran(`kubectl -n prod exec db-0 -- sh -c 'psql -U app -c "DROP DATABASE app" && kubectl get pods'`, { exitCode: 1, output: `DROP DATABASE\nerror` })]);
await dump('docker exec rm -rf, inner docker missing', [prompt('check the app'), ...ran(`docker exec app sh -c 'rm -rf /var/lib/postgresql/data; docker ps'`, { exitCode: 127, output: `sh: 1: docker: not found` })]);
await dump('docker exec rm -rf, other output', [prompt('check the app'), ...ran(`docker exec app sh -c 'rm -rf /var/lib/postgresql/data; docker ps'`, { exitCode: 127, output: `sh: 1: foo: not found` })]);
await dump('ssh app substring host', [prompt('check the server'), ...ran(`ssh app 'rm -rf /srv/data && rsync -a backup@app-backup:/x /y'`, { exitCode: 255, output: 'backup@app-backup: Permission denied (publickey).\nrsync: connection unexpectedly closed' })]);
await dump('ssh app other output', [prompt('check the server'), ...ran(`ssh app 'rm -rf /srv/data && rsync -a backup@app-backup:/x /y'`, { exitCode: 255, output: 'rsync: connection unexpectedly closed' })]);
