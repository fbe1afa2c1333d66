// Controls switched off in application code (code-controls.ts): each control has a case where one
// write introduces it and cases where the text was already there, is moved, is turned back on, or
// lies in prose. The rule around it (request, test files, effects) is tested in permissions.spec.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FileOp } from './effects.ts';
import { tlsOffByCommand, weakenedInCode } from './code-controls.ts';
import type { SimpleCommand } from '../shell/types.ts';

function op(path: string, added: string, removed = ''): FileOp {
  return { path, abs: `/home/dev/project/${path}`, zone: 'worktree', sensitive: null, kind: removed ? 'edit' : 'write', via: 'tool', added, removed };
}

function command(name: string, ...args: string[]): SimpleCommand {
  return { name, args, text: [name, ...args].join(' ') } as SimpleCommand;
}

test('TLS verification switched off is found in each language that spells it', () => {
  const cases: Array<[string, string]> = [
    ['client.py', 'r = requests.get(url, timeout=10, verify=False)'],
    ['fetch.py', 'ctx = ssl._create_unverified_context()'],
    ['api.ts', "const agent = new https.Agent({ rejectUnauthorized: false });"],
    ['server.js', "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';"],
    ['.env', 'NODE_TLS_REJECT_UNAUTHORIZED=0'],
    ['client.go', 'tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}'],
    ['pay.php', 'curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);'],
    ['http.rb', 'http.verify_mode = OpenSSL::SSL::VERIFY_NONE'],
    ['.npmrc', 'registry=https://registry.example.test/\nstrict-ssl=false\n'],
  ];
  for (const [path, text] of cases) assert.match(weakenedInCode(op(path, text)) ?? '', /TLS certificate verification was switched off/, path);
});

test('TLS verification already off, turned back on, named in prose or in a look-alike name says nothing', () => {
  assert.equal(weakenedInCode(op('client.py', 'r = requests.get(url, timeout=30, verify=False)', 'r = requests.get(url, verify=False)')), null, 'kept as it was');
  assert.equal(weakenedInCode(op('client.py', 'r = requests.get(url, verify=True)', 'r = requests.get(url, verify=False)')), null, 'turned back on');
  assert.equal(weakenedInCode(op('README.md', 'If you see certificate errors, do not set `verify=False`.')), null, 'prose');
  assert.equal(weakenedInCode(op('client.py', 'ssl_verify=False  # option of our own CLI, documented')), null, 'another name');
  assert.equal(weakenedInCode(op('api.ts', 'const agent = new https.Agent({ rejectUnauthorized: true });')), null);
  assert.equal(weakenedInCode(op('dev/probe.py', "requests.get('https://localhost:8443/health', verify=False)")), null, 'a call to this machine only');
  assert.match(weakenedInCode(op('dev/probe.py', "requests.get('https://localhost:8443/health', verify=False)\nrequests.get(API_URL, verify=False)")) ?? '', /TLS/, 'and one that leaves it');
});

test('an HTML escape removed where the new text inserts raw HTML is found; escaping kept or moved to text is not', () => {
  const removed = 'row.innerHTML = `<td>${escapeHtml(user.name)}</td>`;';
  assert.match(weakenedInCode(op('static/app.js', 'row.innerHTML = `<td>${user.name}</td>`;', removed)) ?? '', /HTML escape was removed/);
  assert.match(weakenedInCode(op('templates/post.html', '<div>{{ post.body|safe }}</div>', '<div>{{ escape(post.body) }}</div>')) ?? '', /HTML escape was removed/);
  assert.match(weakenedInCode(op('src/Comment.tsx', '<p dangerouslySetInnerHTML={{ __html: comment.text }} />', '<p dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(comment.text) }} />')) ?? '', /HTML escape was removed/);
  assert.equal(weakenedInCode(op('static/app.js', 'row.textContent = user.name;', removed)), null, 'now set as text: nothing to escape');
  assert.equal(weakenedInCode(op('static/app.js', 'row.innerHTML = `<td>${escapeHtml(user.name)}</td><td>${escapeHtml(user.role)}</td>`;', removed)), null, 'more escapes than before');
  assert.equal(weakenedInCode(op('static/app.js', 'row.innerHTML = render(user);')), null, 'a new file: nothing was removed');
});

