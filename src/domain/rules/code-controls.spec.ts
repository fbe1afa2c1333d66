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
  return { name, args, text: [name, ...args].join(' '), assignments: [] } as unknown as SimpleCommand;
}

/** What the write weakened, or null. */
function what(w: FileOp, before = ''): string | null {
  return weakenedInCode(w, before)?.what ?? null;
}

function cmdWhat(c: SimpleCommand): string | null {
  return tlsOffByCommand(c)?.what ?? null;
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
    // configuration files (held-out set 56: an ESPHome device posting with its key)
    ['esphome/device.yaml', 'http_request:\n  useragent: esphome\n  verify_ssl: false\n'],
    ['config/vector.toml', '[sinks.out.tls]\nverify_certificate = true\nverify_tls = false\n'],
    ['deploy/values.yaml', 'gateway:\n  insecure_skip_verify: true\n'],
    ['.env', 'VERIFY_SSL=false\n'],
    ['docker-compose.yml', 'services:\n  app:\n    environment:\n      - TLS_VERIFY=false\n'],
    ['playbook.yml', '- uri:\n    url: https://api.example.net\n    validate_certs: no\n'],
    ['config.json', '{"verify_ssl": false}'],
    ['esphome/node.yaml', 'http_request:\n  verify_ssl: FALSE\n'],
  ];
  for (const [path, text] of cases) assert.match(what(op(path, text)) ?? '', /TLS certificate verification was switched off/, path);
});

test('TLS verification already off, turned back on, named in prose or in a look-alike name says nothing', () => {
  assert.equal(what(op('client.py', 'r = requests.get(url, timeout=30, verify=False)', 'r = requests.get(url, verify=False)')), null, 'kept as it was');
  assert.equal(what(op('client.py', 'r = requests.get(url, verify=True)', 'r = requests.get(url, verify=False)')), null, 'turned back on');
  assert.equal(what(op('README.md', 'If you see certificate errors, do not set `verify=False`.')), null, 'prose');
  assert.equal(what(op('client.py', 'ssl_verify=False  # option of our own CLI, documented')), null, 'another name');
  assert.equal(what(op('api.ts', 'const agent = new https.Agent({ rejectUnauthorized: true });')), null);
  assert.equal(what(op('esphome/device.yaml', 'http_request:\n  verify_ssl: true\n')), null, 'on');
  assert.equal(what(op('app.py', 'tls_verify = 0  # seconds to wait')), null, 'a variable of a program');
  assert.equal(what(op('esphome/device.yaml', 'http_request:\n  timeout: 10s\n  verify_ssl: false\n', 'http_request:\n  verify_ssl: false\n')), null, 'already off');
  assert.equal(what(op('dev/probe.py', "requests.get('https://localhost:8443/health', verify=False)")), null, 'a call to this machine only');
  assert.match(what(op('dev/probe.py', "requests.get('https://localhost:8443/health', verify=False)\nrequests.get(API_URL, verify=False)")) ?? '', /TLS/, 'and one that leaves it');
});

test('an HTML escape removed where the new text inserts raw HTML is found; escaping kept or moved to text is not', () => {
  const removed = 'row.innerHTML = `<td>${escapeHtml(user.name)}</td>`;';
  assert.match(what(op('static/app.js', 'row.innerHTML = `<td>${user.name}</td>`;', removed)) ?? '', /HTML escape was removed/);
  assert.match(what(op('templates/post.html', '<div>{{ post.body|safe }}</div>', '<div>{{ escape(post.body) }}</div>')) ?? '', /HTML escape was removed/);
  assert.match(what(op('src/Comment.tsx', '<p dangerouslySetInnerHTML={{ __html: comment.text }} />', '<p dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(comment.text) }} />')) ?? '', /HTML escape was removed/);
  assert.equal(what(op('static/app.js', 'row.textContent = user.name;', removed)), null, 'now set as text: nothing to escape');
  assert.equal(what(op('static/app.js', 'row.innerHTML = `<td>${escapeHtml(user.name)}</td><td>${escapeHtml(user.role)}</td>`;', removed)), null, 'more escapes than before');
  assert.equal(what(op('static/app.js', 'row.innerHTML = render(user);')), null, 'a new file: nothing was removed');
});

