// Interpreter one-liners and scripts fed on stdin (`python -c`, `node -e`, `ruby -e`, `perl -e`,
// `php -r`, `python3 <<EOF … EOF`): what they do to the world, read statically. This is not a
// parser of the languages: it finds the few calls that run shell commands (os.system,
// subprocess.*, execSync, system, backticks …), delete files (shutil.rmtree, fs.rmSync,
// FileUtils.rm_rf, unlink …) or write them (open(…, 'w'), write_text, writeFileSync, File.write,
// file_put_contents …) and reads their arguments when they are literals. Everything else in
// the program is ignored; an argument that is not a literal becomes "$?" so rules treat it as
// unknown rather than guessing.

export type Language = 'python' | 'node' | 'ruby' | 'perl' | 'php' | 'awk';

export type InterpreterAction =
  /** A command line run through a shell (os.system("…"), execSync("…"), `…`). */
  | { kind: 'shell'; script: string; source: string }
  /** A program run without a shell, as an argv list (subprocess.run(["rm", "-rf", "/"])). */
  | { kind: 'argv'; argv: string[]; source: string }
  /** A file or directory deleted by the language's own library. */
  | { kind: 'delete'; path: string; recursive: boolean; source: string }
  /** A file written (or appended to) by the language's own library; what it holds is not read. */
  | { kind: 'write'; path: string; append: boolean; source: string };

/** The language of an interpreter program name (python3.12 → python), or null. */
export function interpreterLanguage(name: string): Language | null {
  if (/^python[\d.]*$/.test(name) || name === 'pypy' || name === 'pypy3') return 'python';
  if (name === 'node' || name === 'nodejs' || name === 'bun' || name === 'deno') return 'node';
  if (name === 'ruby' || name === 'jruby') return 'ruby';
  if (name === 'perl') return 'perl';
  if (name === 'php') return 'php';
  if (name === 'awk' || name === 'gawk' || name === 'mawk' || name === 'nawk') return 'awk';
  return null;
}

const INLINE_FLAGS: Record<Language, string[]> = {
  python: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  ruby: ['-e'],
  perl: ['-e', '-E'],
  php: ['-r'],
  awk: [],
};

/** The program given on the command line (`python -c '…'`, `perl -ne '…'`), or null. */
export function inlineProgram(lang: Language, args: readonly string[]): string | null {
  if (lang === 'awk') return awkProgram(args);
  const flags = INLINE_FLAGS[lang];
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) {
      // `deno eval '…'`, `bun -e`: deno's subcommand form; otherwise a script file ends the options
      if (lang === 'node' && a === 'eval' && i + 1 < args.length) parts.push(args[i + 1]);
      break;
    }
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0 && flags.includes(a.slice(0, eq))) {
      parts.push(a.slice(eq + 1));
      continue;
    }
    if (flags.includes(a) && i + 1 < args.length) {
      parts.push(args[++i]);
      continue;
    }
    // short clusters ending in the flag: perl -ne, python -Bc, ruby -rfileutils -e
    if (!a.startsWith('--') && flags.some((f) => f.length === 2 && a.endsWith(f[1])) && i + 1 < args.length) {
      parts.push(args[++i]);
      continue;
    }
    if (lang === 'python' && a.startsWith('-c') && a.length > 2) {
      parts.push(a.slice(2)); // python -c'code'
      break;
    }
  }
  return parts.length > 0 ? parts.join('\n') : null;
}

/** awk's program is its first operand (after -F sep, -v var=value; none with -f file). */
function awkProgram(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-f' || a.startsWith('--file')) return null;
    if (a === '-F' || a === '-v' || a === '--assign' || a === '--field-separator') {
      i++;
      continue;
    }
    if (a === '--') return args[i + 1] ?? null;
    if (a.startsWith('-') && a.length > 1) continue;
    return a;
  }
  return null;
}

/** `print "cmd" | "sh"`: awk pipes the printed line into a shell, which runs it. */
function awkPipe(statement: string): InterpreterAction | null {
  const m = /^print\s+"((?:[^"\\]|\\.)*)"\s*\|\s*"(?:ba|z|da)?sh"/.exec(statement);
  return m ? { kind: 'shell', script: m[1].replace(/\\(.)/g, '$1'), source: statement } : null;
}

