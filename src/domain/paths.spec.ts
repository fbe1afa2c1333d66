import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyPath,
  guessHome,
  isAgentInstructionFile,
  isAgentOwnData,
  isCiConfigFile,
  isShellRcFile,
  isTestFile,
  isAgentHookPath,
  resolvePath,
  type SessionPaths,
} from './paths.ts';

const linux: SessionPaths = { cwd: '/home/alex/work/app', home: '/home/alex' };

describe('guessHome', () => {
  it('recognises Linux, macOS, root and Windows homes', () => {
    assert.equal(guessHome('/home/alex/work/app'), '/home/alex');
    assert.equal(guessHome('/Users/sam/code'), '/Users/sam');
    assert.equal(guessHome('/root/project'), '/root');
    assert.equal(guessHome('/root'), '/root');
    assert.equal(guessHome('C:\\Users\\Pat\\src\\repo'), 'C:/Users/Pat');
    assert.equal(guessHome('/home/alex'), '/home/alex');
  });
  it('returns null when no home is implied', () => {
    assert.equal(guessHome(null), null);
    assert.equal(guessHome('/workspace/app'), null);
    assert.equal(guessHome('/rooted/x'), null);
    assert.equal(guessHome('relative/dir'), null);
  });
});

describe('resolvePath', () => {
  it('expands ~, $HOME, ${HOME} and $PWD', () => {
    for (const p of ['~/.ssh/id_rsa', '$HOME/.ssh/id_rsa', '${HOME}/.ssh/id_rsa']) {
      assert.equal(resolvePath(p, linux.cwd, linux.home), '/home/alex/.ssh/id_rsa', p);
    }
    assert.equal(resolvePath('~', linux.cwd, linux.home), '/home/alex');
    assert.equal(resolvePath('$PWD/x', linux.cwd, linux.home), '/home/alex/work/app/x');
    assert.equal(resolvePath('~bob/notes', linux.cwd, linux.home), '/home/bob/notes');
  });
  it('does not expand ~ lookalikes', () => {
    assert.equal(resolvePath('~backup', linux.cwd, null), '~backup');
    // an unknown variable cannot be resolved: kept as written rather than guessed
    assert.equal(resolvePath('$HOMEDIR/x', linux.cwd, linux.home), '$HOMEDIR/x');
  });
  it('joins relative paths to the cwd and resolves .. lexically', () => {
    assert.equal(resolvePath('src/./a.ts', linux.cwd, linux.home), '/home/alex/work/app/src/a.ts');
    assert.equal(resolvePath('../../.bashrc', linux.cwd, linux.home), '/home/alex/.bashrc');
    assert.equal(resolvePath('/../../etc//passwd/', linux.cwd, linux.home), '/etc/passwd');
    assert.equal(resolvePath('../../../../../../', linux.cwd, linux.home), '/');
  });
  it('leaves what cannot be resolved relative', () => {
    assert.equal(resolvePath('a/../b', null, null), 'b');
    assert.equal(resolvePath('~/x', '/work', null), '~/x');
    assert.equal(resolvePath('../x', null, null), '../x');
  });
  it('handles Windows paths', () => {
    assert.equal(resolvePath('src\\main.ts', 'C:\\Users\\Pat\\repo', 'C:\\Users\\Pat'), 'C:/Users/Pat/repo/src/main.ts');
    assert.equal(resolvePath('c:\\Windows\\System32\\..\\win.ini', null, null), 'C:/Windows/win.ini');
    assert.equal(resolvePath('%USERPROFILE%\\.ssh\\id_ed25519', null, 'C:/Users/Pat'), 'C:/Users/Pat/.ssh/id_ed25519');
  });
  it('a relative Windows path is the same file as its slash form, with or without a cwd; escapes and blanks are not separators', () => {
    assert.equal(resolvePath('src\\renderer\\pixiRenderer.ts', null, null), 'src/renderer/pixiRenderer.ts');
    assert.equal(resolvePath('src\\renderer\\pixiRenderer.ts', '/home/u/app', null), '/home/u/app/src/renderer/pixiRenderer.ts');
    assert.equal(resolvePath('..\\lib\\a.ts', 'C:\\Users\\u\\app\\src', null), 'C:/Users/u/app/lib/a.ts');
    assert.equal(resolvePath('my\\ file', '/h', null), '/h/my\\ file');
    assert.equal(resolvePath('src/a\\b', '/h', null), '/h/src/a\\b');
  });

  it('Git Bash writes a Windows drive as /c/…: the same path when the session runs on Windows, a Unix path otherwise', () => {
    assert.equal(resolvePath('/c/Users/Pat/repo/node_modules', 'c:\\Users\\Pat\\repo', null), 'C:/Users/Pat/repo/node_modules');
    assert.equal(resolvePath('/d', 'C:\\Users\\Pat\\repo', null), 'D:/');
    assert.equal(resolvePath('/c/Users/x', '/home/pat/repo', null), '/c/Users/x');
    assert.equal(resolvePath('/etc/hosts', 'C:\\Users\\Pat\\repo', null), '/etc/hosts');
  });

  it('WSL hands Windows programs Windows paths: C:\\x is /mnt/c/x when the session works under /mnt/<drive>, and stays as written otherwise', () => {
    assert.equal(resolvePath('C:/Users/me/project/build', '/mnt/c/Users/me/project', null), '/mnt/c/Users/me/project/build');
    assert.equal(resolvePath('D:\\data\\dump.sql', '/mnt/c/Users/me/project', null), '/mnt/d/data/dump.sql');
    assert.equal(resolvePath('C:/Users/me/project/build', '/home/me/project', null), 'C:/Users/me/project/build');
  });
});

