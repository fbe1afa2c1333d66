import { runRules, ran, prompt, severityOf } from '../src/domain/rules/harness.testing.ts';
for (const c of ['podman run -d --replace --name db -e MYSQL_ALLOW_EMPTY_PASSWORD=yes -p 3306:3306 mysql:8', 'podman run -d --name db -e MYSQL_ALLOW_EMPTY_PASSWORD=yes -p 3306:3306 mysql:8', 'docker run -d --use-api-socket --name db -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16']) {
  const d = (await runRules([prompt('start a db for the tests'), ...ran(c, { output: 'abc123' })])).filter((x) => /login switched off/.test(x.detail ?? ''));
  console.log(c.padEnd(100), JSON.stringify(d.map((x) => [x.rule, severityOf(x)])));
}