/** The interpreter runs the program it reads on stdin (`python3`, `python3 -`, `node -`, `perl`). */
export function interpreterReadsStdin(lang: Language, args: readonly string[]): boolean {
  if (lang === 'awk') return false; // awk reads data on stdin, never its program
  if (inlineProgram(lang, args) !== null) return false;
  for (const a of args) {
    if (a === '-') return true;
    if (a.startsWith('-')) {
      if (lang === 'python' && (a === '-m' || a.startsWith('-m'))) return false;
      continue;
    }
    return false; // a script file
  }
  return true;
}

// Cheap screens: the program is only scanned when one of these words occurs in it.
const SCREEN: Record<Language, RegExp> = {
  python: /\b(system|popen|subprocess|run|call|check_call|check_output|Popen|getoutput|rmtree|remove|unlink|rmdir|removedirs|spawn\w*|exec\w*|open|write_text|write_bytes)\b/,
  node: /\b(exec|execSync|execFile|execFileSync|spawn|spawnSync|rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|remove|removeSync|emptyDir|emptyDirSync|rimraf|rimrafSync|Command|writeFile|writeFileSync|appendFile|appendFileSync|outputFile|outputFileSync)\b|`/,
  ruby: /\b(system|exec|spawn|rm_rf|rm_r|rm|rm_f|remove_dir|remove_entry|remove_entry_secure|rmtree|delete|unlink|rmdir|popen|capture\w*|write|binwrite|open)\b|`|%x/,
  perl: /\b(system|exec|qx|unlink|rmtree|remove_tree|rmdir|open)\b|`/,
  php: /\b(system|exec|shell_exec|passthru|popen|proc_open|unlink|rmdir|file_put_contents)\b|`/,
  awk: /\bsystem\b|\|\s*"/,
};

/**
 * The language's own ways to make a request (`fetch(`, `http.get(`, `requests.post(`,
 * `urllib.request.urlopen(`, `Net::HTTP`, `LWP`, `file_get_contents`, `curl_init`): a URL literal in
 * a program that calls one of them is a host the program contacts.
 */