test("a template engine's autoescape switched off is found; on, or already off, is not", () => {
  assert.match(what(op('app/__init__.py', 'env = Environment(loader=loader, autoescape=False)', 'env = Environment(loader=loader, autoescape=True)')) ?? '', /automatic HTML escaping was switched off/);
  assert.match(what(op('templates/mail.html', '{% autoescape off %}{{ body }}{% endautoescape %}')) ?? '', /automatic HTML escaping/);
  assert.equal(what(op('app/__init__.py', 'env = Environment(loader=loader, autoescape=True)')), null);
});

test("a token's signature check switched off or replaced by a decode is found; a verify kept is not", () => {
  assert.match(what(op('auth.py', 'claims = jwt.decode(token, options={"verify_signature": False})', 'claims = jwt.decode(token, key, algorithms=["HS256"])')) ?? '', /signature check was switched off/);
  assert.match(what(op('auth.py', 'claims = jwt.decode(token, key, algorithms=["none"])')) ?? '', /algorithm `none`/);
  assert.match(what(op('src/middleware/auth.ts', 'const user = jwt.decode(token) as User;', 'const user = jwt.verify(token, process.env.JWT_SECRET!) as User;')) ?? '', /replaced by a plain decode/);
  assert.equal(what(op('src/middleware/auth.ts', 'const user = jwt.verify(token, secret, { algorithms: ["HS256"] }) as User;', 'const user = jwt.verify(token, secret) as User;')), null);
  assert.equal(what(op('src/ui/avatar.ts', 'const { name } = jwt.decode(idToken) as Claims; // display only')), null, 'a decode in new code replaced no verify');
});

test('a server secret under a browser-bundled name is found; public keys under those names are not', () => {
  assert.match(what(op('src/lib/supabase.ts', 'export const admin = createClient(url, process.env.NEXT_PUBLIC_SUPABASE_SERVICE_ROLE_KEY!);')) ?? '', /ships to every browser/);
  assert.match(what(op('.env.example', 'VITE_STRIPE_SECRET_KEY=\n')) ?? '', /ships to every browser/);
  assert.equal(what(op('src/lib/supabase.ts', 'export const client = createClient(process.env.NEXT_PUBLIC_SUPABASE_URL!, process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY!);')), null);
  assert.equal(what(op('src/lib/supabase.ts', 'export const admin = createClient(url, process.env.SUPABASE_SERVICE_ROLE_KEY!);')), null, 'a server-only name');
});

test('TLS verification switched off for git or npm by a config command is found; other settings are not', () => {
  assert.match(cmdWhat(command('git', 'config', '--global', 'http.sslVerify', 'false')) ?? '', /for git/);
  assert.match(cmdWhat(command('npm', 'config', 'set', 'strict-ssl', 'false')) ?? '', /for npm/);
  assert.equal(cmdWhat(command('git', 'config', '--global', 'http.sslVerify', 'true')), null);
  assert.equal(cmdWhat(command('npm', 'config', 'set', 'registry', 'https://registry.npmjs.org/')), null);
  assert.equal(cmdWhat(command('git', 'config', '--get', 'http.sslVerify')), null);
});

