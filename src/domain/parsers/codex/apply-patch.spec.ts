import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseApplyPatch, patchFromScript, withDir } from './apply-patch.ts';

describe('apply_patch grammar', () => {
  test('add, update (two hunks), delete and move in one patch', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export const a = 1;',
      '+',
      '+export const b = 2;',
      '*** Update File: src/old.ts',
      '@@ function one() {',
      ' keep',
      '-  return 1;',
      '+  return 2;',
      '@@',
      '-const x = 1;',
      '+const x = 3;',
      '+const y = 4;',
      '*** End of File',
      '*** Delete File: src/gone.ts',
      '*** Update File: a/b.ts',
      '*** Move to: c/d.ts',
      '@@',
      '-old',
      '+new',
      '*** End Patch',
    ].join('\n');
    assert.deepEqual(parseApplyPatch(patch), [
      { path: 'src/new.ts', op: 'add', removed: '', added: 'export const a = 1;\n\nexport const b = 2;' },
      { path: 'src/old.ts', op: 'update', removed: '  return 1;\nconst x = 1;', added: '  return 2;\nconst x = 3;\nconst y = 4;' },
      { path: 'src/gone.ts', op: 'delete', removed: '', added: '' },
      { path: 'a/b.ts', op: 'update', moveTo: 'c/d.ts', removed: 'old', added: 'new' },
    ]);
  });

  test('lenient: CRLF, padded markers, no "@@" before the first hunk, no Begin/End markers', () => {
    const patch = '  *** Update File:  x.txt  \r\n-a\r\n+b\r\n';
    assert.deepEqual(parseApplyPatch(patch), [{ path: 'x.txt', op: 'update', removed: 'a', added: 'b' }]);
  });

  test('junk lines, unknown markers and text outside a file are ignored; nothing throws', () => {
    const patch = "<<'EOF'\n*** Begin Patch\nhello\n+orphan\n*** Frobnicate: z\n*** Add File: ok.txt\n+fine\njunk\n*** End Patch\nEOF\n";
    assert.deepEqual(parseApplyPatch(patch), [{ path: 'ok.txt', op: 'add', removed: '', added: 'fine' }]);
  });

  test('malformed: empty paths, empty input, markers only', () => {
    assert.deepEqual(parseApplyPatch(''), []);
    assert.deepEqual(parseApplyPatch('*** Begin Patch\n*** End Patch'), []);
    assert.deepEqual(parseApplyPatch('*** Add File:\n+x\n*** Update File:   \n-y'), []);
    assert.deepEqual(parseApplyPatch('***'), []);
  });

  test('lines after End Patch do not leak into the last file', () => {
    const files = parseApplyPatch('*** Begin Patch\n*** Add File: a\n+1\n*** End Patch\n+2\n');
    assert.deepEqual(files, [{ path: 'a', op: 'add', removed: '', added: '1' }]);
  });

  test('a large patch parses linearly', () => {
    const body = Array.from({ length: 200_000 }, (_, i) => (i % 2 ? `+line ${i}` : ` ctx ${i}`)).join('\n');
    const files = parseApplyPatch(`*** Begin Patch\n*** Update File: big.txt\n@@\n${body}\n*** End Patch`);
    assert.equal(files.length, 1);
    assert.equal(files[0].added.split('\n').length, 100_000);
  });
});

describe('apply_patch through the shell', () => {
  const patch = '*** Begin Patch\n*** Delete File: app.js\n*** End Patch';

  test("heredoc forms Codex intercepts: <<'PATCH', << \"EOF\", <<EOF, applypatch, cd dir &&", () => {
    assert.deepEqual(patchFromScript(`apply_patch <<'PATCH'\n${patch}\nPATCH`), { patch: `${patch}\n` });
    assert.deepEqual(patchFromScript(`applypatch << "EOF"\n${patch}\nEOF\n`), { patch: `${patch}\n` });
    assert.deepEqual(patchFromScript(`apply_patch <<EOF\n${patch}\nEOF`), { patch: `${patch}\n` });
    assert.deepEqual(patchFromScript(`cd 'web app' && apply_patch <<'EOF'\n${patch}\nEOF`), { patch: `${patch}\n`, dir: 'web app' });
  });

  test('anything else stays a command', () => {
    assert.equal(patchFromScript(`apply_patch <<'EOF'\n${patch}\nEOF\nrm -rf build`), null, 'a command after the heredoc');
    assert.equal(patchFromScript(`apply_patch <<'EOF'\n${patch}\n`), null, 'unterminated: bash ran it, Codex did not intercept');
    assert.equal(patchFromScript(`cat <<'EOF' > x\n${patch}\nEOF`), null);
    assert.equal(patchFromScript(`apply_patch <<'EOF'\nnot a patch\nEOF`), null);
    assert.equal(patchFromScript('ls -la'), null);
  });

  test('paths resolve against the cd directory, absolute paths stay', () => {
    const files = withDir(parseApplyPatch('*** Update File: a.ts\n*** Move to: b.ts\n-x\n+y\n*** Add File: /etc/z\n+1'), 'pkg/');
    assert.deepEqual(files.map((f) => [f.path, f.moveTo]), [['pkg/a.ts', 'pkg/b.ts'], ['/etc/z', undefined]]);
  });
});