const NETWORK_CALLS: Record<Language, RegExp> = {
  python: /\b(?:requests|httpx|aiohttp|urllib3?|http\.client|urlopen|urlretrieve|socket\.create_connection)\b/,
  node: /\bfetch\s*\(|\bhttps?\.(?:get|request)\s*\(|\brequire\(\s*['"](?:node:)?(?:https?|net)['"]\s*\)|\bfrom\s+['"](?:node:)?https?['"]|\baxios\b|\bgot\s*\(|\bundici\b|\bXMLHttpRequest\b|\bnet\.connect\s*\(/,
  ruby: /\bNet::HTTP\b|\bURI\.open\b|\bopen-uri\b|\bFaraday\b|\bHTTParty\b/,
  perl: /\bLWP\b|\bHTTP::Tiny\b|\bIO::Socket\b/,
  php: /\bfile_get_contents\s*\(|\bcurl_init\s*\(|\bfopen\s*\(\s*['"]https?:|\bfsockopen\s*\(/,
  awk: /(?!)/,
};
const PROGRAM_URL = /\bhttps?:\/\/[^\s'"`)<>\\]+/g;
const MAX_URLS = 16;

/** The URLs a program contacts: literal `http(s)://` URLs in a program that calls the language's request functions. */
export function programUrls(lang: Language, program: string): string[] {
  const code = program.length > MAX_PROGRAM ? program.slice(0, MAX_PROGRAM) : program;
  if (!NETWORK_CALLS[lang].test(code)) return [];
  return [...new Set(code.match(PROGRAM_URL) ?? [])].slice(0, MAX_URLS);
}

/** Caps: hostile one-liners must not cost more than a linear scan. */
const MAX_PROGRAM = 64_000;
const MAX_ACTIONS = 64;

/** What a program does that rules judge: shell commands it runs and files it deletes. */
export function interpreterActions(lang: Language, program: string): InterpreterAction[] {
  const code = program.length > MAX_PROGRAM ? program.slice(0, MAX_PROGRAM) : program;
  if (!SCREEN[lang].test(code)) return [];
  const out: InterpreterAction[] = [];
  const inert = inertText(code, lang);
  for (const call of CALLS[lang]) {
    call.re.lastIndex = 0;
    for (let m = call.re.exec(code); m && out.length < MAX_ACTIONS; m = call.re.exec(code)) {
      if (inert[m.index] === 1) continue; // print("os.system('x')"), # shutil.rmtree('/')
      const start = m.index + m[0].length;
      const args = readArgs(code, start, call.parens === false ? 'bare' : 'paren');
      const action = call.make(args, m[0].trim(), code.slice(m.index, args.end), { code, at: m.index });
      if (action) out.push(action);
    }
  }
  if (lang !== 'python' && lang !== 'awk') out.push(...backticks(code, lang === 'node'));
  return out.slice(0, MAX_ACTIONS);
}

/**
 * Marks the characters inside string literals and comments (1), so a call written inside a string
 * (`print("shutil.rmtree('/')")`) or a comment is not taken for a call. A small lexer: quotes
 * with escapes, Python triple quotes, `#` comments (Python, Ruby, Perl, PHP), `//` and block
 * comments (JavaScript, PHP).
 */
function inertText(code: string, lang: Language): Uint8Array {
  const mark = new Uint8Array(code.length);
  const hashComments = lang !== 'node';
  const slashComments = lang === 'node' || lang === 'php';
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === '"' || c === "'" || (c === '`' && lang === 'node')) {
      const triple = lang === 'python' && code.startsWith(c.repeat(3), i);
      const close = triple ? c.repeat(3) : c;
      let j = i + close.length;
      while (j < code.length && !code.startsWith(close, j)) j += code[j] === '\\' ? 2 : 1;
      const end = Math.min(code.length, j + close.length);
      mark.fill(1, i + 1, Math.max(i + 1, end - 1));
      i = end;
    } else if ((hashComments && c === '#' && !(lang === 'ruby' && code[i + 1] === '{')) || (slashComments && c === '/' && code[i + 1] === '/')) {
      const nl = code.indexOf('\n', i);
      const end = nl < 0 ? code.length : nl;
      mark.fill(1, i, end);
      i = end;
    } else if (slashComments && c === '/' && code[i + 1] === '*') {
      const close = code.indexOf('*/', i + 2);
      const end = close < 0 ? code.length : close + 2;
      mark.fill(1, i, end);
      i = end;
    } else {
      i++;
    }
  }
  return mark;
}

// ---- call table ----------------------------------------------------------------------------------

interface Args {
  /** Each top-level argument: its literal value (string, or string[] for a list), or null. */
  values: (string | string[] | null)[];
  /** The raw text of each argument (for options such as `{recursive: true}`). */
  raw: string[];
  end: number;
}

interface CallSpec {
  re: RegExp;
  /** False: Perl/Ruby calls without parentheses (`system "…"`), read to the end of the statement. */
  parens?: boolean;
  make: (args: Args, callee: string, source: string, where: Where) => InterpreterAction | null;
}

/** The whole program and where the call starts in it: a path named by a variable is looked up before it. */
interface Where {
  code: string;
  at: number;
}

/** A shell command string or an argv list, whichever the first argument is. */
function runFirst(args: Args, _callee: string, source: string): InterpreterAction | null {
  const first = args.values[0];
  if (Array.isArray(first)) return first.length > 0 ? { kind: 'argv', argv: first, source } : null;
  if (typeof first !== 'string') return null;
  // system("rm", "-rf", "/") in Ruby/Perl: several literal arguments are an argv
  const rest = args.values.slice(1);
  if (rest.length > 0 && rest.every((v): v is string => typeof v === 'string') && !/\s/.test(first)) return { kind: 'argv', argv: [first, ...rest], source };
  return { kind: 'shell', script: first, source };
}

/** Python's subprocess: a list is an argv, a string with shell=True (or getoutput) a command line. */
function subprocess(args: Args, callee: string, source: string): InterpreterAction | null {
  const first = args.values[0];
  if (Array.isArray(first)) return first.length > 0 ? { kind: 'argv', argv: first, source } : null;
  if (typeof first !== 'string') return null;
  const shell = /getoutput|getstatusoutput/.test(callee) || args.raw.some((r) => /shell\s*=\s*True/.test(r));
  return shell ? { kind: 'shell', script: first, source } : { kind: 'argv', argv: first.split(/\s+/).filter(Boolean), source };
}

/** Node's child_process: exec/execSync take a command line, spawn/execFile a program and a list. */
function childProcess(args: Args, callee: string, source: string): InterpreterAction | null {
  const first = args.values[0];
  if (typeof first !== 'string') return null;
  const fn = /(\w+)\s*\($/.exec(callee)?.[1];
  if (fn === 'exec' || fn === 'execSync') return { kind: 'shell', script: first, source };
  const list = args.values[1];
  const withShell = args.raw.some((r) => /shell\s*:\s*true/.test(r));
  const argv = [first, ...(Array.isArray(list) ? list : [])];
  return withShell ? { kind: 'shell', script: argv.join(' '), source } : { kind: 'argv', argv, source };
}

function deletion(recursive: boolean | 'option') {
  return (args: Args, _callee: string, source: string): InterpreterAction | null => {
    const path = args.values[0];
    if (typeof path !== 'string' || path === '') return null;
    const rec = recursive === 'option' ? args.raw.slice(1).some((r) => /recursive\s*:\s*true/.test(r)) : recursive;
    return { kind: 'delete', path, recursive: rec, source };
  };
}

/** Perl's unlink/rmtree take a list of paths; only the first is needed for a verdict. */
function pathList(recursive: boolean) {
  return (args: Args, _callee: string, source: string): InterpreterAction | null => {
    const first = args.values[0];
    const path = Array.isArray(first) ? first[0] : first;
    return typeof path === 'string' && path !== '' ? { kind: 'delete', path, recursive, source } : null;
  };
}

/** The same call written with parentheses, and (Perl, Ruby) without: `system "…"`. */
function both(callee: string, make: CallSpec['make']): CallSpec[] {
  return [
    { re: new RegExp(`${callee}\\s*\\(`, 'g'), make },
    { re: new RegExp(`${callee}[ \\t]+(?=['"])`, 'g'), parens: false, make },
  ];
}

/** What `.write_text(` is called on: `Path('…')` (expanded or not), `Path.home() / '…'`, or a variable. */
const PY_PATH_RECEIVER = String.raw`\b(?:pathlib\.)?Path[ \t]*\([^()\n]{0,300}(?:\([^()\n]{0,300}\))?[^()\n]{0,300}\)(?:\s*\.\s*expanduser\s*\(\s*\))?|\(\s*(?:pathlib\.)?Path(?:\.home\s*\(\s*\)|\(\s*['"][^'"\n]{1,300}['"]\s*\))(?:\s*\/\s*['"][^'"\n]{0,300}['"]){1,10}\s*\)|(?<![\w.])[A-Za-z_]\w*`;
const CHILD_PROCESS = String.raw`(?:\b(?:child_process|childProcess|cp|Bun)\.|require\(\s*['"](?:node:)?child_process['"]\s*\)\.|(?<![\w.$]))`;
const NODE_FS = String.raw`(?:\b(?:fs|fse|fsp|fsExtra|promises|fs\.promises)\.|require\(\s*['"](?:node:)?fs(?:\/promises)?['"]\s*\)\.)`;

const CALLS: Record<Language, CallSpec[]> = {
  python: [
    { re: /(?:\bos\.|__import__\(\s*['"]os['"]\s*\)\.|(?<![\w.]))(system|popen)\s*\(/g, make: runFirst },
    { re: /(?:\bsubprocess\.|__import__\(\s*['"]subprocess['"]\s*\)\.|(?<![\w.]))(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(/g, make: subprocess },
    { re: /\bos\.(exec\w*|spawn\w*)\s*\(/g, make: (a, _c, s) => execvArgs(a, s) },
    { re: /(?:\bshutil\.|__import__\(\s*['"]shutil['"]\s*\)\.|(?<![\w.]))rmtree\s*\(/g, make: deletion(true) },
    { re: /(?:\bos\.|__import__\(\s*['"]os['"]\s*\)\.)(remove|unlink|rmdir|removedirs)\s*\(/g, make: deletion(false) },
    // (runs bounded: an unclosed `Path(` before a long line must not cost a quadratic scan)
    { re: /\bPath\s*\(([^()]{0,300}(?:\([^()]{0,300}\))?[^()]{0,300})\)\s*\.(unlink|rmdir)\s*\(/g, make: (_a, callee, s) => pathlibDelete(callee, s) },
    { re: /(?<![\w.])(?:io\.|codecs\.)?open\s*\(/g, make: openForWriting() },
    { re: new RegExp(`(${PY_PATH_RECEIVER})\\s*\\.\\s*(?:write_text|write_bytes)\\s*\\(`, 'g'), make: (_a, callee, s, w) => pathlibWrite(callee, s, w) },
  ],
  node: [
    { re: new RegExp(`${CHILD_PROCESS}(execSync|exec|execFileSync|execFile|spawnSync|spawn)\\s*\\(`, 'g'), make: childProcess },
    { re: new RegExp(`${NODE_FS}(rmSync|rm|rmdirSync|rmdir)\\s*\\(`, 'g'), make: deletion('option') },
    { re: new RegExp(`${NODE_FS}(unlinkSync|unlink)\\s*\\(`, 'g'), make: deletion(false) },
    { re: /\b(?:fse|fs|fsExtra)\.(removeSync|remove|emptyDirSync|emptyDir)\s*\(/g, make: deletion(true) },
    { re: /\b(?:rimraf(?:\.sync)?|rimrafSync)\s*\(/g, make: deletion(true) },
    { re: /\bDeno\.(removeSync|remove)\s*\(/g, make: deletion('option') },
    { re: /\bnew\s+Deno\.Command\s*\(/g, make: denoCommand },
    { re: new RegExp(`${NODE_FS}(writeFileSync|writeFile|appendFileSync|appendFile|outputFileSync|outputFile)\\s*\\(`, 'g'), make: (a, callee, s, w) => written(a.raw[0], /append/.test(callee), s, w) },
  ],
  ruby: [
    ...both(String.raw`(?<![\w.])(?:Kernel\.)?(?:system|exec|spawn)`, runFirst),
    { re: /\bOpen3\.(capture2e?|capture3|popen3|popen2e?)\s*\(/g, make: runFirst },
    { re: /\bIO\.popen\s*\(/g, make: runFirst },
    ...both(String.raw`\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)`, deletion(true)),
    ...both(String.raw`\bFileUtils\.(?:rm|rm_f|remove|remove_file|rmdir)`, deletion(false)),
    { re: /\b(?:File|Dir)\.(delete|unlink|rmdir)\s*\(/g, make: deletion(false) },
    ...both(String.raw`\bFile\.(?:write|binwrite)`, (a, _c, s, w) => written(a.raw[0], false, s, w)),
    { re: /\bFile\.open\s*\(/g, make: openForWriting() },
  ],
  perl: [
    ...both(String.raw`(?<![\w$>:])(?:system|exec)`, runFirst),
    ...both(String.raw`\b(?:File::Path::)?(?:rmtree|remove_tree)`, pathList(true)),
    ...both(String.raw`(?<![\w$>:])unlink`, pathList(false)),
    // unlink glob("/etc/*"), unlink(glob '/x/*'): every file the pattern matches
    { re: /(?<![\w$>:])unlink\s*\(?\s*glob\s*(?:\(|(?=['"]))/g, make: pathList(false) },
    ...both(String.raw`(?<![\w$>:])open`, perlOpen),
  ],
  php: [
    { re: /(?<![\w$>:])(system|exec|shell_exec|passthru|popen|proc_open)\s*\(/g, make: runFirst },
    { re: /(?<![\w$>:])(unlink|rmdir)\s*\(/g, make: deletion(false) },
    { re: /(?<![\w$>:])file_put_contents\s*\(/g, make: (a, _c, s, w) => written(a.raw[0], a.raw.some((r) => /\bFILE_APPEND\b/.test(r)), s, w) },
  ],
  awk: [
    { re: /\bsystem\s*\(/g, make: runFirst },
    // print "rm -rf /" | "sh": the printed text is run by the shell named after the pipe
    { re: /\bprint\s+(?=["'])/g, parens: false, make: (_a, _c, s) => awkPipe(s) },
  ],
};

/** `new Deno.Command("rm", { args: ["-rf", "/"] })`. */
function denoCommand(a: Args, _callee: string, source: string): InterpreterAction | null {
  const prog = a.values[0];
  if (typeof prog !== 'string') return null;
  const list = /args\s*:\s*\[([^\]]*)\]/.exec(a.raw[1] ?? '');
  const rest = list ? [...list[1].matchAll(/(['"`])((?:(?!\1).)*)\1/g)].map((m) => m[2]) : [];
  return { kind: 'argv', argv: [prog, ...rest], source };
}

function execvArgs(a: Args, source: string): InterpreterAction | null {
  const list = a.values.find((v): v is string[] => Array.isArray(v));
  if (list && list.length > 0) return { kind: 'argv', argv: list, source };
  const strings = a.values.filter((v): v is string => typeof v === 'string');
  return strings.length >= 2 ? { kind: 'argv', argv: strings.slice(1), source } : null;
}

function pathlibDelete(callee: string, source: string): InterpreterAction | null {
  const inner = /Path\s*\((.*)\)\s*\.(unlink|rmdir)/s.exec(callee);
  if (!inner) return null;
  const args = readArgs(inner[1] + ')', 0, 'paren');
  const path = args.values[0];
  return typeof path === 'string' && path !== '' ? { kind: 'delete', path, recursive: false, source } : null;
}

// ---- files written -----------------------------------------------------------------------------

/** One quoted literal, whole (no interpolation): `'…'`, `"…"`, Python's r'…'. */
const PLAIN_LITERAL = /^(?:[rRuU]|)(['"])([^'"\n\\{}$#]*)\1$/;
/** How far a variable's assignment is looked for before the call, and how deep a path expression is followed. */
const ASSIGNMENT_WINDOW = 8_000;
const PATH_DEPTH = 2;

/**
 * The path a path expression names, when it is built from literals and the home directory only:
 * a literal, `os.path.expanduser('~/x')`, `Path('x')`, `Path.home() / 'x'`, `os.path.join(…)`,
 * `path.join(os.homedir(), 'x')`, `File.expand_path('~/x')`, or a variable last set to one of
 * these before the call. A `~` the language does not expand (`open('~/x')`) is no home: null.
 */
function pathOf(expr: string, where: Where, depth = 0): string | null {
  const t = expr.trim().replace(/^\(\s*([\s\S]*?)\s*\)$/, '$1');
  const lit = PLAIN_LITERAL.exec(t);
  if (lit) return lit[2] !== '' && !lit[2].startsWith('~') ? lit[2] : null;
  if (HOME_EXPR.test(t)) return '~';
  const expanded = /^(?:os\.path\.expanduser|File\.expand_path)\(\s*(['"])(~[^'"\n]*)\1\s*\)$/.exec(t)
    ?? /^(?:pathlib\.)?Path\(\s*(['"])([^'"\n]+)\1\s*\)\s*\.\s*expanduser\(\s*\)$/.exec(t);
  if (expanded) return expanded[2];
  const slashed = splitOutsideQuotes(t, '/');
  if (slashed.length > 1 && depth < PATH_DEPTH) return joined(slashed, where, depth);
  const join = /^(?:os\.path\.join|path\.(?:join|resolve)|File\.join)\(([\s\S]*)\)$/.exec(t);
  if (join && depth < PATH_DEPTH) return joined(readArgs(`${join[1]})`, 0, 'paren').raw, where, depth);
  const bare = /^(?:pathlib\.)?Path\(\s*([\s\S]+)\)$/.exec(t);
  if (bare && depth < PATH_DEPTH) return pathOf(bare[1], where, depth + 1);
  if (/^[A-Za-z_$][\w$]*$/.test(t) && depth < PATH_DEPTH) {
    const value = assignedBefore(t, where);
    return value === null ? null : pathOf(value, where, depth + 1);
  }
  return null;
}

/** `a / 'b'` split at each `/` outside quotes and brackets (Python's path operator), trimmed. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let quote = '';
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === sep && depth === 0) {
      parts.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(text.slice(from).trim());
  return parts;
}

/** Parts of a path joined: each a literal or the home directory; null when one is not. */
function joined(parts: readonly string[], where: Where, depth: number): string | null {
  const names: string[] = [];
  for (const [i, part] of parts.entries()) {
    const t = part.trim();
    const lit = PLAIN_LITERAL.exec(t);
    const value = lit ? lit[2] : i === 0 ? pathOf(t, where, depth + 1) : null;
    if (value === null || value === '') return null;
    // an absolute part starts the path afresh, as os.path.join and `/` do
    if (value.startsWith('/')) names.length = 0;
    names.push(names.length === 0 ? value.replace(/\/+$/, '') : value.replace(/^\/+|\/+$/g, ''));
  }
  return names.join('/');
}

/** What a variable was last set to before the call (`p = …`, `const p = …`, `$p = …`), as written. */
function assignedBefore(name: string, where: Where): string | null {
  const before = where.code.slice(Math.max(0, where.at - ASSIGNMENT_WINDOW), where.at);
  const re = new RegExp(String.raw`(?:^|[;\n])[ \t]*(?:(?:const|let|var|my)[ \t]+)?\$?${name.replace(/\$/g, '\\$')}[ \t]*=(?!=)[ \t]*([^;\n]+)`, 'g');
  let last: string | null = null;
  let end = 0;
  for (let m = re.exec(before); m; m = re.exec(before)) {
    last = m[1];
    end = m.index + m[0].length;
  }
  // changed since in place (`p += '.bak'`, `p /= 'x'`): its value is not the one written
  const changed = new RegExp(String.raw`\$?${name.replace(/\$/g, '\\$')}[ \t]*(?:[-+*/%|&.]|\*\*|\/\/)=`);
  return last !== null && !changed.test(before.slice(end)) ? last : null;
}

function written(expr: string | undefined, append: boolean, source: string, where: Where): InterpreterAction | null {
  const path = expr === undefined ? null : pathOf(expr, where);
  return path !== null && !path.startsWith('-') ? { kind: 'write', path, append, source } : null;
}

/** `open(path, 'w')`, `open(path, mode='a')`, Ruby's `File.open(path, 'w')`: a write when the mode writes. */
function openForWriting() {
  return (args: Args, _callee: string, source: string, where: Where): InterpreterAction | null => {
    const given = typeof args.values[1] === 'string' ? args.values[1] : /\bmode\s*=\s*['"]([^'"]+)['"]/.exec(args.raw.slice(1).join(','))?.[1] ?? 'r';
    // Ruby's `'r:ascii-8bit'`: the letters before the colon are the mode, the rest an encoding
    const mode = given.split(':')[0]!;
    if (!/[wax+]/.test(mode)) return null;
    return written(args.raw[0], /a/.test(mode) && !/w/.test(mode), source, where);
  };
}

/** `Path('x').write_text(…)`, `(Path.home() / '.x').write_text(…)`, `p.write_text(…)`. */
function pathlibWrite(callee: string, source: string, where: Where): InterpreterAction | null {
  const receiver = callee.replace(/\s*\.\s*write_(?:text|bytes)\s*\($/, '');
  return written(receiver, false, source, where);
}

/** Perl's `open(my $fh, '>', $path)` and `open(FH, ">>path")`. */
function perlOpen(args: Args, _callee: string, source: string, where: Where): InterpreterAction | null {
  const mode = args.values[1];
  if (typeof mode !== 'string') return null;
  // `>`, `>>`, `+<` (read and write), with I/O layers after a colon (`>:encoding(UTF-8)`), then
  // the file in the same string (two-argument open) or as the third argument
  const two = /^\s*(\+?(?:>>|>)|\+<)((?::[\w()-]+)*)\s*(.*)$/.exec(mode);
  if (!two) return null;
  const append = two[1].endsWith('>>');
  if (two[3] !== '' && two[2] === '') return written(`'${two[3]}'`, append, source, where);
  return two[3] === '' ? written(args.raw[2], append, source, where) : null;
}

/** `…`, %x(…), Bun's $`…`: backticks run a shell command in Ruby, Perl, PHP and Bun. */
function backticks(code: string, tagged: boolean): InterpreterAction[] {
  const out: InterpreterAction[] = [];
  // In JavaScript a template literal is a string; only zx's and Bun's $`…` tag runs it.
  if (tagged) {
    const re = /\$`([^`]{1,2000})`/g;
    for (let m = re.exec(code); m && out.length < MAX_ACTIONS; m = re.exec(code)) out.push({ kind: 'shell', script: m[1].replace(/\$\{[^}]*\}/g, '$?'), source: m[0] });
    return out;
  }
  const re = /`([^`\n]{1,2000})`|(?:%x|\bqx)\s*\(([^)\n]{1,2000})\)|(?:%x|\bqx)\s*\{([^}\n]{1,2000})\}|\bqx\s*\[([^\]\n]{1,2000})\]/g;
  for (let m = re.exec(code); m && out.length < MAX_ACTIONS; m = re.exec(code)) {
    const script = (m[1] ?? m[2] ?? m[3] ?? m[4]).replace(/\$\{[^}]*\}|#\{[^}]*\}/g, '$?');
    out.push({ kind: 'shell', script, source: m[0] });
  }
  return out;
}

// ---- argument reading ------------------------------------------------------------------------------

/** Expressions that mean the home directory in each language. */
const HOME_EXPR = /^(os\.path\.expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|pathlib\.Path\.home\(\)|os\.homedir\(\)|require\(['"](?:node:)?os['"]\)\.homedir\(\)|process\.env\.HOME|process\.env\[['"]HOME['"]\]|os\.environ\[['"]HOME['"]\]|os\.environ\.get\(['"]HOME['"]\)|os\.getenv\(['"]HOME['"]\)|Dir\.home|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|\$ENV\{['"]HOME['"]\}|getenv\(['"]HOME['"]\))$/;

/**
 * Reads call arguments starting at `start` (just after the opening parenthesis, or after the
 * callee for a bare Perl/Ruby call) up to the closing parenthesis or end of statement.
 */
function readArgs(code: string, start: number, mode: 'paren' | 'bare'): Args {
  const values: (string | string[] | null)[] = [];
  const raw: string[] = [];
  let i = start;
  let depth = 0;
  let argStart = i;
  const parts: (string | null)[] = [];
  let list: string[] | null = null;
  const finish = (end: number) => {
    const text = code.slice(argStart, end).trim();
    raw.push(text);
    if (list) values.push(list);
    else if (HOME_EXPR.test(text)) values.push('~');
    else if (parts.length === 0) values.push(null);
    else values.push(parts.every((p) => p !== null) ? parts.join('') : parts.map((p) => p ?? '$?').join(''));
    parts.length = 0;
    list = null;
    argStart = end + 1;
  };
  const limit = Math.min(code.length, start + 8_000);
  while (i < limit) {
    const c = code[i];
    if (c === '"' || c === "'" || c === '`') {
      const lit = readString(code, i);
      if (depth === 0) parts.push(lit.value);
      else if (depth === 1 && list) list.push(lit.value ?? '$?');
      i = lit.end;
      continue;
    }
    if (mode === 'bare' && depth === 0 && c === 'q' && /^q[qx]?\s*[{([/|!]/.test(code.slice(i, i + 4))) {
      const lit = readPerlQuote(code, i);
      parts.push(lit.value);
      i = lit.end;
      continue;
    }
    if (c === '[' && depth === 0 && parts.length === 0 && !list) {
      list = [];
      depth++;
      i++;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      depth++;
    } else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) {
        if (mode === 'paren' || c === ')') {
          finish(i);
          return { values, raw, end: i + 1 };
        }
      } else {
        depth--;
      }
    } else if (depth === 0 && c === ',') {
      finish(i);
    } else if (depth === 0 && (c === ';' || c === '\n') && mode === 'bare') {
      break;
    } else if (depth === 0 && /[A-Za-z_$]/.test(c)) {
      // an identifier or expression part: unknown value, unless it is a home expression
      const m = /^[\w$.]+(\([^()]*\))?(\[[^\]]*\])?(\{[^}]*\})?/.exec(code.slice(i));
      const word = m ? m[0] : c;
      parts.push(HOME_EXPR.test(word) ? '~' : /^(f|r|b|rb|br|fr|rf)$/i.test(word) && /['"]/.test(code[i + word.length] ?? '') ? '' : null);
      i += word.length;
      continue;
    } else if (depth === 1 && list && c === ',') {
      // list separator
    } else if (depth === 1 && list && /[A-Za-z_$]/.test(c)) {
      const m = /^[\w$.]+(\([^()]*\))?/.exec(code.slice(i));
      const word = m ? m[0] : c;
      list.push(HOME_EXPR.test(word) ? '~' : '$?');
      i += word.length;
      continue;
    }
    i++;
  }
  finish(i);
  return { values, raw, end: i };
}

interface Lit {
  value: string | null;
  end: number;
}

/** A quoted literal at `i`; interpolations (${…}, #{…}, {…} in f-strings) make parts unknown. */
function readString(code: string, i: number): Lit {
  const q = code[i];
  const triple = code.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  let j = i + close.length;
  let value = '';
  while (j < code.length && !code.startsWith(close, j)) {
    if (code[j] === '\\' && j + 1 < code.length) {
      const e = code[j + 1];
      value += e === 'n' ? '\n' : e === 't' ? '\t' : e;
      j += 2;
      continue;
    }
    value += code[j++];
  }
  const end = Math.min(code.length, j + close.length);
  const interpolated = q === '`' ? value.replace(/\$\{[^}]*\}/g, '$?') : q === '"' ? value.replace(/#\{[^}]*\}/g, '$?') : value;
  return { value: interpolated, end };
}

/** Perl's q{…}, qq(…), qx[…]: the delimiter pairs or repeats. */
function readPerlQuote(code: string, i: number): Lit {
  const m = /^q[qx]?\s*/.exec(code.slice(i));
  const open = code[i + (m ? m[0].length : 1)];
  const pairs: Record<string, string> = { '{': '}', '(': ')', '[': ']', '<': '>' };
  const close = pairs[open] ?? open;
  const from = i + (m ? m[0].length : 1) + 1;
  const to = code.indexOf(close, from);
  const end = to < 0 ? code.length : to;
  return { value: code.slice(from, end), end: Math.min(code.length, end + 1) };
}

/** Programs whose command lines are what a destructive shell command looks like. */
const SHELL_TEXT = /^\s*(?:sudo\s+)?(?:rm|git|find|dd|shred|mkfs(?:\.\w+)?|chmod|chown|truncate|kubectl|docker|terraform)\s+-{0,2}[\w/~.$]/;

/**
 * `node -e "rm -rf /"`, `perl -e "rm -rf /"`: shell text handed to an interpreter — a syntax error
 * in the language, but plainly a command line the agent means to run (and will, one retry later,
 * through a shell). Returned as a script to read, or null.
 */
export function shellText(program: string): string | null {
  return !program.includes('\n') && SHELL_TEXT.test(program) ? program.trim() : null;
}