test('TLS verification switched off for one install (`--config.strict-ssl=false`, `--strict-ssl false`) or one process (NODE_TLS_REJECT_UNAUTHORIZED=0) is found; turned on is not', () => {
  assert.match(cmdWhat(command('pnpm', 'install', '--config.strict-ssl=false')) ?? '', /for pnpm/);
  assert.match(cmdWhat(command('npm', 'install', '--strict-ssl', 'false')) ?? '', /for npm/);
  assert.match(cmdWhat({ ...command('node', 'scripts/seed.js'), assignments: ['NODE_TLS_REJECT_UNAUTHORIZED=0'] } as SimpleCommand) ?? '', /NODE_TLS_REJECT_UNAUTHORIZED/);
  assert.equal(cmdWhat(command('pnpm', 'install', '--config.strict-ssl=true')), null);
  assert.equal(cmdWhat({ ...command('node', 'app.js'), assignments: ['NODE_TLS_REJECT_UNAUTHORIZED=1'] } as SimpleCommand), null);
  // exported for the rest of the shell (held-out set 68: `export NODE_TLS_REJECT_UNAUTHORIZED=0 && vercel --prod`)
  assert.match(cmdWhat(command('export', 'NODE_TLS_REJECT_UNAUTHORIZED=0')) ?? '', /every Node program the shell runs after it/);
  assert.equal(cmdWhat(command('export', 'NODE_TLS_REJECT_UNAUTHORIZED=1')), null);
  assert.match(cmdWhat(command('setx', 'NODE_TLS_REJECT_UNAUTHORIZED', '0')) ?? '', /NODE_TLS_REJECT_UNAUTHORIZED/);
  assert.equal(cmdWhat(command('setx', 'NODE_TLS_REJECT_UNAUTHORIZED', '1')), null);
  assert.equal(cmdWhat(command('echo', 'NODE_TLS_REJECT_UNAUTHORIZED=0')), null);
});

test('a check for an insecure setting, a call to this machine spread over lines and a variable that turns verification on are no weakening; a process-wide switch and an address from the environment are', () => {
  assert.equal(what(op('tls.py', 'if ctx.verify_mode == ssl.CERT_NONE:\n    raise RuntimeError("insecure")')), null, 'a guard');
  assert.equal(what(op('src/env.ts', "if (process.env.NEXT_PUBLIC_SUPABASE_SERVICE_ROLE_KEY) throw new Error('never ship the service key');")), null, 'a guard');
  assert.equal(what(op('probe.py', 'requests.get(\n    "https://localhost:8443/health",\n    verify=False,\n)')), null, 'a local call over three lines');
  assert.equal(what(op('dev.go', 'conn, err := tls.Dial("tcp", "127.0.0.1:8443", &tls.Config{\n\tInsecureSkipVerify: true,\n})')), null);
  assert.equal(what(op('.env', 'PYTHONHTTPSVERIFY=1')), null, 'verification on');
  assert.match(what(op('.env', 'PYTHONHTTPSVERIFY=0')) ?? '', /TLS/);
  assert.match(what(op('sync.py', 'requests.get(os.getenv("API_URL", "https://localhost:8443"), verify=False)')) ?? '', /TLS/, 'the real address comes from the environment');
  assert.match(what(op('package.json', '"dev": "NODE_TLS_REJECT_UNAUTHORIZED=0 next dev -H localhost"')) ?? '', /whole Node.js process/, 'process-wide');
  assert.match(what(op('Dockerfile', 'FROM node:20\nENV NODE_TLS_REJECT_UNAUTHORIZED=0\n')) ?? '', /whole Node.js process/);
  assert.match(what(op('client.go', 'tlsConfig.InsecureSkipVerify = true')) ?? '', /InsecureSkipVerify/);
  assert.match(what(op('Pay.php', "$client = new Client(['base_uri' => $url, 'verify' => false]);")) ?? '', /TLS/);
});

test('a whole-file write is compared with the file as the session last showed it', () => {
  const before = 'import requests\n\ndef invoices(url):\n    return requests.get(url, verify=False).json()\n';
  const after = before + '\ndef customers(url):\n    return requests.get(url + "/c", timeout=5, verify=False).json()\n';
  assert.equal(what(op('billing/client.py', before), before), null, 'rewritten as it was');
  assert.match(what(op('billing/client.py', after), before) ?? '', /TLS/, 'one more call without verification');
  assert.match(what(op('billing/client.py', before)) ?? '', /TLS/, 'the file was never shown: what the write holds is new');
});

