import { runRules, ran, prompt, write, severityOf, only } from '../src/domain/rules/harness.testing.ts';
const OUT = 'secrets/in-tool-output';
const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIiwiaXNzIjoic3VwYWJhc2UifQ.QOEW2vgTydxPFzvNkQijKfRfUodvRjK4SAAUZMIWhCs';
const script = 'import hmac, hashlib, base64, json\ndef token(party):\n    return sign(hmac.new(b"secret", msg, hashlib.sha256))\n';
for (const c of ['cat .env.production && python3 create-jwt.py', 'python3 create-jwt.py && cut -d= -f2 .env.production', "python3 create-jwt.py; sed -n '1,20p' .env.production", 'python3 create-jwt.py; base64 -d secrets.b64', 'python3 create-jwt.py | tee /dev/null ~/.config/supabase/token']) {
  const d = only(await runRules([prompt('test the json api'), write('create-jwt.py', script), ...ran(c, { output: `${jwt}\n` })]), OUT);
  console.log(c.padEnd(60), JSON.stringify(d.map((x) => [severityOf(x), x.title])));
}
