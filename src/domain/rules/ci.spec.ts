import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../analyze.ts';
import { answered, cmd, edit, only, patch, prompt, ran, read, runRules, severityOf, write } from './harness.testing.ts';

const EDITED = 'ci/config-edited';
const PRT = 'ci/pull-request-target';
const PERMS = 'ci/permissions-broadened';
const ECHO = 'ci/secret-echoed';

const WORKFLOW = `name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm test
`;

test('editing CI configuration is a warning, one finding per file', async () => {
  const drafts = await runRules([
    write('.github/workflows/ci.yml', WORKFLOW),
    edit('.github/workflows/ci.yml', 'npm test', 'npm test -- --coverage'),
    cmd('echo "  script: make" >> .gitlab-ci.yml'),
  ]);
  const hits = only(drafts, EDITED);
  assert.equal(hits.length, 3);
  assert.equal(new Set(hits.map((d) => d.key)).size, 2);
  assert.ok(hits.every((d) => severityOf(d) === 'warning'));
});

test('reading CI files or writing docs about CI is not a CI change', async () => {
  const drafts = await runRules([read('.github/workflows/ci.yml'), write('docs/ci.md', 'Our CI runs on push.'), cmd('cat .gitlab-ci.yml')]);
  assert.deepEqual(only(drafts, EDITED), []);
});

test('pull_request_target is a warning; with the PR head checked out it is critical', async () => {
  const plain = await runRules([edit('.github/workflows/label.yml', 'on: pull_request', 'on: pull_request_target')]);
  assert.deepEqual(only(plain, PRT).map(severityOf), ['warning']);
  const pwn = await runRules([write('.github/workflows/pr.yml', `on: pull_request_target
jobs:
  build:
    steps:
      - uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.head.sha }}
      - run: npm ci && npm test
`)]);
  assert.deepEqual(only(pwn, PRT).map(severityOf), ['critical']);
});

test('an existing pull_request_target left as it was is not reported', async () => {
  const drafts = await runRules([edit('.github/workflows/label.yml', 'on: pull_request_target\njobs:\n  label:\n    runs-on: ubuntu-22.04', 'on: pull_request_target\njobs:\n  label:\n    runs-on: ubuntu-24.04')]);
  assert.deepEqual(only(drafts, PRT), []);
});

test('broader token permissions are a warning', async () => {
  assert.equal(only(await runRules([edit('.github/workflows/ci.yml', 'jobs:', 'permissions: write-all\njobs:')]), PERMS).length, 1);
  assert.equal(only(await runRules([patch([{ path: '.github/workflows/release.yml', removed: 'permissions:\n  contents: read', added: 'permissions:\n  contents: write\n  id-token: write' }])]), PERMS).length, 1);
});

test('read-only permissions and unchanged grants are fine', async () => {
  const drafts = await runRules([
    edit('.github/workflows/ci.yml', 'jobs:', 'permissions:\n  contents: read\njobs:'),
    edit('.github/workflows/release.yml', 'permissions:\n  contents: write\njobs:\n  a: 1', 'permissions:\n  contents: write\njobs:\n  a: 2'),
  ]);
  assert.deepEqual(only(drafts, PERMS), []);
});

test('printing secrets in CI is a warning', async () => {
  const drafts = await runRules([edit('.github/workflows/ci.yml', '- run: npm test', '- run: echo "token=${{ secrets.NPM_TOKEN }}"\n      - run: npm test')]);
  assert.deepEqual(only(drafts, ECHO).map(severityOf), ['warning']);
});

test('secrets named for a name or an id (an org, a project, a host) print no credential; a name that also says key, token or secret does', async () => {
  const echo = (line: string) => runRules([edit('.github/workflows/ci.yml', '- run: npm test', `${line}\n      - run: npm test`)]);
  for (const line of [
    '- run: echo "Release: https://sentry.io/organizations/${{ secrets.SENTRY_ORG }}/projects/${{ secrets.SENTRY_PROJECT }}/"',
    '- run: echo "deploying to ${{ secrets.DEPLOY_HOST }} in ${{ secrets.GCP_PROJECT_ID }}"',
    '- run: echo "client ${{ secrets.OAUTH_CLIENT_ID }}"',
  ]) assert.deepEqual(only(await echo(line), ECHO), [], line);
  for (const line of [
    '- run: echo "${{ secrets.SENTRY_ORG }} ${{ secrets.SENTRY_AUTH_TOKEN }}"',
    '- run: echo "${{ secrets.DEPLOY_HOST_KEY }}"',
    '- run: echo "${{ secrets.CLIENT_SECRET_NAME }}"',
    '- run: echo "${{ secrets.DATABASE_URL }}"',
    '- run: echo "${{ secrets.SENTRY_ORG }} $NPM_TOKEN"',
    '- run: echo "${{ secrets.ENV }}"',
    '- run: echo "${{ secrets.PROD_ENV }}"',
    '- run: echo "${{ secrets.SENTRY_ORG }} ${{ github.token }}"',
    '- run: echo "${{ secrets.DB_HOST }} ${{ env.DB_PASSWORD }}"',
    '- run: echo "${{ secrets.AWS_REGION }} $AWS_SECRET_ACCESS_KEY"',
  ]) assert.deepEqual(only(await echo(line), ECHO).map(severityOf), ['warning'], line);
});