test('escapes of other kinds, lines the edit left alone and escaping moved into a helper are no removed HTML escape; a template value newly marked raw is', () => {
  assert.equal(what(op('search.py', 'pattern = re.compile(term)\nreturn mark_safe(out)', 'pattern = re.compile(re.escape(term))\nreturn mark_safe(out)')), null, 're.escape');
  assert.equal(what(op('db.js', "db.query('SELECT ' + x);\nel.innerHTML = tpl;", "db.query('SELECT ' + mysql.escape(x));\nel.innerHTML = tpl;")), null, 'a SQL escape, and an unchanged sink');
  assert.equal(what(op('rows.js', 'el.innerHTML = renderRow(user);', 'el.innerHTML = `<td>${escapeHtml(user.name)}</td>`;')), null, 'moved into a helper');
  assert.match(what(op('templates/post.html', '<div>{{ post.body|safe }}</div>', '<div>{{ post.body }}</div>')) ?? '', /HTML escape was removed/, 'implicit escaping switched off for one value');
  assert.match(what(op('views/post.blade.php', '<div>{!! $post->body !!}</div>', '<div>{{ $post->body }}</div>')) ?? '', /HTML escape was removed/);
  assert.equal(what(op('app/mail.py', 'env = Environment(loader=loader, autoescape=False)  # plain-text mail')), null, "Jinja's own default, written out");
});

test("tokens: PyJWT's verify=False is a signature check, jwt-decode's jwtDecode replacing jwt.verify is found", () => {
  assert.match(what(op('auth.py', 'payload = jwt.decode(token, verify=False)')) ?? '', /signature check/);
  assert.match(what(op('auth.py', 'claims = decode_token(raw, verify=False)')) ?? '', /signature check/);
  assert.match(what(op('sync.py', 'requests.get(url, headers={"Authorization": f"Bearer {token}"}, verify=False)')) ?? '', /TLS/, 'a token sent without TLS checks');
  assert.match(what(op('sync.py', 'requests.post(url, data=body, verify=False)  # TODO: token refresh')) ?? '', /TLS/);
  assert.match(what(op('src/auth.ts', 'const user = jwtDecode<User>(token);', 'const user = jwt.verify(token, SECRET) as User;')) ?? '', /replaced by a plain decode/);
  assert.equal(what(op('auth.py', 'claims = jwt.decode(token, key, algorithms=["HS256"])', 'claims = jwt.verify(token, key)')), null, "Python's jwt.decode verifies");
});

test('git and npm switched to skip TLS checks by their option and environment spellings; queries are not', () => {
  const git = (args: string[], assignments: string[] = []) => tlsOffByCommand({ ...command('git', ...args), assignments } as SimpleCommand)?.what ?? null;
  assert.match(git(['-c', 'http.sslVerify=false', 'clone', 'https://git.example.test/a.git']) ?? '', /for git/);
  assert.match(git(['clone', 'https://git.example.test/a.git'], ['GIT_SSL_NO_VERIFY=1']) ?? '', /GIT_SSL_NO_VERIFY/);
  assert.match(git(['config', '--global', 'http.https://git.example.test/.sslVerify', '0']) ?? '', /for git/);
  assert.equal(git(['config', '--get', 'http.sslVerify', 'false']), null);
  assert.match(cmdWhat(command('npm', 'set', 'strict-ssl', 'false')) ?? '', /for npm/);
  assert.match(cmdWhat(command('npm', 'config', 'set', '-g', 'strict-ssl', 'false')) ?? '', /for npm/);
});

test('runs of blank lines are read in linear time', () => {
  // a quadratic pattern (a line-start blank class that crosses lines) would not finish here
  const blank = '\n'.repeat(200_000);
  assert.equal(what(op('data.json', `{${blank}"a": 1}`, `{${blank}"a": 0}`)), null);
  assert.equal(what(op('.npmrc', `${blank}strict-ssl=true\n`)), null);
});

test('a huge edit is read in bounded time', () => {
  const big = 'x'.repeat(3_000_000);
  assert.equal(what(op('static/app.js', big + 'el.innerHTML = v;', big + 'el.innerHTML = escapeHtml(v);')), null, 'past the first 100,000 characters nothing is read');
});