describe('classifyPath zones', () => {
  const zone = (p: string, s = linux) => classifyPath(p, s).zone;
  it('root', () => {
    assert.equal(zone('/'), 'root');
    assert.equal(zone('/home/..'), 'root');
    assert.equal(zone('C:\\', { cwd: 'C:\\Users\\Pat\\repo', home: null }), 'root');
  });
  it('a working directory written from home (a terminal header\'s `~/clawdbot`) is the tree the absolute paths under that home are in', () => {
    const tilde = { cwd: '~/clawdbot', home: null };
    assert.equal(zone('/Users/andrew/clawdbot/workspace/core', tilde), 'worktree');
    assert.equal(zone('/Users/andrew/other/x', tilde), 'home');
    assert.equal(zone('workspace/core', tilde), 'unknown', 'a relative path with no home to anchor it');
    assert.equal(zone('/home/dev/clawdbot/a', { cwd: '~/clawdbot', home: '/home/dev' }), 'worktree');
  });
  it('worktree, including the cwd itself', () => {
    assert.equal(zone('src/index.ts'), 'worktree');
    assert.equal(zone('.'), 'worktree');
    assert.equal(zone('/home/alex/work/app/README.md'), 'worktree');
  });
  it('.. escaping the worktree lands in home', () => {
    assert.equal(zone('../other-project/x'), 'home');
    assert.equal(zone('../../'), 'home');
    assert.equal(zone('/home/alex/work/app-evil/x'), 'home'); // prefix, not a parent
  });
  it('home: inside home, outside the worktree, including home itself', () => {
    assert.equal(zone('~'), 'home');
    assert.equal(zone('~/.bashrc'), 'home');
    assert.equal(zone('$HOME/Downloads'), 'home');
  });
  it('system', () => {
    for (const p of ['/etc/hosts', '/usr/local/bin/node', '/var/log/syslog', '/bin/sh', '/opt/x', '/boot/grub', '/proc/1/environ', '/sys/kernel', '/root/.bashrc']) {
      assert.equal(zone(p), 'system', p);
    }
    assert.equal(zone('C:\\Windows\\System32\\drivers\\etc\\hosts', { cwd: 'C:\\Users\\Pat\\repo', home: null }), 'system');
    assert.equal(zone('c:/program files/app/x.dll', { cwd: 'C:\\Users\\Pat\\repo', home: null }), 'system');
  });
  it('tmp', () => {
    for (const p of ['/tmp/x', '/var/tmp/y', '/private/tmp/z', '/var/folders/ab/cd1234/T/tmp.x', '/dev/shm/q']) assert.equal(zone(p), 'tmp', p);
    assert.equal(zone('C:\\Users\\Pat\\AppData\\Local\\Temp\\a.txt', { cwd: 'C:\\Users\\Pat\\repo', home: 'C:\\Users\\Pat' }), 'tmp');
  });
  it('device', () => {
    assert.equal(zone('/dev/sda'), 'device');
    assert.equal(zone('/dev/null'), 'device');
  });
  it('other: absolute but outside every known place', () => {
    assert.equal(zone('/mnt/data/dump.sql'), 'other');
    assert.equal(zone('/home/bob/.ssh/id_rsa'), 'other');
    assert.equal(zone('/workspace/other'), 'other');
  });
  it('unknown: relative with no cwd', () => {
    assert.equal(zone('src/x.ts', { cwd: null, home: null }), 'unknown');
    assert.equal(zone('~/.aws/credentials', { cwd: null, home: null }), 'unknown');
  });
  it('home guessed from the cwd when the session has none; worktree wins over tmp', () => {
    assert.equal(zone('/home/alex/.netrc', { cwd: '/home/alex/app', home: null }), 'home');
    assert.equal(zone('/tmp/build/out.js', { cwd: '/tmp/build', home: null }), 'worktree');
  });
  it('a cwd of / does not turn everything into worktree', () => {
    assert.equal(zone('/etc/passwd', { cwd: '/', home: null }), 'system');
  });
  it('Windows comparisons are case-insensitive', () => {
    const win = { cwd: 'C:\\Users\\Pat\\Repo', home: 'C:\\Users\\Pat' };
    assert.equal(zone('c:\\users\\pat\\repo\\src\\a.ts', win), 'worktree');
    assert.equal(zone('C:\\USERS\\PAT\\.ssh\\config', win), 'home');
    assert.equal(zone('..\\Documents', win), 'home');
    assert.equal(zone('..\\..\\Documents', win), 'other'); // C:/Users/Documents
  });
});