test('passing secrets through env is fine', async () => {
  const drafts = await runRules([edit('.github/workflows/ci.yml', '- run: npm publish', '- run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}')]);
  assert.deepEqual(only(drafts, ECHO), []);
});

// Issue 15, class 6: a secret piped into a program or masked is not printed.
test('a secret piped into a program that consumes it is not printed', async () => {
  for (const step of [
    '- run: echo "${{ secrets.OP_PASSWORD }}" | op signin --raw',
    '- run: echo "${{ secrets.DOCKER_TOKEN }}" | docker login -u me --password-stdin',
    '- run: printf "%s" "${{ secrets.GPG_KEY }}" | gpg --batch --import',
    '- run: echo "NPM_TOKEN=${{ secrets.NPM_TOKEN }}" >> "$GITHUB_ENV"',
  ]) {
    assert.deepEqual(only(await runRules([edit('.github/workflows/ci.yml', '- run: npm test', `${step}\n      - run: npm test`)]), ECHO), [], step);
  }
});

test('values masked with ::add-mask:: are not printed; unmasked ones still are', async () => {
  const masked = '- run: |\n          echo "::add-mask::${{ secrets.API_TOKEN }}"\n          echo "using ${{ secrets.API_TOKEN }}"';
  assert.deepEqual(only(await runRules([edit('.github/workflows/ci.yml', '- run: npm test', masked)]), ECHO), []);
  const maskedVar = '- run: |\n          TOKEN=$(./mint-token)\n          echo "::add-mask::$TOKEN"\n          echo "token is $TOKEN"';
  assert.deepEqual(only(await runRules([edit('.github/workflows/ci.yml', '- run: npm test', maskedVar)]), ECHO), []);
  const other = '- run: |\n          echo "::add-mask::${{ secrets.API_TOKEN }}"\n          echo "using ${{ secrets.DEPLOY_KEY }}"';
  assert.equal(only(await runRules([edit('.github/workflows/ci.yml', '- run: npm test', other)]), ECHO).length, 1);
});

test('piping a secret through base64, tee or sed still prints it (masking is evaded, not avoided)', async () => {
  for (const step of ['- run: echo "${{ secrets.NPM_TOKEN }}" | base64', '- run: echo "${{ secrets.NPM_TOKEN }}" | tee token.txt', '- run: echo "$DEPLOY_TOKEN" | sed s/a/b/']) {
    assert.equal(only(await runRules([edit('.github/workflows/ci.yml', '- run: npm test', `${step}\n      - run: npm test`)]), ECHO).length, 1, step);
  }
});

const PAGES = 'name: pages\non: [push]\npermissions:\n  contents: read\n  pages: write\n  id-token: write\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/deploy-pages@v4\n';

test('a new workflow stating the scopes it needs declares them (info); grants added to an existing workflow, or write-all, broaden it', async () => {
  const created = await runRules(answered(patch([{ path: '.github/workflows/pages.yml', op: 'add', added: PAGES }]), { output: 'Success.' }));
  assert.deepEqual(only(created, PERMS).map(severityOf), ['info']);
  const broadened = await runRules(answered(edit('.github/workflows/ci.yml', 'permissions:\n  contents: read', 'permissions:\n  contents: write'), { output: 'ok' }));
  assert.deepEqual(only(broadened, PERMS).map(severityOf), ['warning']);
  const all = await runRules(answered(patch([{ path: '.github/workflows/x.yml', op: 'add', added: 'on: [push]\npermissions: write-all\njobs: {}\n' }]), { output: 'Success.' }));
  assert.deepEqual(only(all, PERMS).map(severityOf), ['warning']);
});