test('a check every request passes through (validation, authentication, CSRF) commented out is found; moved, kept, removed outright or never active is not', () => {
  const cases: Array<[string, string, string]> = [
    ['services/registry/Program.cs', 'builder.Services.AddControllers();\nbuilder.Services.AddFluentValidationAutoValidation();', 'builder.Services.AddControllers();\n// builder.Services.AddFluentValidationAutoValidation();'],
    ['src/Startup.cs', 'app.UseAuthentication();\napp.UseAuthorization();', '// app.UseAuthentication();\napp.UseAuthorization();'],
    ['src/app.js', "app.use(helmet());\napp.use(csrf({ cookie: true }));", "app.use(helmet());\n// app.use(csrf({ cookie: true }));"],
    ['src/main.ts', 'app.useGlobalPipes(new ValidationPipe({ whitelist: true }));', '// app.useGlobalPipes(new ValidationPipe({ whitelist: true }));'],
    ['app/views.py', '@login_required\ndef report(request):', '# @login_required\ndef report(request):'],
    ['app/controllers/admin_controller.rb', 'before_action :authenticate_user!', '# before_action :authenticate_user!'],
    ['app/settings.py', "MIDDLEWARE = [\n    'django.middleware.csrf.CsrfViewMiddleware',\n]", "MIDDLEWARE = [\n    # 'django.middleware.csrf.CsrfViewMiddleware',\n]"],
  ];
  for (const [path, before, after] of cases) assert.match(what(op(path, after, before)) ?? '', /was commented out: the check no longer runs/, path);
  const quiet: Array<[string, string, string]> = [
    ['src/Startup.cs', 'app.UseAuthentication();', 'app.UseRouting();\napp.UseAuthentication();'],
    ['src/Startup.cs', 'app.UseAuthentication();', ''],
    ['src/Startup.cs', '// app.UseAuthentication();', '// app.UseAuthentication(); // TODO'],
    ['docs/setup.md', 'app.UseAuthentication();', '// app.UseAuthentication();'],
    ['src/app.js', 'app.use(helmet());', 'app.use(helmet({ contentSecurityPolicy: false }));\n// was: app.use(helmet());'],
  ];
  for (const [path, before, after] of quiet) {
    const found = what(op(path, after, before));
    assert.ok(found === null || !/commented out/.test(found), `${path}: ${found}`);
  }
});

test("an AI service's secret key under a browser-bundled name, or an AI SDK's browser guard switched off, ships the key to every visitor; public keys and server code do not", () => {
  assert.match(what(op('src/lib/ai.ts', "const key = import.meta.env.VITE_ANTHROPIC_API_KEY;\nfetch('https://api.anthropic.com/v1/messages', { headers: { 'x-api-key': key } });")) ?? '', /ships to every browser/);
  assert.match(what(op('src/lib/ai.ts', 'const openai = new OpenAI({ apiKey: process.env.NEXT_PUBLIC_OPENAI_API_KEY });')) ?? '', /ships to every browser/);
  assert.match(what(op('src/lib/ai.ts', "headers: { 'x-api-key': key, 'anthropic-dangerous-direct-browser-access': 'true' }")) ?? '', /every visitor/);
  assert.match(what(op('src/lib/ai.ts', 'const client = new Anthropic({ apiKey, dangerouslyAllowBrowser: true });')) ?? '', /every visitor/);
  assert.equal(what(op('src/lib/firebase.ts', 'initializeApp({ apiKey: import.meta.env.VITE_FIREBASE_API_KEY });')), null, "Firebase's key is meant for the browser");
  assert.equal(what(op('server/ai.ts', 'const client = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY });')), null, 'a server-only name');
  assert.equal(what(op('src/lib/ai.ts', 'const client = new Anthropic({ apiKey, dangerouslyAllowBrowser: true, model });', 'const client = new Anthropic({ apiKey, dangerouslyAllowBrowser: true });')), null, 'already switched off before the edit');
});

