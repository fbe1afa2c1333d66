import { it } from 'node:test';
import assert from 'node:assert/strict';
import { detectSecrets } from './detect.ts';
import { randomString } from './test-helpers.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

it('reports every data value of a Kubernetes Secret manifest, in its YAML spellings', async () => {
  const a = randomString(24, B64, 51);
  const b = randomString(40, B64, 52);
  const manifest = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  username: ${a}\n  .dockercfg: |\n    ${b}\n`;
  assert.deepEqual((await detectSecrets(manifest)).map((h) => [h.ruleId, h.value]), [['vouch/kubernetes-secret', a], ['vouch/kubernetes-secret', b]]);
  // data before kind, quoted, tab-indented
  const quoted = `apiVersion: "v1"\ndata:\n\textra: "${a}"\nkind: "secret"\nmetadata:\n\tname: x\n`;
  assert.deepEqual((await detectSecrets(quoted)).map((h) => h.value), [a]);
});

it('leaves other kinds, other documents of the stream, metadata and template values alone', async () => {
  const a = randomString(24, B64, 53);
  assert.deepEqual(await detectSecrets(`kind: ConfigMap\ndata:\n  config: ${a}\n`), []);
  assert.deepEqual(await detectSecrets(`kind: Secret\nmetadata:\n  name: s\n---\nkind: ConfigMap\ndata:\n  config: ${a}\n`), []);
  assert.deepEqual(await detectSecrets('kind: Secret\nmetadata:\n  name: db-credentials-for-the-app\n  namespace: production-workloads\n'), []);
  assert.deepEqual(await detectSecrets('kind: Secret\ndata:\n  password: {{ .Values.Password }}\n'), []);
  assert.deepEqual(await detectSecrets('kind: Secret\ndata:\n  extra: YmFyCg==\n'), []);
});
