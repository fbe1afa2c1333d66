import { runRules, ran, prompt, only, severityOf } from '../src/domain/rules/harness.testing.ts';
const cs = [
  'docker run -d --name db -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d --name db --env=POSTGRES_HOST_AUTH_METHOD=trust -p5432:5432 postgres:16',
  'docker run -dp 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16',
  'docker run -d --restart unless-stopped -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d --gpus all -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d --no-healthcheck -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d --pull always -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d --sig-proxy=false -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d --init --tty --interactive -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -itd -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d -e POSTGRES_HOST_AUTH_METHOD=trust --network host postgres:16',
  'docker -H tcp://10.0.0.5:2375 run -d -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker --tls run -d -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker --debug run -d -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'podman run -d -e MYSQL_ALLOW_EMPTY_PASSWORD=yes -p 3306:3306 mysql:8',
  'docker run -d -e POSTGRES_HOST_AUTH_METHOD=trust -p 127.0.0.1:5432:5432 postgres:16',
  'docker run -d --publish-all -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16',
  'docker run -d --tmpfs /var/lib/postgresql/data -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d --rm --privileged=true -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d -t -i -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
  'docker run -d --use-api-socket -e POSTGRES_HOST_AUTH_METHOD=trust -p 5432:5432 postgres:16',
];
for (const c of cs) {
  const d = (await runRules([prompt('start a db for the tests'), ...ran(c, { output: 'abc123' })])).filter((x) => /login switched off/.test(x.detail ?? ''));
  console.log(c.padEnd(110), JSON.stringify(d.map((x) => [x.rule, severityOf(x)])));
}
