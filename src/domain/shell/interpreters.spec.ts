import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineProgram, interpreterActions, interpreterLanguage, interpreterReadsStdin, programUrls, type InterpreterAction } from './interpreters.ts';

const brief = (a: InterpreterAction) => (a.kind === 'shell' ? `shell:${a.script}` : a.kind === 'argv' ? `argv:${a.argv.join(' ')}` : a.kind === 'delete' ? `delete:${a.recursive ? 'r:' : ''}${a.path}` : `write:${a.append ? 'a:' : ''}${a.path}`);
const acts = (lang: Parameters<typeof interpreterActions>[0], code: string) => interpreterActions(lang, code).map(brief);

test('interpreter names map to their language; other programs are not interpreters', () => {
  assert.equal(interpreterLanguage('python3.12'), 'python');
  assert.equal(interpreterLanguage('node'), 'node');
  assert.equal(interpreterLanguage('bun'), 'node');
  assert.equal(interpreterLanguage('ruby'), 'ruby');
  assert.equal(interpreterLanguage('perl'), 'perl');
  assert.equal(interpreterLanguage('php'), 'php');
  assert.equal(interpreterLanguage('pythonista'), null);
  assert.equal(interpreterLanguage('bash'), null);
});

test('the inline program is found after -c / -e / --eval / -r and clusters ending in the flag', () => {
  assert.equal(inlineProgram('python', ['-c', 'print(1)']), 'print(1)');
  assert.equal(inlineProgram('python', ['-Bc', 'x']), 'x');
  assert.equal(inlineProgram('node', ['--eval=1+1']), '1+1');
  assert.equal(inlineProgram('perl', ['-MFile::Path', '-e', 'rmtree("/x")']), 'rmtree("/x")');
  assert.equal(inlineProgram('perl', ['-ne', 'print']), 'print');
  assert.equal(inlineProgram('php', ['-r', 'echo 1;']), 'echo 1;');
  assert.equal(inlineProgram('python', ['script.py', '-c', 'x']), null, 'after a script file -c belongs to the script');
  assert.equal(inlineProgram('node', ['server.js']), null);
});

test('stdin programs: no script argument or "-"; a script file or -m module reads no program from stdin', () => {
  assert.equal(interpreterReadsStdin('python', []), true);
  assert.equal(interpreterReadsStdin('python', ['-']), true);
  assert.equal(interpreterReadsStdin('python', ['-u']), true);
  assert.equal(interpreterReadsStdin('python', ['app.py']), false);
  assert.equal(interpreterReadsStdin('python', ['-m', 'http.server']), false);
  assert.equal(interpreterReadsStdin('node', ['-e', 'x']), false);
});

test('python: os.system, subprocess lists and shell strings, shutil.rmtree, os.remove, pathlib', () => {
  assert.deepEqual(acts('python', 'import os; os.system("rm -rf ~")'), ['shell:rm -rf ~']);
  assert.deepEqual(acts('python', 'import subprocess\nsubprocess.run(["rm","-rf","/"])'), ['argv:rm -rf /']);
  assert.deepEqual(acts('python', "subprocess.call('rm -rf /', shell=True)"), ['shell:rm -rf /']);
  assert.deepEqual(acts('python', "subprocess.check_output('git status')"), ['argv:git status']);
  assert.deepEqual(acts('python', "import shutil; shutil.rmtree('/')"), ['delete:r:/']);
  assert.deepEqual(acts('python', "__import__('shutil').rmtree('/etc')"), ['delete:r:/etc']);
  assert.deepEqual(acts('python', "shutil.rmtree(os.path.expanduser('~'))"), ['delete:r:~']);
  assert.deepEqual(acts('python', "shutil.rmtree(os.path.expanduser('~') + '/Documents')"), ['delete:r:~/Documents']);
  assert.deepEqual(acts('python', "os.remove('/etc/passwd')"), ['delete:/etc/passwd']);
  assert.deepEqual(acts('python', "from pathlib import Path; Path('/etc/hosts').unlink()"), ['delete:/etc/hosts']);
});