describe('classifyPath sensitive', () => {
  const kind = (p: string) => classifyPath(p, linux).sensitive;
  const cases: [string, string | null][] = [
    ['.env', 'env-file'],
    ['config/.env.production', 'env-file'],
    ['.env.local', 'env-file'],
    ['deploy/prod.env', 'env-file'],
    ['.envrc', 'env-file'],
    ['.env.example', null],
    ['.env.sample', null],
    ['.env.template', null],
    ['~/.ssh/id_rsa', 'ssh'],
    ['~/.ssh/config', null],
    ['~/.ssh/authorized_keys', null],
    ['~/.ssh/id_ecdsa', 'ssh'],
    ['~/.ssh/id_ed25519.pub', null],
    ['~/.ssh/known_hosts', null],
    ['keys/id_ed25519', 'private-key'],
    ['certs/server.pem', 'private-key'],
    ['tls/server.key', 'private-key'],
    ['store.p12', 'private-key'],
    ['~/.aws/credentials', 'aws-credentials'],
    ['~/.config/gcloud/application_default_credentials.json', 'gcloud-credentials'],
    ['~/.kube/config', 'kube-config'],
    ['~/.codex/auth.json', 'agent-credentials'],
    ['~/.claude/.credentials.json', 'agent-credentials'],
    ['~/.gemini/oauth_creds.json', 'agent-credentials'],
    ['~/.netrc', 'netrc'],
    ['.npmrc', 'npmrc'],
    ['~/.pypirc', 'pypirc'],
    ['~/.docker/config.json', 'docker-config'],
    ['~/.git-credentials', 'git-credentials'],
    ['/etc/shadow', 'shadow'],
    ['/etc/sudoers', 'sudoers'],
    ['/etc/sudoers.d/90-agent', 'sudoers'],
    ['credentials.json', 'credentials-file'],
    ['k8s/secrets.yaml', 'secrets-file'],
    ['terraform.tfstate', 'terraform-state'],
    ['~/.bash_history', 'shell-history'],
    ['src/index.ts', null],
    ['/etc/hosts', null],
    ['docs/environment.md', null],
  ];
  for (const [p, expected] of cases) {
    it(`${p} → ${expected}`, () => assert.equal(kind(p), expected));
  }
  it('Windows paths', () => {
    assert.equal(classifyPath('C:\\Users\\Pat\\.SSH\\ID_RSA', { cwd: null, home: null }).sensitive, 'ssh');
    assert.equal(classifyPath('C:\\repo\\.ENV', { cwd: null, home: null }).sensitive, 'env-file');
  });
});

