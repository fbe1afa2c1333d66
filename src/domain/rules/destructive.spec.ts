import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cmd, only, ran, runRules, sessionMeta, severityOf, write, type RunOptions } from './testing.ts';

async function hits(commands: string[], rule: string, opts?: RunOptions) {
  return only(await runRules(commands.map((c) => cmd(c)), opts), rule);
}

async function severities(command: string, rule: string, opts?: RunOptions): Promise<string[]> {
  return (await hits([command], rule, opts)).map(severityOf);
}

const RM = 'destructive/rm-outside-worktree';
const ROOT = 'destructive/rm-worktree-root';
const DISK = 'destructive/disk-wipe';
const SQL = 'destructive/destructive-sql';
const INFRA = 'destructive/infra-destroy';
const PUSH = 'destructive/force-push';
const DISCARD = 'destructive/git-discard';

test('rm -rf of /, home, system dirs or other projects is critical, in any flag spelling', async () => {
  for (const c of [
    'rm -rf /', 'rm -fr ~', 'rm -r -f $HOME', 'rm --recursive --force /etc', 'sudo rm -Rf /usr/lib', 'rm -rf /*',
    'rm -rf ../other-project', 'bash -c "rm -rf ~/Documents"', 'rm -rf --no-preserve-root /', 'cd / && rm -rf home',
  ]) {
    assert.deepEqual(await severities(c, RM), ['critical'], c);
  }
});

test('rm -rf of build output inside the tree, of /tmp, or of text that only mentions rm is not a finding', async () => {
  const drafts = await runRules([
    cmd('rm -rf node_modules dist .next coverage'),
    cmd('rm -rf ./build && npm run build'),
    cmd('rm -rf src/generated __pycache__'),
    cmd('rm -rf /tmp/vouch-test-123'),
    cmd('cd /tmp && rm -rf scratch'),
    cmd('echo "never run rm -rf /"'),
    cmd('git commit -m "docs: warn about rm -rf ~"'),
    cmd("cat > notes.md <<'EOF'\nrm -rf /\nEOF"),
    cmd('rm -f /etc/hosts.bak'),
  ]);
  assert.deepEqual(only(drafts, RM), []);
  assert.deepEqual(only(drafts, ROOT), []);
});

test('rm -rf of caches and build output outside the tree is only a warning', async () => {
  assert.deepEqual(await severities('rm -rf ~/.cache/pip', RM), ['warning']);
  assert.deepEqual(await severities('rm -rf ~/.npm/_cacache', RM), ['warning']);
  assert.deepEqual(await severities('sudo rm -rf /usr/local/go', RM), ['warning']);
});

test('without a known cwd only unmistakable rm targets count', async () => {
  assert.deepEqual(await severities('rm -rf /home/dev/project/dist', RM, { cwd: null }), []);
  assert.deepEqual(await severities('rm -rf /', RM, { cwd: null }), ['critical']);
});

test('rm -rf of the whole tree or its .git is a warning', async () => {
  assert.equal((await hits(['rm -rf .git'], ROOT)).length, 1);
  assert.equal((await hits(['rm -rf .'], ROOT)).length, 1);
  assert.equal((await hits(['rm -rf ./src/tmp', 'rm -rf .github'], ROOT)).length, 0);
});

test('dd onto a disk, mkfs on a device and shred are critical', async () => {
  for (const c of ['dd if=/dev/zero of=/dev/sda bs=1M', 'sudo mkfs.ext4 /dev/nvme0n1p1', 'shred -u ~/notes.txt', 'wipefs -a /dev/sdb', 'cat image.iso > /dev/sdc']) {
    assert.deepEqual(await severities(c, DISK), ['critical'], c);
  }
});

test('dd into files, /dev/null and shred under /tmp are fine', async () => {
  assert.deepEqual(await hits(['dd if=/dev/zero of=./disk.img bs=1M count=10', 'dd if=big.bin of=/dev/null', 'mkfs.ext4 ./disk.img', 'shred -u /tmp/key.tmp'], DISK), []);
});

