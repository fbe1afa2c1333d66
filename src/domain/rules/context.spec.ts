import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answered, cmd, edit, fetchUrl, only, ran, read, runRules, say, sessionMeta, severityOf, usage, write } from './harness.testing.ts';
import { priceOf } from './context.ts';
import { analyzeText } from '../analyze.ts';
import { AGENTS, session, type Step } from '../synthetic.testing.ts';

test('models used are listed once each', async () => {
  const d = only(await runRules([sessionMeta({ model: 'gpt-5-codex' }), say('hi', 'gpt-5-codex'), say('yo', 'gpt-5')]), 'context/models');
  assert.equal(d.length, 1);
  assert.equal(severityOf(d[0]), 'info');
  assert.match(d[0].detail, /gpt-5-codex, gpt-5/);
  assert.deepEqual(only(await runRules([say('no model recorded')]), 'context/models'), []);
});

test('tokens are summed and the cost is estimated from list prices', async () => {
  const d = only(await runRules([usage('claude-sonnet-4-5-20250929', 1_000_000, 100_000)]), 'context/usage-cost');
  assert.match(d[0].detail, /1\.0M input, 100\.0k output/);
  assert.match(d[0].detail, /about \$4\.50/);
  const unknown = only(await runRules([usage('mystery-model', 1000, 10)]), 'context/usage-cost');
  assert.match(unknown[0].detail, /not estimated/);
  assert.deepEqual(only(await runRules([say('hi')]), 'context/usage-cost'), []);
  assert.deepEqual(priceOf('claude-opus-4-1-20250805'), [15, 75, 1.5, 18.75]);
  assert.deepEqual(priceOf('gemini-2.5-flash-lite'), [0.1, 0.4, 0.025, 0]);
});

test('files changed are counted with the most-changed first', async () => {
  const d = only(await runRules([write('src/a.ts', 'x'), edit('src/a.ts', 'x', 'y'), edit('src/b.ts', 'x', 'y')]), 'context/files-changed');
  assert.match(d[0].detail, /2 files changed; most changed: src\/a\.ts \(2\), src\/b\.ts \(1\)/);
  assert.deepEqual(only(await runRules([read('src/a.ts')]), 'context/files-changed'), []);
});

test('a file tool that returned an error changed nothing; a failed command may have written before it failed', async () => {
  const refused = await runRules(answered(edit('src/a.ts', 'x', 'y'), { isError: true, output: 'BLOCKED: Test files protected during implementation.' }));
  assert.deepEqual(only(refused, 'context/files-changed'), []);
  const notFound = await runRules(answered(edit('src/a.ts', 'x', 'y'), { isError: true, output: 'String to replace not found in file.' }));
  assert.deepEqual(only(notFound, 'context/files-changed'), []);
  const failedCommand = only(await runRules(ran('echo x > src/b.ts && false', { exitCode: 1 })), 'context/files-changed');
  assert.match(failedCommand[0].detail, /1 file changed/);
});

test('commands are counted with their failures', async () => {
  const d = only(await runRules([...ran('npm test', { exitCode: 1 }), ...ran('ls')]), 'context/commands');
  assert.match(d[0].detail, /2 commands run, 1 failed/);
  assert.deepEqual(only(await runRules([read('a')]), 'context/commands'), []);
});

test('remote hosts are listed, local ones are not', async () => {
  const d = only(await runRules([cmd('curl -s https://api.github.com/repos/a/b'), fetchUrl('https://docs.python.org/3/'), cmd('git clone git@github.com:acme/api.git')]), 'context/network-hosts');
  assert.match(d[0].detail, /api\.github\.com, docs\.python\.org, github\.com/);
  assert.deepEqual(only(await runRules([cmd('curl http://localhost:3000/health'), cmd('curl http://127.0.0.1:8080')]), 'context/network-hosts'), []);
});

test('a shell write the sandbox refused (its own words name the path) changed nothing; the write next to it in the same chain did', async () => {
  const sandboxed = await runRules(ran("cat > artifacts/report.json <<'EOF'\n{}\nEOF", { exitCode: 1, isError: true, output: 'zsh:1: operation not permitted: artifacts/report.json' }));
  assert.deepEqual(only(sandboxed, 'context/files-changed'), []);
  const sudo = await runRules(ran('sudo tee /etc/app.conf < app.conf', { exitCode: 1, isError: true, output: 'sudo: a terminal is required to read the password' }));
  assert.deepEqual(only(sudo, 'context/files-changed'), []);
  const partly = only(await runRules(ran('echo a > notes.txt; echo b > /etc/app.conf', { exitCode: 1, isError: true, output: 'bash: /etc/app.conf: Permission denied' })), 'context/files-changed');
  assert.match(partly[0].detail, /^1 file changed; most changed: notes\.txt/);
});

test('a refusal about another file of the chain, or sudo stopping a later step after `;`, leaves the earlier write counted', async () => {
  const other = only(await runRules(ran('echo a > report.json; echo b > /etc/report.json', { exitCode: 1, isError: true, output: 'bash: /etc/report.json: Permission denied' })), 'context/files-changed');
  assert.match(other[0].detail, /^1 file changed; most changed: report\.json/);
  const sudoLater = only(await runRules(ran('echo a > notes.txt; sudo tee /etc/app.conf < app.conf', { exitCode: 1, isError: true, output: 'sudo: a terminal is required to read the password' })), 'context/files-changed');
  assert.match(sudoLater[0].detail, /notes\.txt/);
});

for (const agent of AGENTS) {
  test(`${agent}: the MCP servers whose tools the agent called, each tool with its count, are one info finding (what the session did through services that no shell command shows); none without an MCP call`, async () => {
    const steps: Step[] = [
      { prompt: 'deploy the function and check the table' },
      { mcp: 'supabase', tool: 'deploy_edge_function', args: { name: 'tryon' }, output: 'ok' },
      { mcp: 'supabase', tool: 'deploy_edge_function', args: { name: 'tryon' }, output: 'ok' },
      { mcp: 'supabase', tool: 'execute_sql', args: { query: 'select 1' }, output: '[]' },
      { mcp: 'github', tool: 'create_pull_request', args: { title: 'x' }, output: 'ok' },
      { say: 'Done.' },
    ];
    const found = (await analyzeText(session(agent, steps))).findings.filter((f) => f.rule === 'context/mcp-tools');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.severity, 'info');
    assert.match(found[0]!.detail, /^4 calls to 2 MCP servers: supabase: deploy_edge_function ×2, execute_sql; github: create_pull_request\.$/);
    const none = (await analyzeText(session(agent, [{ prompt: 'fix it' }, { bash: 'npm test', output: 'ok' }, { say: 'Done.' }]))).findings.filter((f) => f.rule === 'context/mcp-tools');
    assert.deepEqual(none, []);
    // a hostile log's long names stay short in the finding (the fourteenth review)
    const long = (await analyzeText(session(agent, [{ prompt: 'x' }, { mcp: 's'.repeat(5_000), tool: 't'.repeat(5_000), args: {}, output: 'ok' }, { say: 'Done.' }]))).findings.filter((f) => f.rule === 'context/mcp-tools');
    assert.ok(long.length === 1 && long[0]!.detail.length < 300, String(long[0]?.detail.length));
  });
}