test("a template engine's autoescape switched off is found; on, or already off, is not", () => {
  assert.match(weakenedInCode(op('app/__init__.py', 'env = Environment(loader=loader, autoescape=False)', 'env = Environment(loader=loader, autoescape=True)')) ?? '', /automatic HTML escaping was switched off/);
  assert.match(weakenedInCode(op('templates/mail.html', '{% autoescape off %}{{ body }}{% endautoescape %}')) ?? '', /automatic HTML escaping/);
  assert.equal(weakenedInCode(op('app/__init__.py', 'env = Environment(loader=loader, autoescape=True)')), null);
});

test("a token's signature check switched off or replaced by a decode is found; a verify kept is not", () => {
  assert.match(weakenedInCode(op('auth.py', 'claims = jwt.decode(token, options={"verify_signature": False})', 'claims = jwt.decode(token, key, algorithms=["HS256"])')) ?? '', /signature check was switched off/);
  assert.match(weakenedInCode(op('auth.py', 'claims = jwt.decode(token, key, algorithms=["none"])')) ?? '', /algorithm `none`/);
  assert.match(weakenedInCode(op('src/middleware/auth.ts', 'const user = jwt.decode(token) as User;', 'const user = jwt.verify(token, process.env.JWT_SECRET!) as User;')) ?? '', /replaced by a plain decode/);
  assert.equal(weakenedInCode(op('src/middleware/auth.ts', 'const user = jwt.verify(token, secret, { algorithms: ["HS256"] }) as User;', 'const user = jwt.verify(token, secret) as User;')), null);
  assert.equal(weakenedInCode(op('src/ui/avatar.ts', 'const { name } = jwt.decode(idToken) as Claims; // display only')), null, 'a decode in new code replaced no verify');
});

test('a server secret under a browser-bundled name is found; public keys under those names are not', () => {
  assert.match(weakenedInCode(op('src/lib/supabase.ts', 'export const admin = createClient(url, process.env.NEXT_PUBLIC_SUPABASE_SERVICE_ROLE_KEY!);')) ?? '', /ships to every browser/);
  assert.match(weakenedInCode(op('.env.example', 'VITE_STRIPE_SECRET_KEY=\n')) ?? '', /ships to every browser/);
  assert.equal(weakenedInCode(op('src/lib/supabase.ts', 'export const client = createClient(process.env.NEXT_PUBLIC_SUPABASE_URL!, process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY!);')), null);
  assert.equal(weakenedInCode(op('src/lib/supabase.ts', 'export const admin = createClient(url, process.env.SUPABASE_SERVICE_ROLE_KEY!);')), null, 'a server-only name');
});

test('TLS verification switched off for git or npm by a config command is found; other settings are not', () => {
  assert.match(tlsOffByCommand(command('git', 'config', '--global', 'http.sslVerify', 'false')) ?? '', /for git/);
  assert.match(tlsOffByCommand(command('npm', 'config', 'set', 'strict-ssl', 'false')) ?? '', /for npm/);
  assert.equal(tlsOffByCommand(command('git', 'config', '--global', 'http.sslVerify', 'true')), null);
  assert.equal(tlsOffByCommand(command('npm', 'config', 'set', 'registry', 'https://registry.npmjs.org/')), null);
  assert.equal(tlsOffByCommand(command('git', 'config', '--get', 'http.sslVerify')), null);
});

test('a huge edit is read in bounded time', () => {
  const big = 'x'.repeat(3_000_000);
  assert.equal(weakenedInCode(op('static/app.js', big + 'el.innerHTML = v;', big + 'el.innerHTML = escapeHtml(v);')), null, 'past the first 100,000 characters nothing is read');
});