describe('file kinds', () => {
  it('isAgentInstructionFile', () => {
    for (const p of ['CLAUDE.md', 'sub/CLAUDE.local.md', 'AGENTS.md', 'GEMINI.md', '.claude/settings.json', '.claude/settings.local.json', '.claude/hooks/pre.sh', '.claude/commands/x.md', '.claude/agents/reviewer.md', '~/.codex/config.toml', '.gemini/settings.json', '.mcp.json', '.cursor/rules/style.mdc', '.cursorrules', '.github/copilot-instructions.md', '/home/alex/.claude.json']) {
      assert.ok(isAgentInstructionFile(p), p);
    }
    for (const p of ['README.md', 'docs/claude.txt', '.claude-notes.md', 'src/agents.ts', 'settings.json']) assert.ok(!isAgentInstructionFile(p), p);
  });
  it('isShellRcFile', () => {
    for (const p of ['~/.bashrc', '/home/a/.zshrc', '.profile', '.bash_profile', '.zprofile', '~/.config/fish/config.fish', '/etc/profile.d/x.sh']) assert.ok(isShellRcFile(p), p);
    for (const p of ['bashrc.md', 'src/.profile.ts', '~/.config/fish/functions/x.fish']) assert.ok(!isShellRcFile(p), p);
  });
  it('isCiConfigFile', () => {
    for (const p of ['.github/workflows/ci.yml', '.github/workflows/release.yaml', '.gitlab-ci.yml', '.circleci/config.yml', 'Jenkinsfile', 'azure-pipelines.yml', '.buildkite/pipeline.yml', 'bitbucket-pipelines.yml', '.travis.yml']) {
      assert.ok(isCiConfigFile(p), p);
    }
    for (const p of ['.github/CODEOWNERS', 'docs/workflows/ci.yml', 'config.yml']) assert.ok(!isCiConfigFile(p), p);
  });
  it('isAgentHookPath: the agents\' hooks folder and what is in it, not another folder\'s hooks', () => {
    for (const p of ['.claude/hooks', '.claude/hooks/', '/home/dev/app/.gemini/hooks/guard.sh', '.codex/hooks/lib/x.py']) assert.ok(isAgentHookPath(p), p);
    for (const p of ['.git/hooks/pre-commit', 'src/hooks/useAuth.ts', '.claude/hooks-old/x.py', '.claude/settings.json']) assert.ok(!isAgentHookPath(p), p);
  });
  it('isTestFile', () => {
    for (const p of ['tests/test_api.py', 'src/__tests__/a.ts', 'src/a.test.ts', 'src/a.spec.tsx', 'pkg/server_test.go', 'test_utils.py', 'spec/models/user_spec.rb', 'src/test/java/FooTest.java', 'C:\\repo\\tests\\x.cs']) {
      assert.ok(isTestFile(p), p);
    }
    for (const p of ['src/index.ts', 'src/testing-library.md', 'contest.py', 'src/latest.ts', 'attest/x.go']) assert.ok(!isTestFile(p), p);
    // caches and installed packages inside a test folder are generated files, not tests
    for (const p of ['tests/__pycache__', 'tests/__pycache__/test_api.cpython-312.pyc', 'tests/.pytest_cache/v/cache/nodeids', 'e2e/node_modules/playwright/index.js', 'test/htmlcov/index.html', 'tests/test_api.pyc']) assert.ok(!isTestFile(p), p);
    // spec-kit's feature folders hold prose (held-out set 74); a test inside one, or a specs/ folder of tests, is a test
    for (const p of ['/mnt/c/git/nexkit/specs/001-test-feature-review', 'specs/012-user-auth/contracts/api.yaml', 'specs/003-x/data-model.json']) assert.ok(!isTestFile(p), p);
    for (const p of ['specs/012-user-auth/tests/contract.test.ts', 'specs/012-user-auth/tests/check.sh', 'specs/models/user.rb', 'specs/api/contract.yaml', 'tests/specs/001-login/login_flow.rb', 'e2e/specs/001-checkout/checkout.ts', 'spec/specs/001-models/user_model.rb', 'tests/specs/001-login']) assert.ok(isTestFile(p), p);
  });
});

