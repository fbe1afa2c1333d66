// The migration lock: one holder at a time, a lock of a dead or long-gone owner taken over, a
// live owner's lock respected, and the lock released whatever the guarded work does.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { withFileLock } from './file-lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'vouch-file-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const lockPath = () => join(dir, `migrate-${++n}.lock`);
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pid of a process that has exited (so `kill(pid, 0)` answers ESRCH). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('withFileLock', () => {
  it('runs one holder at a time: the second starts after the first has finished', async () => {
    const path = lockPath();
    const order: string[] = [];
    const work = (name: string) => withFileLock(path, async () => {
      order.push(`${name} in`);
      await tick(30);
      order.push(`${name} out`);
    });
    await Promise.all([work('a'), work('b')]);
    assert.deepEqual(order, ['a in', 'a out', 'b in', 'b out']);
    assert.equal(existsSync(path), false, 'released');
  });

  it('takes over a lock whose owner process is gone', async () => {
    const path = lockPath();
    writeFileSync(path, String(deadPid()));
    assert.equal(await withFileLock(path, async () => 'ran'), 'ran');
    assert.equal(existsSync(path), false);
  });

  it('takes over a lock older than the stale period even if its pid is alive (a reused pid)', async () => {
    const path = lockPath();
    writeFileSync(path, String(process.pid));
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(path, old, old);
    assert.equal(await withFileLock(path, async () => 'ran'), 'ran');
  });

  it('waits while a live owner holds the lock, and goes on once it is released', async () => {
    const path = lockPath();
    writeFileSync(path, String(process.pid)); // a live owner: this very process
    let ran = false;
    const pending = withFileLock(path, async () => {
      ran = true;
    });
    await tick(200);
    assert.equal(ran, false, 'not run while the owner holds the lock');
    rmSync(path); // the owner releases it
    await pending;
    assert.equal(ran, true);
  });

  it('releases the lock when the guarded work throws', async () => {
    const path = lockPath();
    await assert.rejects(withFileLock(path, async () => {
      throw new Error('migration failed');
    }), /migration failed/);
    assert.equal(existsSync(path), false);
  });
});