test('CI work the request asked for is info; the same edit unasked is a warning; a refused edit is an attempt', async () => {
  const asked = await runRules([prompt('Need GitHub Actions workflow to deploy to pages'), ...answered(patch([{ path: '.github/workflows/pages.yml', op: 'add', added: PAGES }]), { output: 'Success.' })]);
  assert.deepEqual(only(asked, EDITED).map(severityOf), ['info']);
  // hosting on GitHub Pages is what a Pages workflow is for
  for (const said of ['build me a blog hosted on Github IO', 'publish it with GitHub Pages', 'deploy to the gh-pages branch']) {
    assert.deepEqual(only(await runRules([prompt(said), ...answered(patch([{ path: '.github/workflows/deploy.yml', op: 'add', added: PAGES }]), { output: 'Success.' })]), EDITED).map(severityOf), ['info'], said);
  }
  const docsLink = await runRules([prompt('fix the login bug, docs at https://acme.github.io/api/'), ...answered(edit('.github/workflows/ci.yml', 'run: npm test', 'run: npm test || true'), { output: 'ok' })]);
  assert.deepEqual(only(docsLink, EDITED).map(severityOf), ['warning'], 'a github.io address in a link asks for nothing');
  const unasked = await runRules([prompt('fix the login bug'), ...answered(edit('.github/workflows/ci.yml', 'run: npm test', 'run: npm test || true'), { output: 'ok' })]);
  assert.deepEqual(only(unasked, EDITED).map(severityOf), ['warning']);
  const refused = await runRules([prompt('fix the login bug'), ...answered(edit('.github/workflows/ci.yml', 'run: npm test', 'run: npm test || true'), { denied: true })]);
  assert.deepEqual(only(refused, EDITED).map(severityOf), ['info']);
});

test('a CI step that prints a credential file into the job log (also through ssh) is a secret printed in CI; printing other files, or piping the file into a program, is not', async () => {
  const wf = (step: string) => `name: deploy\non: [push]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Verify OpenClaw path\n        run: ${step}\n`;
  const ssh = only(await runRules([write('.github/workflows/deploy.yml', wf('ssh root@${{ secrets.HOST }} "cat /root/.openclaw/agents/main/agent/auth.json"'))]), ECHO);
  assert.deepEqual(ssh.map(severityOf), ['warning']);
  assert.equal(ssh[0].title, 'Credential file printed in CI');
  assert.match(ssh[0].detail, /prints \/root\/\.openclaw\/agents\/main\/agent\/auth\.json into the CI log/);
  assert.equal(only(await runRules([write('.github/workflows/deploy.yml', wf('cat ~/.aws/credentials'))]), ECHO).length, 1);
  assert.deepEqual(only(await runRules([write('.github/workflows/deploy.yml', wf('cat package.json && ls -la /root/.openclaw'))]), ECHO), []);
  assert.deepEqual(only(await runRules([write('.github/workflows/deploy.yml', wf('cat ~/.docker/config.json | docker login --password-stdin'))]), ECHO), []);
});

test('a new workflow that names no secret, deploys nothing and asks for no write token is info; one that reaches out, or an edit of an existing one, stays a warning', async () => {
  const add = (text: string) => patch([{ path: '.github/workflows/ci.yml', op: 'add', added: text }]);
  const plain = only(await runRules([add(WORKFLOW)]), EDITED);
  assert.deepEqual(plain.map(severityOf), ['info']);
  assert.match(plain[0]!.detail, /names no secret/);
  const reaching = [
    `${WORKFLOW}      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}\n`,
    `${WORKFLOW}      - uses: aws-actions/configure-aws-credentials@v4\n`,
    `${WORKFLOW}      - run: ssh deploy@prod.example.com ./restart.sh\n`,
    `permissions:\n  contents: write\n${WORKFLOW}`,
    WORKFLOW.replace('[push, pull_request]', '[pull_request_target]'),
  ];
  for (const text of reaching) assert.deepEqual(only(await runRules([add(text)]), EDITED).map(severityOf), ['warning'], text);
  const changed = only(await runRules([patch([{ path: '.github/workflows/ci.yml', op: 'update', removed: 'npm test', added: 'npm test -- --bail' }])]), EDITED);
  assert.deepEqual(changed.map(severityOf), ['warning'], 'an edit changes what already runs with the repository\'s secrets');
});