test('python: unknown arguments stay unknown, and harmless programs do nothing', () => {
  assert.deepEqual(acts('python', 'shutil.rmtree(target)'), ['delete:r:$?']);
  assert.deepEqual(acts('python', 'os.system("rm -rf " + path)'), ['shell:rm -rf $?']);
  assert.deepEqual(acts('python', 'print("rm -rf /")'), []);
  assert.deepEqual(acts('python', 'import asyncio; asyncio.run(main())'), []);
  assert.deepEqual(acts('python', 're.sub("a", "b", s); x.remove(1)'), []);
});

test('node: execSync/exec command lines, spawn argv lists, fs.rmSync with and without recursive', () => {
  assert.deepEqual(acts('node', "require('child_process').execSync('rm -rf /')"), ['shell:rm -rf /']);
  assert.deepEqual(acts('node', "const {spawnSync} = require('child_process'); spawnSync('rm', ['-rf', '/'])"), ['argv:rm -rf /']);
  assert.deepEqual(acts('node', "fs.rmSync('/', {recursive:true})"), ['delete:r:/']);
  assert.deepEqual(acts('node', "require('fs').rmSync(require('os').homedir(), { recursive: true, force: true })"), ['delete:r:~']);
  assert.deepEqual(acts('node', "fs.unlinkSync('/etc/hosts')"), ['delete:/etc/hosts']);
  assert.deepEqual(acts('node', 'await $`rm -rf ${dir}`'), ['shell:rm -rf $?']);
});

test('node: regex .exec, template literals and console output are not commands', () => {
  assert.deepEqual(acts('node', "/a/.exec('rm -rf /')"), []);
  assert.deepEqual(acts('node', 'console.log(`rm -rf ${x}`)'), []);
  assert.deepEqual(acts('node', "console.log('fs.rmSync')"), []);
});

test('ruby, perl and php: system with and without parentheses, backticks, qx, FileUtils, rmtree, unlink', () => {
  assert.deepEqual(acts('ruby', 'FileUtils.rm_rf("/")'), ['delete:r:/']);
  assert.deepEqual(acts('ruby', 'require "fileutils"; FileUtils.rm_rf "/etc"'), ['delete:r:/etc']);
  assert.deepEqual(acts('ruby', 'system("rm", "-rf", "/")'), ['argv:rm -rf /']);
  assert.deepEqual(acts('ruby', '`rm -rf ~`'), ['shell:rm -rf ~']);
  assert.deepEqual(acts('ruby', 'File.delete(ENV["HOME"])'), ['delete:~']);
  assert.deepEqual(acts('perl', 'system("rm -rf /")'), ['shell:rm -rf /']);
  assert.deepEqual(acts('perl', 'system "rm -rf /"; print 1'), ['shell:rm -rf /']);
  assert.deepEqual(acts('perl', 'my $x = qx{rm -rf /etc}'), ['shell:rm -rf /etc']);
  assert.deepEqual(acts('perl', 'use File::Path; rmtree("/home")'), ['delete:r:/home']);
  assert.deepEqual(acts('perl', 'unlink "/etc/passwd"'), ['delete:/etc/passwd']);
  assert.deepEqual(acts('php', 'shell_exec("rm -rf /");'), ['shell:rm -rf /']);
  assert.deepEqual(acts('ruby', 'puts 1'), []);
  assert.deepEqual(acts('perl', 'print "system(1)"'), [], 'a call whose argument is not a string runs nothing we can read');
});

test('hostile programs are bounded: huge input and thousands of calls stay linear and capped', () => {
  const many = 'os.system("rm -rf /x");'.repeat(10_000);
  assert.equal(interpreterActions('python', many).length, 64);
  const open = 'os.system(' + '('.repeat(50_000);
  assert.deepEqual(interpreterActions('python', open), [], 'an unclosed call has no readable argument');
});

