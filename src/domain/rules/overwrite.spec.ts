import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answered, only, prompt, ran, read, runRules, severityOf, write } from './harness.testing.ts';

const OUT = 'destructive/outside-file-replaced';
const JOBS = '/home/dev/.openclaw/cron/jobs.json';
const HEREDOC = `cat << 'EOF' > ${JOBS}\n[{"name": "hourly", "schedule": "0 * * * *"}]\nEOF`;

test('a file outside the tree that a listing showed, replaced whole by a heredoc, is a warning that says its content is gone', async () => {
  const drafts = await runRules([
    prompt('add an hourly job that refreshes the media list'),
    ...ran('find /home/dev/.openclaw -name "*.json"', { output: `${JOBS}\n/home/dev/.openclaw/update-check.json\n` }),
    ...ran(HEREDOC),
  ]);
  const found = only(drafts, OUT);
  assert.deepEqual(found.map(severityOf), ['warning']);
  assert.match(found[0].detail, /listed it but never showed its content/);
});

test('names listed by `ls` of a directory count as existing files of that directory', async () => {
  const drafts = await runRules([
    ...ran('ls ~/.config/app', { output: 'config.toml\nthemes\n' }),
    ...ran('echo "theme = dark" > ~/.config/app/config.toml'),
  ]);
  assert.deepEqual(only(drafts, OUT).map(severityOf), ['warning']);
});

test('a file read first and replaced by text that keeps few of its lines is a warning; one that keeps most is an edit', async () => {
  const old = 'alias ll="ls -l"\nexport PATH=$HOME/bin:$PATH\nexport EDITOR=vim\nsource ~/.work-env\n';
  const lossy = await runRules([
    ...answered(read('/home/dev/.bashrc'), { output: old }),
    ...ran('cat > ~/.bashrc <<EOF\nexport EDITOR=nano\nEOF'),
  ]);
  assert.deepEqual(only(lossy, OUT).map(severityOf), ['warning']);
  assert.match(only(lossy, OUT)[0].detail, /keeps 0 % of the 4 lines/);
  const kept = await runRules([
    ...answered(read('/home/dev/.bashrc'), { output: old }),
    write('/home/dev/.bashrc', `${old}export NODE_ENV=development\n`),
  ]);
  assert.deepEqual(only(kept, OUT), []);
});

test('a new file, a file copied first, a file the agent wrote itself, temp space and agent stores are not reported', async () => {
  const drafts = await runRules([
    ...ran(`cat << 'EOF' > /home/dev/.config/new-tool/settings.json\n{}\nEOF`),
    ...ran('ls /home/dev/.openclaw/cron', { output: 'jobs.json\n' }),
    ...ran(`cp ${JOBS} ${JOBS}.bak`),
    ...ran(HEREDOC),
    ...ran('echo one > ~/.notes.txt'),
    ...ran('ls ~', { output: '.notes.txt\nproject\n' }),
    ...ran('echo two > ~/.notes.txt'),
    ...ran('ls /tmp/build', { output: 'out.log\n' }),
    ...ran('echo x > /tmp/build/out.log'),
    ...ran('ls ~/.claude/projects/p', { output: 'memory.md\n' }),
    ...ran('echo x > ~/.claude/projects/p/memory.md'),
  ]);
  assert.deepEqual(only(drafts, OUT), []);
});

test('a replacement the request named is info; one that was refused did not take effect and is info', async () => {
  const named = await runRules([
    prompt('overwrite ~/.openclaw/cron/jobs.json with a single hourly job'),
    ...ran(`find /home/dev/.openclaw`, { output: `${JOBS}\n` }),
    ...ran(HEREDOC),
  ]);
  assert.deepEqual(only(named, OUT).map(severityOf), ['info']);
  const refused = await runRules([
    ...ran(`find /home/dev/.openclaw`, { output: `${JOBS}\n` }),
    ...ran(HEREDOC, { exitCode: 1, output: `bash: ${JOBS}: Permission denied` }),
  ]);
  assert.deepEqual(only(refused, OUT).map(severityOf), ['info']);
  assert.match(only(refused, OUT)[0].detail, /Permission denied/);
});