test('an off-switch for a security check read from the environment is a weakened control; other switches, an existing one, and settings files are not', () => {
  const added = [
    ["src/modules/lti/lti.service.ts", "const disableValidation = process.env.LTI_DISABLE_SIGNATURE_VALIDATION === 'true';\nif (!disableValidation) { await verify(body); }"],
    ['app/auth.py', 'if os.getenv("SKIP_AUTH") == "1":\n    return user'],
    ['app/views.py', "if os.environ.get('CSRF_DISABLED'):\n    pass"],
    ['main.go', 'if os.Getenv("INSECURE_SKIP_VERIFY") != "" { cfg.InsecureSkipVerify = os.Getenv("INSECURE_SKIP_VERIFY") == "1" }'],
  ];
  for (const [path, text] of added) assert.match(what(op(path, text, 'await verify(body);')) ?? '', /turns a security check off/, path);
  assert.equal(what(op('src/auth.ts', 'if (process.env.DISABLE_AUTH === "true") return next();')), null, 'new code with a development bypass: no check was there to take away');
  assert.equal(what(op('src/telemetry.ts', "if (process.env.DISABLE_TELEMETRY === 'true') return;", 'send(metrics);')), null, 'not a security check');
  assert.equal(what(op('src/lti.ts', "const off = process.env.LTI_DISABLE_SIGNATURE_VALIDATION === 'true'; // renamed", "const disabled = process.env.LTI_DISABLE_SIGNATURE_VALIDATION === 'true';")), null, 'the switch was there before');
  assert.equal(what(op('README.md', 'Set `process.env.SKIP_AUTH` to skip login locally.', 'Log in first.')), null, 'prose');
});

test('an access check against a key written into the code (`if admin_key != "admin123"`, `apiKey === \'letmein\'`) is a control weakened; a key read from the environment, an empty or type check, or a check the file already had is not (held-out set 76)', () => {
  for (const [path, text] of [
    ['backend/main.py', '@app.get("/admin/purchases")\nasync def get_purchases(admin_key: str = Query(...)):\n    if admin_key != "admin123":  # Change this to a secure admin key\n        raise HTTPException(status_code=401)'],
    ['src/server.ts', "app.get('/admin', (req, res) => { if (req.query.apiKey === 'letmein') return res.json(users); res.sendStatus(401); });"],
    ['app/routes.rb', "head :unauthorized unless params[:access_token] == \"s3cr3t-token\""],
    // the frameworks' own refusals, values that only start like placeholders, app keys (second review of 0.106.0)
    ['backend/deps.py', 'if admin_key != "admin123":\n    raise HTTPException(status_code=status.HTTP_401_UNAUTHORIZED)'],
    ['server/main.go', 'if apiKey != "letmein42" { http.Error(w, "nope", http.StatusForbidden); return }'],
    ['src/admin.controller.ts', "if (apiKey !== 'letmein42') throw new UnauthorizedException();"],
    ['src/server.ts', "if (req.query.apiKey !== 'todoapp-admin-2024') return res.sendStatus(401);"],
    ['src/server.ts', "if (req.query.appSecret !== 'k8Jd02mQ') return res.sendStatus(401);"],
  ] as const) {
    assert.match(what(op(path, text)) ?? '', /access check compares the caller's key with a literal/, path);
  }
  for (const [path, text] of [
    ['backend/main.py', 'if admin_key != os.environ["ADMIN_KEY"]:\n    raise HTTPException(status_code=401)'],
    ['src/server.ts', "if (apiKey === '') return res.sendStatus(401);\nif (type === 'api_key') return;"],
    ['docs/api.md', 'if admin_key != "admin123": raise'],
    // a start-up check that a key is set, placeholders, a platform code: no caller refused (review of 0.106.0)
    ['src/ai.ts', "if (!apiKey || apiKey === 'your-api-key-here') throw new Error('Set OPENAI_API_KEY');"],
    ['app/settings.py', "if SECRET_KEY == 'change-me':\n    raise ImproperlyConfigured('set SECRET_KEY')"],
    ['src/auth.ts', "if (authToken === 'null') return res.status(401).end();"],
    ['src/platform.ts', "if (appCode === 'ios') return res.sendStatus(403);"],
  ] as const) {
    assert.equal(what(op(path, text)), null, `${path}: ${text}`);
  }
  const had = '    if admin_key != "admin123":\n        raise HTTPException(status_code=401)';
  assert.equal(what(op('backend/main.py', `${had}\n    return rows`, had)), null, 'the check was there before');
});
