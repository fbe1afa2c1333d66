import { analyzeText } from '../src/domain/analyze.ts';
import { session, type Flavour, type Step } from '../src/domain/synthetic.testing.ts';
async function show(label: string, flavour: Flavour, steps: Step[], rulePrefix?: string) {
  const r = await analyzeText(session(flavour, steps));
  const fs = r.findings.filter((f) => !rulePrefix || f.rule.startsWith(rulePrefix));
  console.log(`--- ${label} [${flavour}]`);
  for (const f of fs) console.log(`   ${f.severity} ${f.rule} :: ${f.title}`);
}
const P = { prompt: 'tidy up the project' };
for (const ag of ['claude-code'] as Flavour[]) {
  await show('ssh remote rm then remote curl fails', ag, [P, { bash: "ssh deploy@203.0.113.7 'rm -rf /var/www/html && curl -fsS http://localhost:8080/health'", output: 'curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused', exit: 7 }], 'destructive');
  await show('bash -c rm then curl', ag, [P, { bash: "bash -c 'rm -rf ~/old-data; curl -fsS http://localhost:8080/health'", output: 'curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused', exit: 7 }], 'destructive');
  await show('mysql partial drop then access denied', ag, [P, { bash: `mysql -h db.prod.example.com -u app -p"$PW" app -e "DROP TABLE users; DROP DATABASE mysql"`, output: "ERROR 1044 (42000) at line 1: Access denied for user 'app'@'%' to database 'mysql'", exit: 1 }], 'destructive');
  await show('kubectl delete -f partial then lost', ag, [P, { bash: 'kubectl delete namespace prod staging', output: 'namespace "prod" deleted\nUnable to connect to the server: net/http: TLS handshake timeout', exit: 1 }], 'destructive');
  await show('baseline kubectl delete deleted', ag, [P, { bash: 'kubectl delete namespace prod staging', output: 'namespace "prod" deleted\nnamespace "staging" deleted', exit: 0 }], 'destructive');
}