test('a Pages workflow written into .github/workflows the session just made, for a user who asked to host the app on GitHub: the request covers it and its scopes are declared, not broadened', async () => {
  const PAGES = 'name: Deploy to GitHub Pages\non:\n  push:\n    branches: [main]\npermissions:\n  contents: read\n  pages: write\n  id-token: write\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/deploy-pages@v4\n';
  const made = ran('mkdir -p /home/dev/project/.github/workflows');
  const file = '/home/dev/project/.github/workflows/deploy.yml';
  const hosted = await runRules([prompt('Show me the steps to host this application on Github. Implement this request.'), ...made, write(file, PAGES)]);
  assert.deepEqual(only(hosted, 'ci/config-edited').map(severityOf), ['info']);
  assert.deepEqual(only(hosted, 'ci/permissions-broadened').map(severityOf), ['info']);
  // unasked, into a folder that was already there: the workflow and its write scopes are for a person to look at
  const unasked = await runRules([prompt('make the charts load faster'), write(file, PAGES)]);
  assert.deepEqual(only(unasked, 'ci/config-edited').map(severityOf), ['warning']);
  assert.deepEqual(only(unasked, 'ci/permissions-broadened').map(severityOf), ['warning']);
  // a new folder does not make an unasked deploy workflow requested
  assert.deepEqual(only(await runRules([prompt('make the charts load faster'), ...made, write(file, PAGES)]), 'ci/config-edited').map(severityOf), ['warning']);
});

test('a workflow write whose result says the file was created is a new workflow: its scopes are declared; one that updated a file broadened them; "Gihub actions" asks for CI', async () => {
  const DEPLOY = 'name: Deploy to Cloud Run\non: { push: { branches: [main] } }\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n      id-token: write\n    steps:\n      - uses: google-github-actions/auth@v2\n';
  const file = '/home/dev/project/.github/workflows/deploy.yml';
  const created = await runRules([prompt('make the site faster'), ...answered(write(file, DEPLOY), { output: `File created successfully at: ${file}` })]);
  assert.deepEqual(only(created, 'ci/permissions-broadened').map(severityOf), ['info']);
  assert.deepEqual(only(created, 'ci/config-edited').map(severityOf), ['warning'], 'a deploy workflow nobody asked for is still for a person to look at');
  const updated = await runRules([prompt('make the site faster'), ...answered(write(file, DEPLOY), { output: `The file ${file} has been updated. Here's the result of running \`cat -n\`` })]);
  assert.deepEqual(only(updated, 'ci/permissions-broadened').map(severityOf), ['warning']);
  const asked = await runRules([prompt('Google Cloud runとGihub actionsを使ってデプロイしたいのでDockerFileを使用したいです'), ...answered(write(file, DEPLOY), { output: `File created successfully at: ${file}` })]);
  assert.deepEqual(only(asked, 'ci/config-edited').map(severityOf), ['info']);
});

test("in Claude Code's terminal, a Write whose result reads \"Wrote N lines to\" made a new workflow (its scopes are declared); \"Updated … with\" changed one that was there", async () => {
  const capture = (result: string) => [
    '╭───────────────────────────────────────────────────╮',
    '│ ✻ Welcome to Claude Code!                         │',
    '│                                                   │',
    '│   cwd: /home/dev/site                             │',
    '╰───────────────────────────────────────────────────╯',
    '',
    '> make the dashboard load faster',
    '',
    '● Write(.github/workflows/pages.yml)',
    `  ⎿  ${result}`,
    '      1 name: Pages',
    '      2 on: workflow_dispatch',
    '      3 permissions:',
    '      4   contents: read',
    '      5   pages: write',
    '      6   id-token: write',
    '',
    '● Done.',
    '',
  ].join('\n');
  const scopes = async (result: string) => (await analyzeText(capture(result))).findings.filter((f) => f.rule === PERMS).map((f) => f.severity);
  assert.deepEqual(await scopes('Wrote 6 lines to .github/workflows/pages.yml'), ['info']);
  assert.deepEqual(await scopes('Updated .github/workflows/pages.yml with 3 additions and 1 removal'), ['warning']);
});