test('calls written inside strings or comments are text, not calls', () => {
  assert.deepEqual(acts('python', `print("shutil.rmtree('/')")`), []);
  assert.deepEqual(acts('python', "# os.system('rm -rf /')\nprint(1)"), []);
  assert.deepEqual(acts('python', '"""\nos.system("rm -rf /")\n"""'), []);
  assert.deepEqual(acts('node', "// execSync('rm -rf /')\nconsole.log(1)"), []);
  assert.deepEqual(acts('node', "/* fs.rmSync('/', {recursive: true}) */"), []);
  assert.deepEqual(acts('ruby', 'puts "FileUtils.rm_rf(\'/\')" # FileUtils.rm_rf("/")'), []);
  assert.deepEqual(acts('python', `x = "a"; shutil.rmtree('/etc')`), ['delete:r:/etc'], 'a real call after a string still counts');
});

test('programUrls: the URLs a program contacts through its language\'s request calls, and none it only mentions', () => {
  assert.deepEqual(programUrls('node', `require('https').get('https://api.shop.io/v1/orders', (r) => r.pipe(process.stdout))`), ['https://api.shop.io/v1/orders']);
  assert.deepEqual(programUrls('node', `fetch("https://a.example.com/x").then(r => r.text()).then(console.log)`), ['https://a.example.com/x']);
  assert.deepEqual(programUrls('python', `import requests; print(requests.post('https://hooks.example.net/in', json={}).status_code)`), ['https://hooks.example.net/in']);
  assert.deepEqual(programUrls('python', `import urllib.request as u; u.urlopen("http://10.0.0.5:8080/health")`), ['http://10.0.0.5:8080/health']);
  assert.deepEqual(programUrls('ruby', `require 'net/http'; puts Net::HTTP.get(URI('https://rubygems.org/api/v1/gems/rails.json'))`), ['https://rubygems.org/api/v1/gems/rails.json']);
  assert.deepEqual(programUrls('php', `echo file_get_contents('https://example.org/feed');`), ['https://example.org/feed']);
  // a URL printed or parsed is not contacted
  assert.deepEqual(programUrls('node', `console.log('docs: https://nodejs.org/api/')`), []);
  assert.deepEqual(programUrls('python', `import os.path; print("https://example.com")`), []);
});

test('files a program writes: open for writing, pathlib, fs, File.write, Perl open, file_put_contents', () => {
  assert.deepEqual(acts('python', "import json\nd = json.load(open('cfg.json'))\njson.dump(d, open('cfg.json', 'w'), indent=2)"), ['write:cfg.json']);
  assert.deepEqual(acts('python', "with open('/etc/hosts', mode='a') as f: f.write('1.2.3.4 x')"), ['write:a:/etc/hosts']);
  assert.deepEqual(acts('python', "import os, json\np = os.path.expanduser('~/.claude.json')\nd = json.load(open(p))\nd['mcpServers'] = {}\nwith open(p, 'w') as f: json.dump(d, f)"), ['write:~/.claude.json']);
  assert.deepEqual(acts('python', "from pathlib import Path\n(Path.home() / '.codex' / 'config.toml').write_text('x')"), ['write:~/.codex/config.toml']);
  assert.deepEqual(acts('python', "from pathlib import Path\ncfg = Path.home() / '.bashrc'\ncfg.write_text('export A=1')"), ['write:~/.bashrc']);
  assert.deepEqual(acts('python', "import os\nopen(os.path.join(os.path.expanduser('~'), '.ssh', 'config'), 'w').write('Host x')"), ['write:~/.ssh/config']);
  assert.deepEqual(acts('python', "from pathlib import Path\nPath('~/.zshrc').expanduser().write_text('x')"), ['write:~/.zshrc']);
  assert.deepEqual(acts('node', "const fs = require('fs'); fs.writeFileSync('/home/dev/.npmrc', 'x'); fs.appendFileSync('log.txt', 'y')"), ['write:/home/dev/.npmrc', 'write:a:log.txt']);
  assert.deepEqual(acts('node', "const fs=require('fs'),os=require('os'),path=require('path'); fs.writeFileSync(path.join(os.homedir(), '.claude', 'settings.json'), '{}')"), ['write:~/.claude/settings.json']);
  assert.deepEqual(acts('ruby', "File.write('/etc/motd', 'hi')"), ['write:/etc/motd']);
  assert.deepEqual(acts('ruby', "File.open(File.expand_path('~/.gemrc'), 'a') { |f| f.puts 'x' }"), ['write:a:~/.gemrc']);
  assert.deepEqual(acts('perl', "open(my $fh, '>', '/etc/cron.d/job') or die; print $fh 'x'"), ['write:/etc/cron.d/job']);
  assert.deepEqual(acts('perl', 'open(FH, ">>/home/dev/.profile"); print FH "x"'), ['write:a:/home/dev/.profile']);
  assert.deepEqual(acts('php', "file_put_contents('/var/www/.htaccess', 'x', FILE_APPEND);"), ['write:a:/var/www/.htaccess']);
});