describe('the agents\' own data in home', () => {
  it('a session store is theirs as a folder and by its files, written with ~ where home is unknown', () => {
    for (const p of ['/home/dev/.codex/sessions', '/home/dev/.codex/sessions/2026/02/18/rollout-x.jsonl', '/home/dev/.claude/projects', '/home/dev/.gemini/tmp/abc/chats/session-1.json']) assert.equal(isAgentOwnData(p, '/home/dev'), true, p);
    assert.equal(isAgentOwnData('~/.codex/sessions', null), true);
    assert.equal(isAgentOwnData('/home/dev/project/.codex/sessions', '/home/dev'), false);
    assert.equal(isAgentOwnData('/home/dev/.codex/skills/x.json', '/home/dev'), false);
  });
});

describe('Android shared storage under its several names (held-out set 56: a Termux session)', () => {
  const TERMUX_HOME = '/data/data/com.termux/files/home';
  it('reads ~/storage/shared, /sdcard and /storage/self/primary as /storage/emulated/0, and the links into it', () => {
    assert.equal(resolvePath('~/storage/shared/proj/app.py', null, TERMUX_HOME), '/storage/emulated/0/proj/app.py');
    assert.equal(resolvePath('/sdcard/proj/app.py', null, null), '/storage/emulated/0/proj/app.py');
    assert.equal(resolvePath('/storage/self/primary/proj', null, null), '/storage/emulated/0/proj');
    assert.equal(resolvePath(`${TERMUX_HOME}/storage/downloads/x.zip`, null, null), '/storage/emulated/0/Download/x.zip');
    assert.equal(resolvePath('/data/user/0/com.termux/files/home/storage/dcim', null, null), '/storage/emulated/0/DCIM');
    assert.equal(guessHome(`${TERMUX_HOME}/projects/bot`), TERMUX_HOME);
  });
  it('a file written through ~/storage in a session working in shared storage is in its tree; Termux\'s own home is home, not shared storage', () => {
    const session: SessionPaths = { cwd: '/storage/emulated/0/proj', home: TERMUX_HOME };
    assert.equal(classifyPath(`${TERMUX_HOME}/storage/shared/proj/main.py`, session).zone, 'worktree');
    assert.equal(classifyPath('/sdcard/proj/main.py', session).zone, 'worktree');
    assert.equal(classifyPath(`${TERMUX_HOME}/.bashrc`, session).zone, 'home');
    assert.equal(classifyPath('/storage/emulated/0/other/notes.txt', session).zone, 'other');
    assert.equal(classifyPath(`${TERMUX_HOME}/storage/shared-not/x`, { cwd: '/storage/emulated/0', home: TERMUX_HOME }).zone, 'home');
  });
});