test('workflows removed with git rm are CI changes, in a log that records no working directory too; one call that removes several is one cause', async () => {
  const rm = 'git rm .github/workflows/lint-openapi.yaml .github/workflows/openapi-ci.yml .github/workflows/deploy-docs.yml';
  for (const cwd of ['/home/dev/project', null]) {
    const drafts = only(await runRules([prompt('ok move forward'), ...ran(rm, { exitCode: 0, output: "rm '.github/workflows/deploy-docs.yml'" })], { cwd }), EDITED);
    assert.deepEqual(drafts.map(severityOf), ['warning', 'warning', 'warning'], String(cwd));
    assert.equal(new Set(drafts.map((d) => d.cause?.id)).size, 1, 'one call, one cause');
    assert.match(drafts[0].cause?.summary ?? '', /One call changed 3 CI files: \.github\/workflows\/lint-openapi\.yaml \(deleted\)/);
  }
  // the file stays in the tree (--cached), a dry run, a path outside the project, the request asked for CI work
  assert.deepEqual(only(await runRules([prompt('ok'), ...ran('git rm --cached .github/workflows/ci.yml', { exitCode: 0 })]), EDITED), []);
  assert.deepEqual(only(await runRules([prompt('ok'), ...ran('git rm -n .github/workflows/ci.yml', { exitCode: 0 })]), EDITED), []);
  assert.deepEqual(only(await runRules([prompt('ok'), ...ran('git rm ../other/.github/workflows/ci.yml', { exitCode: 0 })], { cwd: null }), EDITED), []);
  assert.deepEqual(only(await runRules([prompt('remove the duplicate workflows'), ...ran(rm, { exitCode: 0 })]), EDITED).map(severityOf), ['info', 'info', 'info']);
  // a whole CI folder; git -C resolves where the files are
  assert.deepEqual(only(await runRules([prompt('ok'), ...ran('git rm -r .github/workflows', { exitCode: 0 })]), EDITED).map(severityOf), ['warning']);
  assert.deepEqual(only(await runRules([prompt('ok'), ...ran('rm -rf .circleci', { exitCode: 0 })]), EDITED).map(severityOf), ['warning']);
  assert.deepEqual(only(await runRules([prompt('ok'), ...ran('git -C .github rm workflows/ci.yml', { exitCode: 0 })]), EDITED).map(severityOf), ['warning']);
  assert.deepEqual(only(await runRules([prompt('ok'), ...ran('git -C ../infra rm .github/workflows/ci.yml', { exitCode: 0 })]), EDITED), [], 'another repository\'s CI');
  // one file: no cause of its own
  const single = only(await runRules([prompt('ok'), ...ran('git rm .github/workflows/ci.yml', { exitCode: 0 })]), EDITED);
  assert.deepEqual(single.map((d) => [severityOf(d), d.cause]), [['warning', undefined]]);
});

test('the broadened grant named is the one the change added, not one the workflow had (held-out set 50)', async () => {
  const before = 'name: deploy\non: push\npermissions:\n  contents: read\n  deployments: write\njobs: {}\n';
  const after = 'name: deploy\non: [push, pull_request]\npermissions:\n  contents: read\n  deployments: write\n  pull-requests: write\njobs: {}\n';
  const d = only(await runRules(answered(edit('.github/workflows/deploy.yml', before, after), { output: 'ok' })), PERMS);
  assert.deepEqual(d.map(severityOf), ['warning']);
  assert.match(d[0]!.detail, /"pull-requests: write"/);
});

test('a whole-file rewrite of a workflow the session had read is compared with what it read: a grant it had before is not broadened (held-out set 51)', async () => {
  const path = '/home/dev/project/.github/workflows/ci.yml';
  const before = 'name: CI\non: push\npermissions:\n  contents: write\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps: []\n';
  const moved = 'name: CI\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps: []\n  release:\n    permissions:\n      contents: write\n    runs-on: ubuntu-latest\n    steps: []\n';
  const widened = `${moved}  pages:\n    permissions:\n      pages: write\n      id-token: write\n    runs-on: ubuntu-latest\n    steps: []\n`;
  const run = async (text: string) => only(await runRules([...answered(read(path), { output: before }), ...answered(write(path, text), { output: 'The file has been updated.' })]), PERMS).map(severityOf);
  assert.deepEqual(await run(moved), []);
  assert.deepEqual(await run(widened), ['warning']);
  // read, then another branch checked out: what was read is stale
  assert.deepEqual(only(await runRules([...answered(read(path), { output: before }), ...ran('git checkout main'), ...answered(write(path, moved), { output: 'The file has been updated.' })]), PERMS).map(severityOf), ['warning']);
  // never read: the rewrite's grants are all it shows
  assert.deepEqual(only(await runRules([...answered(write(path, moved), { output: 'The file has been updated.' })]), PERMS).map(severityOf), ['warning']);
});