test('destructive SQL sent to a database client is critical', async () => {
  for (const c of [
    'psql -c "DROP TABLE users;"',
    "mysql -u root -e 'TRUNCATE orders'",
    'sqlite3 app.db "DELETE FROM sessions"',
    "psql \"$DATABASE_URL\" <<'SQL'\nBEGIN;\nDROP SCHEMA public CASCADE;\nSQL",
    'echo "DROP DATABASE shop" | mysql -h db.internal',
    'dropdb shop_dev',
  ]) {
    assert.deepEqual(await severities(c, SQL), ['critical'], c);
  }
});

test('a migration file written with DROP is not execution; running it is', async () => {
  const wrote = write('migrations/002_drop_legacy.sql', 'DROP TABLE legacy_orders;');
  assert.deepEqual(only(await runRules([wrote]), SQL), []);
  const drafts = await runRules([write('migrations/002_drop_legacy.sql', 'DROP TABLE legacy_orders;'), cmd('psql -d shop -f migrations/002_drop_legacy.sql')]);
  assert.equal(only(drafts, SQL).length, 1);
});

test('scoped deletes, throwaway databases and searches for SQL are not findings', async () => {
  assert.deepEqual(await hits([
    'psql -c "DELETE FROM sessions WHERE expires_at < now()"',
    'sqlite3 :memory: "DROP TABLE t"',
    'sqlite3 /tmp/test.db "DROP TABLE t"',
    'grep -rn "DROP TABLE" migrations/',
    'psql -c "SELECT count(*) FROM users"',
  ], SQL), []);
});

test('tearing down infrastructure is critical; helm outside prod is a warning', async () => {
  assert.deepEqual(await severities('kubectl delete namespace staging', INFRA), ['critical']);
  assert.deepEqual(await severities('terraform destroy -auto-approve', INFRA), ['critical']);
  assert.deepEqual(await severities('terraform apply -destroy', INFRA), ['critical']);
  assert.deepEqual(await severities('helm uninstall api -n production', INFRA), ['critical']);
  assert.deepEqual(await severities('helm uninstall api -n dev', INFRA), ['warning']);
});

test('plans and single-resource deletes are not infrastructure teardown', async () => {
  assert.deepEqual(await hits(['terraform plan -destroy', 'kubectl delete pod api-7f9c', 'kubectl get ns', 'terraform apply'], INFRA), []);
});

test('force pushes to the default branch are critical, elsewhere a warning', async () => {
  assert.deepEqual(await severities('git push --force origin main', PUSH), ['critical']);
  assert.deepEqual(await severities('git push origin +master', PUSH), ['critical']);
  assert.deepEqual(await severities('git push --force-with-lease origin feature/login', PUSH), ['warning']);
  const onMaster = await runRules([sessionMeta({ branch: 'master' }), cmd('git push -f')]);
  assert.deepEqual(only(onMaster, PUSH).map(severityOf), ['critical']);
  const switched = await runRules([sessionMeta({ branch: 'main' }), cmd('git checkout -b fix/typo'), cmd('git push -f')]);
  assert.deepEqual(only(switched, PUSH).map(severityOf), ['warning']);
});

test('ordinary pushes are not force pushes', async () => {
  assert.deepEqual(await hits(['git push origin main', 'git push -u origin feature/x', 'git push --tags'], PUSH), []);
});

test('git commands that discard work are a warning, merged per kind', async () => {
  const drafts = only(await runRules([
    cmd('git reset --hard HEAD~1'), cmd('git reset --hard origin/main'), cmd('git clean -fdx'), cmd('git branch -D old-work'),
    cmd('git checkout -- .'), cmd('git restore .'), cmd('git stash drop'),
  ]), DISCARD);
  assert.equal(drafts.length, 7);
  assert.equal(new Set(drafts.map((d) => d.key)).size, 6);
  assert.ok(drafts.every((d) => severityOf(d) === 'warning'));
});

test('safe git commands are not discards', async () => {
  assert.deepEqual(await hits([
    'git reset --soft HEAD~1', 'git reset HEAD file.ts', 'git clean -n', 'git checkout -- package-lock.json',
    'git restore --staged .', 'git branch -d merged-branch', 'git checkout -b new-feature', 'git stash list',
  ], DISCARD), []);
});

test('evidence points at the event and quotes the command', async () => {
  const drafts = only(await runRules([...ran('ls'), cmd('rm -rf ~/work/other')]), RM);
  assert.equal(drafts[0].evidence[0].index, 2);
  assert.match(drafts[0].evidence[0].excerpt, /rm -rf ~\/work\/other/);
});