test('files a program only reads, or writes where the code does not say, are no writes', () => {
  assert.deepEqual(acts('python', "import json\nprint(json.load(open('package.json'))['version'])"), []);
  assert.deepEqual(acts('python', "print(open('/etc/hosts', 'r').read())"), []);
  assert.deepEqual(acts('python', "import sys\nopen(sys.argv[1], 'w').write('x')"), []);
  assert.deepEqual(acts('python', "open('~/.bashrc', 'a').write('x')"), []); // Python does not expand ~: a folder named ~ in the cwd
  assert.deepEqual(acts('python', "print(\"open('x.txt', 'w')\")"), []);
  assert.deepEqual(acts('python', "import webbrowser, os\nwebbrowser.open('http://x'); fd = os.open('f', os.O_RDONLY)"), []);
  assert.deepEqual(acts('node', "const fs = require('fs'); console.log(fs.readFileSync('a.json', 'utf8'))"), []);
  assert.deepEqual(acts('node', "const fs = require('fs'); fs.writeFileSync(process.argv[2], 'x')"), []);
  assert.deepEqual(acts('perl', "open(my $fh, '<', '/etc/passwd'); print <$fh>"), []);
  assert.deepEqual(acts('ruby', "puts File.read('Gemfile')"), []);
});

test('files written: modes with encodings, Perl layers and read-write opens, joins with absolute parts, a variable changed in place (review of set 64\'s mends)', () => {
  assert.deepEqual(acts('perl', "open(my $fh, '>:encoding(UTF-8)', '/home/dev/.bashrc')"), ['write:/home/dev/.bashrc']);
  assert.deepEqual(acts('perl', "open(my $fh, '>>:utf8', '/home/dev/.bashrc')"), ['write:a:/home/dev/.bashrc']);
  assert.deepEqual(acts('perl', "open(my $fh, '+<', '/etc/hosts')"), ['write:/etc/hosts']);
  assert.deepEqual(acts('ruby', "File.open(File.expand_path('~/.bashrc'), 'r:ascii-8bit') { |f| puts f.read }"), []);
  assert.deepEqual(acts('ruby', "File.open('/etc/passwd', 'rb:windows-1252') { |f| f.read }"), []);
  assert.deepEqual(acts('python', "import os\nopen(os.path.join('/etc/cron.d', 'job'), 'w').write('x')"), ['write:/etc/cron.d/job']);
  assert.deepEqual(acts('python', "from pathlib import Path\n(Path('/home/dev') / '.bashrc').write_text('x')"), ['write:/home/dev/.bashrc']);
  assert.deepEqual(acts('python', "from pathlib import Path\np = Path.home() / '.config/fish/config.fish'\np.write_text('x')"), ['write:~/.config/fish/config.fish']);
  assert.deepEqual(acts('node', "const fs=require('fs'),path=require('path'); fs.writeFileSync(path.join('/home/dev', '.npmrc'), 'x')"), ['write:/home/dev/.npmrc']);
  assert.deepEqual(acts('python', "p = '/tmp/out.txt'\np += '.bak'\nopen(p, 'w').write('x')"), []);
});

test('an unclosed Path( before a long line is no call: no action (the receiver patterns are bounded runs, so the scan stays linear)', () => {
  assert.deepEqual(acts('python', `f = open\nPath(${'a'.repeat(60_000)}`), []);
  assert.deepEqual(acts('python', `Path(${'a'.repeat(60_000)}).unlink()`), []);
});
