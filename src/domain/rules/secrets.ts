// secrets: credentials that ended up somewhere they should not be — typed into a prompt, put into
// a command or a file by the agent, printed in tool output (and then sent out), plus reads of
// credential files and environment dumps that put secrets into the model's context.
import { LOW_CONFIDENCE_FORMATS, type FormatId } from '../agents.ts';
import { attachmentSource } from '../model/attachments.ts';
import type { NormEvent, PatchFile, ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { SecretHit } from '../secrets/types.ts';
import type { EventFacts, FindingDraft, Rule, RuleContext, SessionFacts } from './types.ts';
import { effectsOf, locate, type Effects, type FileOp, type Located, type NetOp } from './effects.ts';
import { containerExec, isLocalHost, launchedProgram, optionValues, parseArgs } from './commands.ts';
import { commandOutputLines, lastStep, Outcomes } from './outcome.ts';
import { credentialCause, secretKey } from './secrets-cause.ts';
import { SecretFlow } from './secret-flow.ts';
import { savedInGitConfig } from './git-config-urls.ts';
export { credentialCause } from './secrets-cause.ts';
import { isTestFile } from '../paths.ts';
import { LocalCaptures } from './local-captures.ts';
import { answeringHost, belongsTo, homeHostOf, isIssuerHost, mintable } from '../secrets/issuers.ts';
import { isDefaultPassword, isPlaceholder } from '../secrets/filters.ts';
import { selfDescribedNonSecret, STAND_IN_SEGMENT } from '../secrets/labelled.ts';
import { clientBundledName, jwtLifetimeSeconds } from '../secrets/context.ts';
import { asRequested, DictatedCommands, namesFile, namesFileKind, namesPath, orderSentences, requestsOf, sentencesAsking, whoAsked, type Asker } from './requests.ts';
import { askedToFindCredential } from './credential-hunt.ts';
import { passwordTypedAt, wordAt } from './typed-password.ts';
import { addCapped, around, basename, describeCall, ELIDED, escapeRegExp, evidence, meta, plural, QUOTE_MAX, safe, setCapped, type EvidenceItem } from './util.ts';

export const inPrompt = meta({
  id: 'secrets/in-prompt',
  severity: 'critical',
  title: 'Secret typed into a prompt',
  description: 'A credential (token, key, password) appears in a prompt sent to the agent: it is now in the model provider\'s logs and in this session log. A provider format is critical; a value known only by its secret-bearing name (`password: …`, `Authorization: Bearer …`) is a warning. Entropy alone is never evidence; identifiers (`key`, `*_id`, hashes, UUIDs, values from a URL the user typed) are not credentials.',
  remediation: 'Rotate the credential; give agents secrets through environment variables or a secret manager, never in the prompt.',
});
export const inToolInput = meta({
  id: 'secrets/in-tool-input',
  severity: 'critical',
  title: 'Secret hard-coded by the agent',
  description: 'A credential appears in a command the agent ran, a file it wrote or edited, a URL it fetched or another tool input. Secrets the user supplied in the prompt and then used in commands are reported once (as in-prompt); secrets written into test files or known only by their name, or handed to a program on this machine only through its environment (`KEY=… python main.py`, reaching no host), are a warning. One credential is one finding wherever it appears (prompt, files, outputs).',
  remediation: 'Rotate the credential, remove it from the files and the git history, and reference it through the environment instead.',
});
export const inToolOutput = meta({
  id: 'secrets/in-tool-output',
  severity: 'warning',
  title: 'Secret exposed in tool output',
  description: 'A credential was printed by a tool (or repeated by the agent, or injected into the session\'s instructions) and is now in the model\'s context: a token of a recognised format, or an opaque value labelled as a credential (`API_KEY=…`, `?api-key=…`, `Authorization: Bearer …`). Critical when the same value later appears in a network command or fetched URL to a host other than the service that issued it (a GitHub token used with api.github.com is the token doing its job). The values one output showed are one finding (a provider\'s token and labelled values alike). Info for a value first shown by the project\'s test files or a failed assertion\'s message, an installed package\'s files (node_modules, site-packages), a template or seed file, a local-only service, or the agent\'s own reply offering it as an example. Unlabelled high-entropy strings in output are ignored (outputs are full of hashes and ids).',
  remediation: 'Rotate the credential; keep credentials out of files and outputs the agent can read.',
});
export const sensitiveFileRead = meta({
  id: 'secrets/sensitive-file-read',
  severity: 'warning',
  title: 'Credential file read',
  description: 'The agent read a file that holds credentials (.env, ~/.ssh keys, ~/.aws/credentials, .netrc, .npmrc, kubeconfig …) with a read tool or cat/less/head/grep/cp/base64 and the like. Templates such as .env.example and public keys are not reported; sourcing a file (source .env) does not print it and is not reported. Info when the read failed or showed nothing, when what it showed holds no credential, or when every credential it showed had reached the transcript before (typed into a prompt, or printed by an earlier output): nothing new reached it.',
  remediation: 'Check whether the contents left the machine; keep credential files out of the agent\'s reach (deny rules, sandbox).',
});
export const envDump = meta({
  id: 'secrets/env-dump',
  severity: 'warning',
  title: 'Environment dumped',
  description: 'env, printenv, set or export -p without arguments, or /proc/*/environ: every variable, including tokens, goes into the model\'s context. Printing one named variable, or filtering the dump for something that is not credential-like (env | grep NODE), is not reported.',
  remediation: 'Check which secrets the environment held and rotate them if they matter; filter for the variable you need instead of dumping all.',
});

// ---- shared predicates (also used by the exfiltration and injection rules) ---------------------

export const PUBLIC_VARIANT = /(\.pub|\.example|\.sample|\.template|\.dist|\.defaults?|\.tpl|\.md)$/i;

const SENSITIVE_LABELS: Record<string, string> = {
  'env-file': 'an environment file', ssh: 'an SSH file', 'private-key': 'a private key', 'aws-credentials': 'AWS credentials',
  'gcloud-credentials': 'Google Cloud credentials', 'kube-config': 'a Kubernetes config', 'agent-credentials': "a coding agent's login tokens", netrc: 'a .netrc file',
  npmrc: 'an npm/yarn config (auth tokens)', pypirc: 'a .pypirc file', 'docker-config': 'Docker registry credentials',
  'git-credentials': 'git credentials', gnupg: 'a GnuPG keyring', shadow: 'the password database', sudoers: 'the sudoers file',
  'password-file': 'a password file', 'credentials-file': 'a credentials file', 'secrets-file': 'a secrets file',
  'terraform-state': 'Terraform state (holds secrets)', keychain: 'a keychain', 'shell-history': 'shell history',
  'wifi-credentials': 'Wi-Fi network keys',
};

/** A reader's phrase for a sensitive-path kind from paths.ts ("aws-credentials" → "AWS credentials"). */
export function sensitiveLabel(kind: string): string {
  return SENSITIVE_LABELS[kind] ?? `a sensitive file (${kind.replace(/-/g, ' ')})`;
}

/**
 * Reads of credential files (the paths module decides what is sensitive) whose contents were
 * shown: `grep -c KEY .env`, `grep KEY .env | wc -l` or `grep -q …` print a count or nothing, never
 * a value (issue 15, class 3), so they are not secret reads.
 */
export function sensitiveReads(fx: Effects): FileOp[] {
  return fx.reads.filter((r) => r.sensitive !== null && !NO_SECRET_KINDS.has(r.sensitive) && !PUBLIC_VARIANT.test(r.path) && !(r.cmd && (printsOnlyACount(r.cmd, fx.commands) || narrowedToSettings(r, fx.commands))));
}

/**
 * `grep '^CHROME_TEST_PATH=' ~/.tool/.env | cut -d= -f2`, `cat .env | grep -E '^(PORT|NODE_ENV)='`,
 * `grep -w '^LOG_LEVEL' .env`: an environment file filtered down to whole settings the command names,
 * none of them credential-like, shows only those lines (a secret among them would still be caught
 * by the scan of the output). Only environment files (a `.netrc` or `.pgpass` line that matches a
 * host holds its password), only names pinned whole (`^NAME=`, `-w '^NAME'`, `-x`: `grep PORT` also
 * prints `SUPPORT_PASSWORD=…`, `grep -w production` a password that holds the word), and not with context, whole-file or inverted matching (`-A 3`, `-z`,
 * `--passthru`, `-v`) or patterns read from a file.
 */
function narrowedToSettings(r: FileOp, all: Located[]): boolean {
  const cmd = r.cmd;
  if (!cmd || r.sensitive !== 'env-file') return false;
  let filter: SimpleCommand | undefined = GREPS.test(cmd.name) ? cmd : undefined;
  if (!filter && cmd.pipeIndex < cmd.pipeLength - 1) {
    const at = all.findIndex((l) => l.cmd === cmd);
    const next = all[at + 1]?.cmd;
    if (next && next.pipeIndex === cmd.pipeIndex + 1 && GREPS.test(next.name)) filter = next;
  }
  const names = filter ? grepNames(filter) : null;
  return names !== null && names.length > 0 && names.every((n) => !SECRET_SETTING.test(n));
}
const GREPS = /^(?:grep|egrep|rg)$/;
/** Setting names whose values are, or hold, credentials (a connection string carries its password). */
const SECRET_SETTING = /key|token|secret|pass|pwd|cred|auth|session|cookie|private|salt|sign|cert|jwt|url|uri|dsn|conn|database|db_?|redis|mongo|postgres|mysql|smtp|mail|webhook|sentry|bearer|account|client|login|user|ssh|github|gh_|npm|aws/i;
/** The whole setting names a grep matches by (`^NAME=`, `^(A|B)=`, `-w NAME`, `-e '^A=' -e '^B='`), or null when it matches by anything else. */
function grepNames(cmd: SimpleCommand): string[] | null {
  const valued = ['-e', '--regexp', '-f', '--file', '-m', '--max-count', '-A', '-B', '-C', '--context', '--after-context', '--before-context', '-g', '--glob', '-t', '--type'];
  const p = parseArgs(cmd.args, valued);
  if (cmd.args.some((a) => WIDENS.test(a))) return null;
  // -x matches whole lines only; -w a word anywhere (a value, a comment), so it pins a name only from the line's start
  const line = p.short.has('x') || p.long.has('--line-regexp');
  const word = p.short.has('w') || p.long.has('--word-regexp');
  const given = optionValues(cmd.args, ['-e', '--regexp']);
  const patterns = given.length > 0 ? given : p.operands.slice(0, 1);
  const names: string[] = [];
  for (const pattern of patterns) {
    const m = (line || (word && pattern.startsWith('^')) ? WORD_PATTERN : PINNED_PATTERN).exec(pattern);
    if (!m) return null;
    names.push(...m[1]!.split('|'));
  }
  return names;
}
/** Options that print more than the matching lines, or other lines: context, whole input, inversion, a pattern file. */
const WIDENS = /^-(?:[a-zA-Z]*[ABCvzfUP]|\d+)|^--(?:context|after-context|before-context|invert-match|null-data|passthru|file|multiline)/;
/** `^NAME=` or `^(A|B)=`: each name from the start of the line to its `=`. */
const PINNED_PATTERN = /^\^\(?([A-Za-z_][A-Za-z0-9_]*(?:\|[A-Za-z_][A-Za-z0-9_]*)*)\)?=$/;
/** With `-x`, or `-w` from the line's start: a plain name, or names in an alternation. */
const WORD_PATTERN = /^\^?\(?([A-Za-z_][A-Za-z0-9_]*(?:\|[A-Za-z_][A-Za-z0-9_]*)*)\)?=?$/;

/** The sensitive reads whose content reaches the transcript: not a copy into another file (its flow is followed on its own). */
function readsIntoTranscript(fx: Effects): FileOp[] {
  const line = fx.call?.input.type === 'command' ? fx.call.input.command : '';
  return sensitiveReads(fx).filter((r) => !(r.cmd && (copiesWithoutPrinting(r.cmd) || capturedIntoVariable(r.cmd, line))));
}

/**
 * `TOKEN=$(grep '^API_SECRET=' .env.local | cut -d= -f2-)`: the read's output becomes a shell
 * variable's value, not output — the value reaches the transcript only if the same call prints
 * it: the variable echoed, printed or dumped with the environment (`echo $TOKEN`, `printenv`,
 * `env | grep`, `declare -p`, an unquoted heredoc that holds it), the shell tracing its commands
 * (`set -x`, `bash -x`), or a `tee` inside the substitution copying it out (its length,
 * `${#TOKEN}`, shows nothing of it).
 */
function capturedIntoVariable(cmd: SimpleCommand, line: string): boolean {
  if (cmd.nested !== 'substitution' || line.length > 8_000 || TRACED.test(line)) return false;
  const at = line.indexOf(cmd.text);
  const m = at > 0 ? /(?:^|[\s;&|(])(?:export\s+|local\s+|readonly\s+)?([A-Za-z_][A-Za-z0-9_]*)=["']?\$\(\s*$/.exec(line.slice(Math.max(0, at - 200), at)) : null;
  if (!m) return false;
  const name = m[1]!;
  const close = line.indexOf(')', at + cmd.text.length);
  if (/\btee\b/.test(line.slice(at, close < 0 ? undefined : close))) return false;
  const rest = line.slice(at + cmd.text.length);
  const printed = new RegExp(`\\b(?:echo|printf|print|cat|tee|printenv)\\b[^\\n;&|]*\\$\\{?${name}\\b|\\bprintenv\\b|\\benv\\s*(?:$|[|;&)])|\\b(?:declare|typeset|export)\\s+-p\\b|(?:^|[;&|]\\s*)set\\s*(?:$|[|;&])|<<-?\\s*(?!['"])\\w+[\\s\\S]*\\$\\{?${name}\\b`, 'm');
  return !printed.test(rest);
}
/** The shell prints each command with its variables expanded. */
const TRACED = /\bset\s+(?:-[a-zA-Z]*x|-o\s+xtrace)\b|\b(?:ba|z|da|k)?sh\s+-[a-zA-Z]*x/;

/**
 * `cp .env .env.backup`, `install -m 600 .env dist/`: the file goes to another file, not into the
 * transcript (where the copy goes is judged on its own: a copy into the tree, a push, a transfer).
 */
function copiesWithoutPrinting(cmd: SimpleCommand): boolean {
  return /^(?:cp|mv|install|ln|ditto|Copy-Item|Move-Item|copy|move|xcopy|robocopy)$/.test(cmd.name) && !cmd.args.some((a) => a === '-v' || a === '--verbose');
}
// Sensitive to change, holding no secret to read: sudoers names who may run what as root.
const NO_SECRET_KINDS: ReadonlySet<string> = new Set(['sudoers']);

/** Flags of grep/rg that print a count, file names or nothing instead of the matching lines. */
const GREP_NO_LINES = /^-(?:[a-zA-Z]*[cqlL][a-zA-Z]*)$|^--(?:count|quiet|silent|files-with-matches|files-without-match)$/;

function countsOnly(cmd: SimpleCommand): boolean {
  if (cmd.name === 'wc') return true;
  if (/^(grep|egrep|fgrep|rg)$/.test(cmd.name)) return cmd.args.some((a) => GREP_NO_LINES.test(a));
  return cmd.name === 'test' || cmd.name === '[';
}

/** Does the pipeline of `cmd` (from `cmd` on) print only a count, or nothing at all? */
export function printsOnlyACount(cmd: SimpleCommand, all: Located[]): boolean {
  const at = all.findIndex((l) => l.cmd === cmd);
  const stages = [cmd];
  for (let i = at + 1; at >= 0 && i < all.length && all[i].cmd.pipeIndex === stages.length + cmd.pipeIndex; i++) stages.push(all[i].cmd);
  const last = stages[stages.length - 1];
  if (last.pipeIndex < last.pipeLength - 1) return false; // a stage we could not follow: assume shown
  if (last.redirects.some((r) => (r.op === '>' || r.op === '&>') && r.target === '/dev/null')) return true;
  return stages.some(countsOnly);
}

const CREDENTIALISH = /key|token|secret|pass|pwd|cred|auth|aws|api|gh_|github|npm|session|cookie|private/i;

/** Is this command an environment dump? Returns a short description or null. */
export function envDumpOf(loc: Located, all: Located[], opts: { containers?: boolean } = {}): string | null {
  // a container's environment holds its service's secrets (database passwords, API keys); it is
  // not this shell's, so only the dump itself is reported (opts.containers), never a later use of `$VARS`
  const inner = opts.containers === true ? containerExec(loc.cmd) : null;
  const cmd = inner ? shellRunsOnly(inner) ?? inner : loc.cmd;
  const { name, args } = cmd;
  let dump: string | null = null;
  if ((name === 'env' || name === 'printenv') && parseArgs(args, ['-u', '-C', '-S']).operands.length === 0) dump = name;
  else if (name === 'set' && args.length === 0) dump = 'set';
  else if ((name === 'export' || name === 'declare' || name === 'typeset') && args.length > 0 && args.every((a) => /^-[px]+$/.test(a))) dump = `${name} ${args.join(' ')}`;
  else if (readsEnvironFile(cmd)) dump = 'a process environment file (/proc/*/environ)';
  if (!dump) return null;
  if (inner) dump = `${dump} in a container (\`${loc.cmd.text.slice(0, 80)}\`)`;
  // `env | grep NODE_ENV` narrows the dump to something harmless; `env | grep -i token` does not.
  const at = all.indexOf(loc);
  const next = all[at + 1]?.cmd;
  if (next && cmd.pipeLength > 1 && cmd.pipeIndex < cmd.pipeLength - 1 && /^(grep|egrep|rg)$/.test(next.name)) {
    const pattern = parseArgs(next.args, ['-e', '-m', '-A', '-B', '-C']).operands[0] ?? next.args.join(' ');
    if (!CREDENTIALISH.test(pattern)) return null;
  }
  // `env | grep -i github | sed 's/=.*/=<set>/'`, `printenv | cut -d= -f1`: a later stage keeps
  // the names and drops every value (or only counts): nothing secret reaches the transcript.
  const later = all.slice(at + 1, at + (cmd.pipeLength - cmd.pipeIndex)).map((l) => l.cmd);
  if (later.some(dropsValues)) return null;
  return dump;
}

/** `sh -c 'env'` in a container: the one command the shell runs, when its script is a single word. */
function shellRunsOnly(cmd: SimpleCommand): SimpleCommand | null {
  if (!/^(?:sh|bash|ash|zsh|dash)$/.test(cmd.name) || cmd.args[0] !== '-c') return null;
  const word = /^\s*([a-z]+)\s*$/.exec(cmd.args[1] ?? '')?.[1];
  return word ? { ...cmd, name: word, args: [] } : null;
}

/** A pipeline stage that prints names without their values, or only a count. */
function dropsValues(cmd: SimpleCommand): boolean {
  const args = cmd.args.join(' ');
  switch (cmd.name) {
    case 'sed':
      // s/=.*/…/ with any delimiter: everything after the first "=" replaced.
      return /\bs(.)=\.\*\1/.test(args);
    case 'cut':
      return /(?:^|\s)-d\s*["']?=["']?/.test(args) && /(?:^|\s)-f\s*1(?:\s|$)/.test(args);
    case 'awk':
    case 'gawk':
      return /-F\s*["']?=["']?/.test(args) && /print \$1\s*}/.test(args) && !/\$[2-9]|\$0/.test(args);
    case 'wc':
      return true;
    case 'grep':
    case 'egrep':
      return cmd.args.some((a) => GREP_NO_LINES.test(a));
    default:
      return false;
  }
}

function readsEnvironFile(cmd: SimpleCommand): boolean {
  const targets = [...cmd.args, ...cmd.redirects.filter((r) => r.op === '<').map((r) => r.target)];
  return targets.some((a) => /^\/proc\/[^/]+\/environ$/.test(a));
}

/** Path segments and query values (8+ characters) of the URLs in a text, userinfo excluded. */
export function urlIdentifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bhttps?:\/\/[^\s"'<>`]+/g)) {
    let url: URL;
    try {
      url = new URL(m[0]);
    } catch {
      continue;
    }
    for (const seg of url.pathname.split('/')) if (seg.length >= 8) out.push(decodeURIComponentSafe(seg));
    for (const [name, value] of url.searchParams) if (value.length >= 8 && !/token|secret|key|pass|auth|sig|cred/i.test(name)) out.push(value);
  }
  return out;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// ---- the rules ------------------------------------------------------------------------------

const PROMPT_SECRETS_MAX = 200;
const OUTPUT_SECRETS_MAX = 50;
const EVIDENCE_PER_SECRET = 5;

interface OutputSecret {
  hit: SecretHit;
  /** The value is the token in the query of a redirect a download followed (a signed link). */
  signedLink?: boolean;
  evidence: EvidenceItem[];
  where: string;
  source: string;
  sent: EvidenceItem | null;
  /** The issuer's host it was then used with (not an exfiltration), if any. */
  usedWithIssuer?: string;
  /** A password in a URL to this machine or its private network: a development default. */
  local?: boolean;
  /** The event that first showed it: values one output printed together are one finding. */
  shownAt?: number;
  /** The service the log showed it configured for (the host of a URL on its line), if any. */
  home?: string | null;
  /** The files whose read first showed it (absolute paths): where it was stored already. */
  readFrom?: string[];
  /** First shown by a template, sample, seed or fixture file: a default the project publishes. */
  published?: boolean;
  /** A labelled value first shown by reading the project's test files: a fixture. */
  fromTests?: boolean;
  /** A labelled value first shown from an installed package's files (node_modules, site-packages): the package's own text. */
  fromPackage?: string;
  /** First seen in the agent's own reply or reasoning: a value it wrote itself (an example, a suggestion), no tool showed it. */
  composed?: boolean;
  /** The credential file whose read first showed it (absolute path): that read's finding and this are one. */
  byCredentialRead?: string;
  /** Who asked the agent to find a credential before the output that first showed this one (null: nobody). */
  askedToFind?: Asker | null;
}

// Words that present what follows as an example or a value to make one's own.
const PRESENTS_EXAMPLE = /\b(?:example|e\.g\.|for instance|sample|placeholder|replace (?:it|this) with your own|generate your own)\b/i;

/**
 * The reply offers the value at `at` as an example: the words say so on the value's own line, or on
 * the line that opens the code block holding it ("Example of what it looks like:" then ```env).
 */
/** Words of a reply that propose a password of its own: a new, temporary or simpler one, or one to set. */
const PROPOSES_PASSWORD = /\b(?:new|temporary|suggested|simpler|stronger|different|fresh)\s+password\b|\b(?:set|reset|change|update)\s+(?:the\s+|your\s+|its\s+|it\s+)?(?:[\w-]+\s+)?password\s+(?:to|as|with)\b|\bpassword\s+(?:like|such\s+as)\b/i;

/** A password (labelled, or in a connection URL) that the reply's words before it propose as a new one. */
function proposesPassword(hit: SecretHit, text: string): boolean {
  if (!/password|passwd|pwd/i.test(hit.label)) return false;
  return PROPOSES_PASSWORD.test(text.slice(Math.max(0, hit.start - 400), hit.start));
}

function offeredAsExample(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  if (PRESENTS_EXAMPLE.test(text.slice(Math.max(lineStart, at - 300), at))) return true;
  const before = text.slice(Math.max(0, lineStart - 2_000), lineStart).split('\n');
  before.pop(); // the newline that ended the previous line
  // up to the block's opening fence, then the line before it
  for (let i = before.length - 1, seen = 0; i >= 0 && seen < 20; i--, seen++) {
    if (/^\s*(?:```|~~~)/.test(before[i]!)) return i > 0 && PRESENTS_EXAMPLE.test(before[i - 1]!);
  }
  return false;
}

// Where package managers install other people's published code and documentation.
// (not the dot-folders tools generate there from the project's own files: `node_modules/.prisma`
// holds the project's schema, `node_modules/.cache` its build caches; nor an env file anywhere)
const PACKAGE_DIR = /(?:^|\/)(?:node_modules|bower_components|site-packages|dist-packages|\.venv\/lib|vendor\/bundle|\.cargo\/registry|pkg\/mod|Pods)\/(?!\.)(?![^\n]*(?:^|\/)\.env(?:\.[\w.-]+)?$)/;
// A search hit's file at the start of its line (`node_modules/pg/README.md:12:…`, `./vendor/…:`).
const HIT_PATH = /^(?:[^\s:]*\/)?([^\s:]+):(?:\d+[:-])?/;

/** The installed package file a search hit or read showed the value from, or null. */
function packageFileOf(text: string, start: number, readFrom: readonly string[]): string | null {
  if (readFrom.length > 0 && readFrom.every((p) => PACKAGE_DIR.test(p))) return readFrom[0]!;
  const from = text.lastIndexOf('\n', start) + 1;
  const m = HIT_PATH.exec(text.slice(from, Math.min(start, from + 500)));
  const path = m ? m[0].replace(/:(?:\d+[:-])?$/, '') : null;
  return path !== null && PACKAGE_DIR.test(path) ? path : null;
}

/** A document of examples (`API_EXAMPLES.md`, `docs/examples/auth.md`, `usage-samples.rst`): by its name's words or its folder. */
function isExamplesDoc(path: string): boolean {
  const p = path.replace(/\\/g, '/');
  if (p.length > 1_024 || !/\.(?:md|mdx|rst|txt|adoc)$/i.test(p)) return false;
  const base = p.slice(p.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  return /(?:^|[_.-])(?:examples?|samples?)(?:[_.-]|$)/i.test(base) || /\/(?:examples?|samples?)\/[^/]+$/i.test(p);
}
/**
 * A test script named for what it tests (`scripts/testAPI.js`, `testLogin.py` at the root) and a
 * password made up to pass a form's rules (`TestPassword123!`: letters, a 123… run, one symbol):
 * the script's own test user. Such scripts often run against real services, so only values of
 * that made-up shape count, and only there (not `src/…/testConnection.ts`).
 */
const TEST_SCRIPT = /(?:^|\/)(?:scripts?\/)?test[A-Z][A-Za-z0-9]*\.(?:[cm]?[jt]sx?|py)$/;
const MADE_UP_PASSWORD = /^[A-Za-z]{2,30}(?:123|1234|12345|123456)[!@#$%^&*.]?$/;
function isTestScriptValue(path: string, value: string, cwd: string | null): boolean {
  const p = path.replace(/\\/g, '/');
  const rel = cwd !== null && p.startsWith(cwd.replace(/\\/g, '/').replace(/\/+$/, '') + '/') ? p.slice(cwd.replace(/\/+$/, '').length + 1) : p;
  return MADE_UP_PASSWORD.test(value) && (TEST_SCRIPT.test(rel) && (/^(?:scripts?\/)?test[A-Z]/.test(rel) || /\/scripts?\/test[A-Z][^/]*$/.test(p)));
}
/**
 * A password in a document (`docs/api-documentation.md`, a README) made up the way examples are,
 * whole: a placeholder's word, maybe after new/old/my/your, then a 123… run and maybe a symbol
 * (`new_password123!`, `MyPassword1234`, `demo_user123`) — the sample request's value, not an
 * account's. Any other value in a document (`acme_prod_db123`, `Welcome_AcmeCorp123!`) is judged as written.
 */
function isDocExampleValue(path: string, value: string): boolean {
  return /\.(?:md|mdx|rst|adoc)$/i.test(path) && SAMPLE_PASSWORD.test(value);
}
const SAMPLE_PASSWORD = /^(?:(?:new|old|my|your|test|demo|sample|example)[_-]?)?(?:pass(?:word)?|pwd|secret|example|sample|test|demo|user|changeme|qwerty|letmein|welcome|dummy|fake)[_-]?(?:123|1234|12345|123456)[!@#$%^&*.]?$/i;
// Files a project ships as defaults for others to copy: templates, samples, seed data, fixtures.
const DEFAULTS_FILE = /\.(?:example|sample|template|dist|defaults?)$|\.(?:example|sample|template)\.[\w]+$|(?:^|\/)(?:seeds?|fixtures?)\/|(?:^|\/)seed[\w.-]*\.(?:sql|json|ya?ml|ts|js|py|rb)$/i;



/** Where a shown value came from, as a cause: one tool (by name), or the kind of text. */
function sourceOf(event: NormEvent, facts: EventFacts): string {
  if (event.kind === 'tool_result') return facts.call ? `the output of ${safe(facts.call.name, facts, QUOTE_MAX)}` : 'tool output';
  return whereShown(event, facts);
}

const ENV_FILE = /(?:^|[\\/])\.env(?:\.[\w.-]+)?$|(?:^|[\\/])[\w.-]+\.env$/;

/** A configuration file under a tool's own dot-folder in home (`~/.moltbot/…/auth.json`, `~/.config/gh/hosts.yml`), not a project's. */
function toolConfigInHome(abs: string, zone: string, session: SessionFacts): boolean {
  const home = session.home;
  // (a session launched in home itself has its dot-folders inside its "worktree"; a project in a
  // dot-folder — a dotfiles repository — is a project)
  if (home === null || !(zone === 'home' || (zone === 'worktree' && session.cwd === home))) return false;
  const rel = abs.replace(/\\/g, '/').slice(home.replace(/\\/g, '/').length);
  return /^\/\.[\w-]+\/(?:[^/]+\/){0,4}[^/]+\.(?:json|ya?ml|toml|ini|conf|cfg|env)$/i.test(rel);
}

const PASSWORD_LABELS = /^Password in (?:URL|database URL|a command line)$/;
const PASSWORD_LABEL = /passw(?:or)?d|\bpwd\b|\bpass\b/i;
// An e-mail address at a domain RFC 2606 / RFC 6761 reserve for examples and tests.
/** wget's redirect line up to a signed link's parameter: `Location: https://host/path?…&jwt=` (the first parameter too). */
const SIGNED_REDIRECT = /(?:^|\n)[ \t]*Location:[ \t]+https?:\/\/[^\s?]{1,500}\?(?:[^\s]{0,1500}[?&])?(?:jwt|sig|signature|x-amz-signature|token)=$/i;
/** …and the rest of that line: the redirect wget says it followed. */
const FOLLOWED = /^[^\s]{0,1500}[ \t]+\[following\]/;

/**
 * A development tool's banner that mints a secret for forwarding to this machine: the Stripe
 * CLI's `stripe listen` ("Your webhook signing secret is whsec_…") signs the events it relays to
 * localhost, and the secret dies with that listener.
 */
const LOCAL_FORWARDING_SECRET = /Ready! You are using Stripe API Version \[[^\]\n]{1,40}\]\. Your webhook signing secret is\s*$/;

/** A web service's sign-up route: the URL's path ends in it (`/auth/register`, `/api/v1/signup`). */
const REGISTER_PATH = /^\/(?:[\w.-]+\/){0,4}(?:register|signup|sign-up|sign_up)\/?$/i;

/**
 * The host a fetcher command registers an account with, carrying `value` in its own request (its
 * body or arguments): `curl -X POST https://api.example.com/auth/register -d '{"password": "…"}'`.
 * The network targets are the effects' own (commands.ts parses each fetcher's URL).
 */
function registeredWith(net: readonly NetOp[], value: string): string | null {
  for (const n of net) {
    if (!n.cmd || !n.url || n.cmd.text.length > 20_000 || !n.cmd.text.includes(value)) continue;
    const path = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+(\/[^\s?#]*)/i.exec(n.url)?.[1];
    if (path && REGISTER_PATH.test(path)) return n.host;
  }
  return null;
}
const RESERVED_EMAIL = /[\w.+$(){}-]+@(?:[\w-]+\.)*(?:example\.(?:com|org|net)|[\w-]+\.(?:test|example|invalid|localhost))\b/i;
const LOCAL_URL_HOST = /^[a-z][a-z0-9+.-]*:\/\/[^\s/@]*@\[?([^\s/:\]?#]+)/i;
/**
 * After a host: a line break, then a line that goes on with more of a host name — indented, or with
 * two dots or more where a capture dropped the indentation — then its path, port or query
 * (`    oler.ap-southeast-1.aws.neon.tech/neondb`): a wrapped name. Not the next line of a listing
 * (`docker-compose.yml:14: …` starts at the margin with one dot).
 */
const HOST_GOES_ON = /^[ \t]*\n(?:[ \t]+[A-Za-z0-9-]*\.[A-Za-z0-9.-]*[A-Za-z]|[A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+){2,}\.?[A-Za-z]*)(?:\/|:\d{2,5}(?:\/|\s|$)|\?)/;

/**
 * A password that only opens something on this machine or its private network: a database URL
 * to localhost, `curl -u admin:pw http://localhost:8080`. A development default, not a credential
 * that works anywhere else (issue 25: a warning only for a live-looking credential). `hosts`: the
 * hosts the call dials, when the password is in a command.
 */
export function isLocalPassword(hit: SecretHit, text: string, hosts: string[] | null): boolean {
  // A value known only by its label (a password, a secret in a .env, a JSON body's "password")
  // that the same text also puts into a URL to this machine is that local service's password.
  const password = PASSWORD_LABELS.test(hit.label);
  if ((password || hit.confidence !== 'high') && usedLocally(hit.value, text)) return true;
  // `PGPASSWORD=… pg_dump -h localhost -p 5434`, `mysql -pX -h 127.0.0.1`: a database client on the
  // value's own line pointed at this machine by its host option, and at no other host.
  const line = lineAround(text, hit.start, hit.end);
  const hostOptions = [...line.matchAll(HOST_OPTION)].map((m) => m[1]!.replace(/^\[|\]$/g, ''));
  // …run here: not inside a command ssh or a container runs elsewhere, nor through a tunnel (`-L`), nor beside hosts the call reaches
  const elsewhere = /\b(?:ssh|sshpass|kubectl|oc|docker|podman|gcloud|az|aws|flyctl|heroku)\b|(?:^|\s)-L\s*\d/.test(line) || (hosts !== null && !hosts.every(isLocalHost));
  if (PASSWORD_LABEL.test(hit.label) && hostOptions.length > 0 && !elsewhere && !/\b[a-z][\w+.-]*:\/\//i.test(line)) return hostOptions.every(isLocalHost);
  if (!password) return hit.confidence !== 'high' && hosts !== null && hosts.length > 0 && hosts.every(isLocalHost);
  const around = text.slice(wordStart(text, hit.start), hit.end + 200);
  const url = LOCAL_URL_HOST.exec(around);
  // a host a terminal wrapped onto the next line (`…-a1debolo-po` / `oler.ap-southeast-1.aws.neon.tech/`)
  // is the start of a longer name, not a one-label private one
  const cut = url !== null && HOST_GOES_ON.test(around.slice(url.index + url[0].length, url.index + url[0].length + 300));
  // a one-label name inside a production cluster's context is that cluster's service, not a development box
  if (url) return isLocalHost(url[1]) || (!cut && isPrivateName(url[1]) && !PRODUCTION_CONTEXT.test(text.slice(Math.max(0, hit.start - 400), hit.end + 400)));
  if (hosts !== null && hosts.length > 0) return hosts.every(isLocalHost);
  // A terminal capture may cut the command ("http://localhost…"): the URLs it still shows decide.
  const shown = [...text.slice(0, 20_000).matchAll(/\bhttps?:\/\/\[?([A-Za-z0-9.-]+)/g)].map((m) => m[1].replace(/\.+$/, ''));
  return hosts !== null && shown.length > 0 && shown.every(isLocalHost);
}

/** A database or cache client's host option and its value (`-h localhost`, `--host=127.0.0.1`, `-hlocalhost`). */
const HOST_OPTION = /(?:^|\s)(?:-h\s*|--host[=\s]\s*)(\[?[A-Za-z0-9.:-]+\]?)(?=\s|$|;)/g;

/** The line of `text` holding [start, end), at most a few hundred characters either side. */
function lineAround(text: string, start: number, end: number): string {
  const from = Math.max(text.lastIndexOf('\n', start) + 1, start - 400);
  const nl = text.indexOf('\n', end);
  return text.slice(from, Math.min(nl < 0 ? text.length : nl, end + 400));
}

/**
 * A host only this machine or its private network can name: a local address, or a name of one
 * label (`postgres`, `db`, `redis`: a compose service or a hosts-file name), which no public
 * resolver answers for.
 */
const PRODUCTION_CONTEXT = /\bprod(?:uction)?\b|\bkubectl\b|\bhelm\b|\bk8s\b/i;

function isPrivateName(host: string): boolean {
  return isLocalHost(host) || /^[a-z][a-z0-9_-]{0,62}$/i.test(host);
}

/** Where the whitespace-free word holding `at` begins (a URL's scheme, before its password). */
function wordStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && at - i < 400 && !/\s/.test(text[i - 1])) i--;
  return i;
}

const LOCAL_SCAN_MAX = 100_000;

/** Whether `value` appears as the password of a URL whose host is this machine (`…://user:VALUE@localhost`). */
function usedLocally(value: string, text: string): boolean {
  const scanned = text.length > LOCAL_SCAN_MAX ? text.slice(0, LOCAL_SCAN_MAX) : text;
  for (let at = scanned.indexOf(`:${value}@`); at >= 0; at = scanned.indexOf(`:${value}@`, at + 1)) {
    const after = scanned.slice(at + value.length + 1, at + value.length + 300);
    const host = /^@\[?([^\s/:\]?#]+)/.exec(after);
    // (a host a terminal wrapped onto the next line is the start of a longer name)
    if (host && (isLocalHost(host[1]) || (isPrivateName(host[1]) && !HOST_GOES_ON.test(after.slice(host[0].length))))) return true;
  }
  return false;
}

function inputSeverity(hit: SecretHit, lowStakes: boolean): 'critical' | 'warning' {
  return hit.confidence === 'high' && !lowStakes && !testMode(hit) ? 'critical' : 'warning';
}

/**
 * A provider's test-mode key (Stripe's `sk_test_…`, `rk_test_…`): it opens the account's sandbox,
 * where no real money or customer moves — a key to rotate and keep out of the transcript, but
 * nothing that must be undone (a warning, not critical).
 */
function testMode(hit: SecretHit): boolean {
  return /^(?:sk|rk)_test_/.test(hit.value);
}

/**
 * Values the user handed over: credentials found in a prompt, and any value that a prompt holds
 * word for word though no detector saw it there ("this is the NewsAPI key 8388…": plain hex after
 * a provider's name is not reported from prose). The user gave them to be used and stored; using
 * them, or storing them in an env file, is the request carried out (issue 25: the user's words).
 */
class HandedOver {
  private readonly values = new Set<string>();
  private readonly prompts: { text: string; index: number }[] = [];

  add(value: string): void {
    addCapped(this.values, value, PROMPT_SECRETS_MAX);
  }

  /** A prompt's text, to look values up in later (the last 30, up to 20,000 characters each). */
  typed(text: string, index: number): void {
    this.prompts.push({ text: text.length > TYPED_MAX_CHARS ? text.slice(0, TYPED_MAX_CHARS) : text, index });
    if (this.prompts.length > TYPED_PROMPTS_MAX) this.prompts.shift();
  }

  /** The last `n` prompts the user typed, newest last, joined. */
  recent(n: number): string {
    return this.prompts.slice(-n).map((p) => p.text).join('\n');
  }

  /** A value a detector found in a prompt, or one already looked up and found typed there. */
  known(value: string): boolean {
    return this.values.has(value);
  }

  has(value: string): boolean {
    if (this.values.has(value)) return true;
    if (value.length < TYPED_WORD_MIN_CHARS || !this.prompts.some((p) => typedIn(p.text, value))) return false;
    this.add(value);
    return true;
  }

  /**
   * The prompt that gave a password to the agent, however short: one that names a password and
   * holds the value as a word of its own ("my sudo password is 482"). The command that fed the
   * value to sudo says what it is; the prompt's word says the user meant it as one.
   */
  passwordPrompt(value: string): { text: string; index: number; at: number } | undefined {
    for (const p of this.prompts) {
      const at = passwordTypedAt(p.text, value);
      if (at >= 0) return { ...p, at };
    }
    return undefined;
  }
}

/**
 * Whether a prompt holds the value as typed: anywhere when it is long, as a word of its own when
 * it is short ("my sudo password is Kx9#mPq2", not the "admin1" inside "badmin12").
 */
function typedIn(prompt: string, value: string): boolean {
  return value.length >= TYPED_MIN_CHARS ? prompt.includes(value) : wordAt(prompt, value) >= 0;
}
const TYPED_PROMPTS_MAX = 30;
const TYPED_MAX_CHARS = 20_000;
/** Shorter values could be inside a prompt's words by chance; from this length, as a word of their own. */
const TYPED_MIN_CHARS = 12;
const TYPED_WORD_MIN_CHARS = 6;

export const SECRETS_RULES: Rule[] = [
  {
    metas: [inPrompt, inToolInput, inToolOutput],
    create(ctx) {
      const fromPrompt = new HandedOver();
      const seenInInput = new Set<string>();
      const flow = new SecretFlow(ctx);
      // A value "written into a file" needs the write to have happened (a refused Write wrote nothing).
      const writes = new Outcomes(ctx, [inPrompt, inToolInput, inToolOutput]);
      const outputs = new Map<string, OutputSecret>();
      const requests = requestsOf(ctx.session);
      const typedInUrls = new Set<string>();
      const captures = new LocalCaptures();
      // values the session generated itself (`openssl rand -hex 32`): new keys for the user's own setup
      const generated = new Set<string>();
      // scripts the session wrote that sign tokens (`create-jwt.py`): what they print, the session minted
      const minters = new Set<string>();
      const identifiers = (f: EventFacts): EventFacts => (typedInUrls.size === 0 ? f : { ...f, secrets: f.secrets.filter((h) => h.confidence === 'high' || !typedInUrls.has(h.value)) });
      return {
        onEvent(event, rawFacts) {
          writes.onEvent(event);
          const facts = identifiers(rawFacts);
          if (event.kind === 'prompt') {
            // A value from a URL the user typed (a design's file key, a share id) is an identifier
            // the user handed over: labelled or not, later uses of it are not credentials.
            for (const part of urlIdentifiers(event.text)) addCapped(typedInUrls, part, PROMPT_SECRETS_MAX);
            if (!event.synthetic) fromPrompt.typed(event.text, event.index);
            promptSecrets(ctx, event, facts, fromPrompt, outputs);
          } else if (event.kind === 'tool_call') {
            inputSecrets({ ...ctx, report: (d) => (isFileInput(event) ? writes.report(event, 'write', d) : ctx.report(d)) }, event, facts, fromPrompt, seenInInput, outputs, flow, generated);
            if (event.input.type === 'command') for (const hit of facts.secrets) savedInConfig(writes, event, facts, hit, effectsOf(event, facts, ctx.session).commands);
            markSent(ctx, event, facts, outputs, generated);
            for (const w of effectsOf(event, facts, ctx.session).writes) if (w.via === 'tool' && MINTING_SCRIPT.test(w.path) && signsTokens(w.path, w.added)) addCapped(minters, basename(w.path), 100);
            flow.onCall(event, facts);
            captures.onCall(event, ctx.session);
          } else if (event.kind === 'tool_result' || event.kind === 'message' || event.kind === 'thinking' || event.kind === 'system' || event.kind === 'error' || event.kind === 'compaction' || event.kind === 'session_meta') {
            if (event.kind === 'tool_result') flow.onResult(event);
            if (event.kind === 'tool_result' && facts.call && !event.isError) for (const v of generatedValues(facts.call, event.output, ctx.session)) addCapped(generated, v, OUTPUT_SECRETS_MAX);
            // (a value the session had seen before came from somewhere else: the minter printed it again)
            if (event.kind === 'tool_result' && facts.call && !event.isError && minters.size > 0 && runsOwnMinter(facts.call, minters, ctx.session)) for (const h of facts.secrets) if (JWT_SHAPE.test(h.value) && !outputs.has(secretKey(h)) && !seenInInput.has(h.value) && !fromPrompt.has(h.value)) addCapped(generated, h.value, OUTPUT_SECRETS_MAX);
            collectOutputSecrets(event, facts, outputs, seenInInput, fromPrompt, ctx.session, captures);
            // a value a search the user asked for turned up ("there is one on this machine somewhere")
            if (event.kind === 'tool_result') {
              for (const h of facts.secrets) {
                const s = outputs.get(secretKey(h));
                if (s && s.shownAt === event.index && s.askedToFind === undefined) s.askedToFind = theOneAskedFor(askedToFindCredential(requests.for(event)), h, event.output, facts.secrets.length, facts.call ? describeCall(facts.call) : '');
              }
            }
          }
        },
        finish() {
          // (a provider's token — `ghp_`, `sk_live_` — is never what a generator printed)
          for (const s of outputs.values()) reportOutputSecret(ctx, s, generated.has(s.hit.value) && s.hit.confidence !== 'high');
          flow.finish();
          writes.finish();
        },
      };
    },
  },
  {
    metas: [sensitiveFileRead, envDump],
    create(outer) {
      // A command the user (or a lead agent) dictated word for word, or a read of the file the
      // request named ("show me what is in .env"), is theirs: "as requested".
      const dictated = new DictatedCommands([sensitiveFileRead, envDump], outer.session);
      // What a read put into the transcript needs the read to have run (a `sudo` that wanted a
      // password, a refused call, printed nothing).
      const outcomes = new Outcomes(outer, [sensitiveFileRead, envDump]);
      /** Reads of the project's own credential files (their drafts), for ShownContent. */
      const projectReads = new Set<FindingDraft>();
      // A read's or a dump's finding also waits for what the call showed (ShownContent).
      const shown = new ShownContent(projectReads, () => LOW_CONFIDENCE_FORMATS.has(outer.session.format as FormatId));
      // Credentials the user typed into a prompt: a read that shows only these shows nothing new.
      const typed = new Set<string>();
      // Credentials earlier outputs printed: a read that shows only these (and typed ones) shows nothing new.
      const printed = new Set<string>();
      let current: (NormEvent & { kind: 'tool_call' }) | null = null;
      const ctx: RuleContext = { session: outer.session, report: (d) => (current ? shown.hold(current, d) : outer.report(d)) };
      return {
        finish() {
          shown.finish(outcomes);
          outcomes.finish();
        },
        onEvent(event, facts) {
          if (event.kind === 'prompt' && !event.synthetic && event.agentId === undefined) for (const hit of facts.secrets) addCapped(typed, hit.value, PROMPT_SECRETS_MAX);
          if (event.kind === 'tool_result') {
            shown.settle(event, facts, outcomes, (v) => typed.has(v), (v) => printed.has(v));
            if (!event.denied) for (const hit of facts.secrets) addCapped(printed, hit.value, PROMPT_SECRETS_MAX);
          }
          outcomes.onEvent(event);
          current = event.kind === 'tool_call' ? event : null;
          dictated.onEvent(event);
          const fx = effectsOf(event, facts, ctx.session);
          for (const r of readsIntoTranscript(fx)) {
            const draft = {
              rule: sensitiveFileRead.id,
              detail: `Read ${sensitiveLabel(r.sensitive!)} (${safe(r.path, facts, QUOTE_MAX)})${r.cmd ? ` with \`${safe(r.cmd.text, facts, QUOTE_MAX)}\`` : ''}.`,
              evidence: [evidence(event, r.cmd?.text ?? describeCall(fx.call!), facts)],
              key: r.abs,
            };
            if (r.cmd && dictated.askedBy(event, r.cmd.text)) {
              ctx.report(dictated.adjust(event, r.cmd.text, draft));
              continue;
            }
            const requests = dictated.requests.for(event);
            // by its name (heard loosely) in the project; outside it, written out as a path or with its dot
            // (a relative path in a log that records no cwd is read where the session works: the project)
            const inProject = r.zone === 'worktree' || (r.zone === 'unknown' && !/^(?:[\\/~$%]|[A-Za-z]:)|(?:^|[\\/])\.\.(?:[\\/]|$)/.test(r.path));
            const named = whoAsked(requests, (t) => sentencesAsking(t).some((s) => (inProject ? namesFile(s, r.abs) : namesPath(s, r.abs, ctx.session.home))));
            // "check the production env files, then refactor them": the kind named, not each path
            const kind = named ? null : whoAsked(requests, (t) => namesFileKind(t, r.sensitive!, inProject));
            if (named) ctx.report(asRequested(draft, sensitiveFileRead, named, 'the request named this file'));
            else if (kind) ctx.report(asRequested(draft, sensitiveFileRead, kind, `the request named this kind of file (${sensitiveLabel(r.sensitive!)})`));
            else {
              if (inProject) addCapped(projectReads, draft, HELD_READS_MAX);
              ctx.report(draft);
            }
          }
          for (const loc of fx.commands) {
            const dump = envDumpOf(loc, fx.commands, { containers: true });
            // The whole command line, so a dictated `env | sort` counts (its stages alone are too short to attribute).
            const line = fx.call?.input.type === 'command' ? fx.call.input.command : loc.cmd.text;
            if (!dump) continue;
            const draft = { rule: envDump.id, detail: `The environment was dumped with ${dump}.`, evidence: [evidence(event, loc.cmd.text, facts)] };
            // "show me my environment variables": the dump asked for (what it showed is judged from the output)
            const asked = dictated.askedBy(event, line) ? null : whoAsked(dictated.requests.for(event), asksToShowEnvironment);
            ctx.report(asked ? asRequested(draft, envDump, asked, 'the request asked to see the environment') : dictated.adjust(event, line, draft));
          }
        },
      };
    },
  },
];

/** "show me my environment variables", "print the env", "list the env vars": a sentence that asks to see the environment, not negated, not a question about one variable. */
function asksToShowEnvironment(request: string): boolean {
  // the whole environment as the object: "show me my environment variables", "print the env",
  // "list all env vars" — not one variable, not its names, not an environment's setup
  return orderSentences(request).some((s) => /\b(?:show|print|list|dump|display|output)\s+(?:me\s+)?(?:all\s+)?(?:(?:of\s+)?(?:my|the|our)\s+)?(?:environment|env)(?:\s+var(?:iable)?s)?\b(?!\s*(?:file|names?|setup|config\w*|\.|example|template|var(?:iable)?\s+[A-Z]))/i.test(s) && !/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/.test(s));
}

/**
 * What a credential file's read or an environment dump put into the transcript, judged from the
 * call's own output (issue 25: did the action take effect, what data went where). A call whose
 * output the log shows, and in which no detector found a credential (Docker's config with
 * `"auths": {}`, an .env of ports and placeholders, `printenv | rg 'SESSION|PWD'` listing ids
 * and paths), exposed none: info that says so. One command reading several such files is one
 * finding. Calls with no output in the log keep their finding, but for a read of the project's own file in a terminal capture, whose read boxes never show content (info).
 */
class ShownContent {
  private readonly held = new Map<string, { call: NormEvent & { kind: 'tool_call' }; drafts: FindingDraft[] }>();
  /**
   * `projectReads`: drafts of reads of the project's own files (as opposed to home or system
   * credential stores). `capture`: the log is a terminal capture, whose read boxes show no content
   * (a structured log's empty read is an empty file or a stripped log).
   */
  constructor(private readonly projectReads: ReadonlySet<FindingDraft>, private readonly capture: () => boolean) {}

  hold(call: NormEvent & { kind: 'tool_call' }, draft: FindingDraft): void {
    const h = this.held.get(call.callId) ?? { call, drafts: [] };
    h.drafts.push(draft);
    setCapped(this.held, call.callId, h, HELD_READS_MAX);
  }

  /** The read's result: passes its findings on, as they are or as reads that showed no credential. */
  settle(result: ToolResultEvent, facts: EventFacts, outcomes: Outcomes, typed: (value: string) => boolean = () => false, shownBefore: (value: string) => boolean = () => false): void {
    const h = this.held.get(result.callId);
    if (!h) return;
    this.held.delete(result.callId);
    // Clean: the whole output is in the log (no "… +41 lines" elision) and holds no credential. An
    // environment dump counts as clean only when a filter on the line picked named variables.
    const narrowed = h.drafts.every((d) => d.rule !== envDump.id) || FILTERED_DUMP.test(describeCall(h.call));
    // The command masked the values itself (`| sed 's/=.*/=****/'`, `| cut -d= -f1`): masked entries
    // then say the values never reached the log (a tool's own "REDACTED" display still counts).
    const marks = redactingSedMarks(describeCall(h.call));
    const masked = REDACTING_FILTER.test(describeCall(h.call)) || marks.length > 0;
    const clean = narrowed && !result.isError && !result.denied && result.output.trim().length > 0 && !ELIDED.test(result.output) && facts.secrets.length === 0 && !showsCredentialEntry(result.output, masked, new Set(), marks);
    // Failed with nothing printed (`cat ~/.zsh_history 2>/dev/null` of a file that is not there): nothing was read.
    // A read tool that failed, or a command whose only words are that the file is not there
    // ("File does not exist.", "cat: .env: No such file or directory"): nothing was read either.
    const missing = !result.denied && !ELIDED.test(result.output) && facts.secrets.length === 0
      && ((h.call.input.type === 'file_read' && result.isError) || ((result.isError || (result.exitCode !== null && result.exitCode !== 0)) && result.output.length <= MISSING_MAX && onlySaysMissing(result.output)));
    const empty = missing || (!result.denied && (result.isError || (result.exitCode !== null && result.exitCode !== 0)) && printedNothing(result.output));
    // Every credential it showed is one the user had typed into a prompt (an .env the session
    // wrote from the user's key, read back to debug): nothing new reached the transcript.
    const typedValues = new Set(facts.secrets.map((x) => x.value));
    const onlyKnown = !clean && !empty && narrowed && !result.isError && !result.denied && facts.secrets.length > 0 && !ELIDED.test(result.output) && !showsCredentialEntry(result.output, masked, typedValues);
    const onlyTyped = onlyKnown && facts.secrets.every((x) => typed(x.value));
    // …or one an earlier output had already printed (the logs the user asked for showed the bot's
    // token, then the .env that holds it was read): the read added nothing to the transcript
    const onlyShown = onlyKnown && !onlyTyped && facts.secrets.every((x) => typed(x.value) || shownBefore(x.value));
    // A read tool whose result the log leaves empty, or gives only as the capture's count of lines
    // (a terminal capture's ReadFile box; Claude Code's "Read 15 lines (ctrl+o to expand)"): of a
    // project file, read for the work, nothing of it reached what this log shows.
    // (the count alone only for an env file: a home store read from a capture launched at home stays a read of it)
    const readPath = h.call.input.type === 'file_read' ? h.call.input.path : null;
    const unshown = readPath !== null && !result.isError && !result.denied && (result.output.trim() === '' || (READ_COUNT_ONLY.test(result.output.trim()) && ENV_FILE_NAME.test(readPath))) && this.capture();
    // A terminal capture cut the command line off inside the stage the read is piped into
    // (`cat .env | gr…`) and shortened its output (`… +3 lines`): which lines the filter kept is
    // unknown, and the lines shown hold no credential. Nothing in the log says one was shown.
    const cutFilter = !clean && !empty && narrowed && !result.isError && !result.denied && result.output.trim().length > 0 && ELIDED.test(result.output)
      && facts.secrets.length === 0 && !showsCredentialEntry(result.output, masked) && this.capture() && h.drafts.every((d) => d.rule !== envDump.id) && cutFilterAfterEnvRead(describeCall(h.call));
    const files = plural(h.drafts.length, 'credential file');
    const read = (d: FindingDraft) => (d.rule === envDump.id ? 'Environment printed' : 'Credential file read');
    // The values the read showed are reported from the output (secrets/in-tool-output): the read
    // and what it showed are one event, so they share a cause (one finding, both evidence lines).
    // A read the request asked for keeps its own, lower finding.
    const showed = facts.secrets.length > 0 && !result.isError && !result.denied;
    const cause = showed
      ? credentialReadCause(h.drafts[0]!.key ?? h.call.callId, h.drafts.length > 1 ? `${files} read by one call; the credentials it showed are now in the transcript (each is in the evidence).` : `${h.drafts[0]!.detail} The credentials it showed are now in the transcript (each is in the evidence).`)
      : h.drafts.length > 1 ? { id: `read:${h.call.callId}`, summary: `${files} read by one call (each is in the evidence).` } : undefined;
    for (const d of h.drafts) {
      const draft = empty
        ? { ...d, severity: 'info' as const, title: `${read(d)} attempted: nothing was shown`, detail: `${d.detail} The call failed and ${missing ? 'said the file is not there' : 'printed nothing'}: no content reached the transcript.`, key: `${d.key ?? ''} (empty)` }
        : clean
          ? { ...d, severity: 'info' as const, title: `${read(d)}: no credential in what it showed`, detail: `${d.detail} What it printed, shown in the log, holds no credential Vouch recognises.`, key: `${d.key ?? ''} (clean)` }
          : onlyTyped
            ? { ...d, severity: 'info' as const, title: `${read(d)}: only what the user had typed`, detail: `${d.detail} The only credentials it printed are ones the user had typed into a prompt earlier: nothing new reached the transcript.`, key: `${d.key ?? ''} (typed)` }
          : onlyShown
            ? { ...d, severity: 'info' as const, title: `${read(d)}: only what the transcript already held`, detail: `${d.detail} Every credential it printed had appeared in the transcript before (in an earlier output or a prompt): nothing new reached it. Where it first appeared is reported there.`, key: `${d.key ?? ''} (shown before)` }
          : cutFilter
            ? { ...d, severity: 'info' as const, title: `${read(d)} through a filter the log cuts off: no credential in what it shows`, detail: `${d.detail} The capture cuts the command off inside the stage its output is piped into, so which lines that stage kept is unknown; the lines the log shows hold no credential Vouch recognises.`, key: `${d.key ?? ''} (cut filter)` }
          : unshown && this.projectReads.has(d)
            ? { ...d, severity: 'info' as const, title: `${read(d)}: its content is not in the log`, detail: `${d.detail} The file is the project's own and the log does not show what the read returned: no credential of it is in this transcript.`, key: `${d.key ?? ''} (unshown)` }
          : { ...d, ...(cause && d.severity !== 'info' ? { cause } : {}) };
      outcomes.report(h.call, 'run', draft);
    }
  }

  /** Reads whose result never came: their findings stand (Outcomes says the result is not in the log). */
  finish(outcomes: Outcomes): void {
    for (const h of this.held.values()) for (const d of h.drafts) outcomes.report(h.call, 'run', d);
    this.held.clear();
  }
}
const HELD_READS_MAX = 200;
/** A project's env file by its name (`.env`, `.env.local`, `server/.env`), not a home credential store. */
const ENV_FILE_NAME = /(?:^|[\\/])\.env(?:\.[\w.-]+)?$/;
/** A capture's read box that gives only how many lines were read: the content is folded away. */
const READ_COUNT_ONLY = /^Read \d+ lines?(?: \(ctrl\+[or] to (?:expand|see all)\))?$/;
/**
 * A failed call's output that is only the harness's own status words: Claude Code writes a bare
 * "Error", or "Exit code 1", for a command that failed printing nothing (`grep KEY .env` that
 * matched no line) — the command showed nothing.
 */
function printedNothing(output: string): boolean {
  // (bounded first: the words are short, and a long run of spaces must cost nothing)
  return output.length <= 64 && /^(?:Error|(?:Error: )?Exit code -?\d{1,9})?$/.test(output.trim());
}
/** What a read that found no file says (tools, shells, PowerShell), in a short output. */
const NO_SUCH_FILE = /\bNo such file or directory\b|\bFile does not exist\b|\bdoes not exist\b|\bnot found\b|\bCannot find path\b|\bENOENT\b/i;
const MISSING_MAX = 400;
/** Every line of the output says a file is missing (`cat ~/.netrc ~/.pgpass` that printed one file and missed the other shows content). */
function onlySaysMissing(output: string): boolean {
  // (the harness's own lines around the output are not the command's: Gemini CLI's "Command: …", "Exit Code: 1")
  const lines = commandOutputLines(output);
  return lines.length > 0 && lines.every((l) => NO_SUCH_FILE.test(l));
}
/** A dump piped through a filter that keeps named variables (`printenv | rg 'SESSION|PWD'`). */
export const FILTERED_DUMP = /\|\s*(?:grep|egrep|rg)\b/;
/**
 * A command line a terminal capture cut off ("…") inside a filter its `.env` read is piped into
 * (`cat .env | gr…`, `cd api && cat .env | he…`): the last pipeline of the line reads an env file,
 * and its cut stage begins like a program that keeps only some lines (grep, rg, head, tail, cut,
 * awk, sed, jq) — not one that passes them all (cat, sort, tee) — and shows no credential word.
 */
function cutFilterAfterEnvRead(line: string): boolean {
  const pipeline = line.split(/&&|\|\||;/).pop() ?? '';
  const m = /^([^|]*\.env\b[^|]*)\|\s*([^|]*?)(?:…|\.\.\.)\s*$/.exec(pipeline);
  if (!m) return false;
  const stage = m[2]!;
  const program = /^[\w-]*/.exec(stage)![0];
  return program.length >= 2 && FILTERS.some((f) => f.startsWith(program)) && !PASSES_ALL.some((f) => f.startsWith(program)) && !/pass|secret|key|token|auth|cred|pwd/i.test(stage);
}
const FILTERS = ['grep', 'egrep', 'rg', 'head', 'tail', 'cut', 'awk', 'sed', 'jq'];
const PASSES_ALL = ['cat', 'sort', 'tee', 'less', 'more', 'column'];
// An entry that names a credential and gives it a value, whatever the value (`UMLS_API_KEY=REDACTED`
// in a log whose copy was redacted, a short password no detector takes): the file held one.
// Empty values (`"auths": {}`, `TOKEN=`) hold none.
const CREDENTIAL_ENTRY = /(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]{0,64}?(?:key|token|secret|passw(?:or)?d|passphrase|pass(?![a-z])|pwd|psk|credential|auth|cookie)[A-Za-z0-9_.-]{0,64})["']?[ \t]*[:=][ \t]*["']?(?![{}\]]|\[(?!REDACTED\]))([^\s"',]+)/gi;
const ENTRIES_MAX = 200;
const PLACE_NAME = /(?:^|_)(?:SOCK|PWD|OLDPWD|PATH|DIR|FILE|HOME|ROOT|PREFIX)$/i;

/**
 * Does the output hold an entry that gives a credential a value? A redacted value counts (the
 * original held one); a stand-in (`change-me`, `local-dev-secret`, `${VAR}`), a shipped default
 * (`postgres`) or the name's own word (`AIRFLOW_PASSWORD=airflow`) is a template's, not a credential.
 */
/** A filter that keeps only each line's name: sed replacing what follows `=` or `:`, cut/awk taking the first field. */
const REDACTING_FILTER = /\|\s*sed\s+(?:-E\s+|-r\s+)?["']s([/|#])([=:])(?:\.\*|\[\^\\n\]\*)\1\2?[^"'\n&\\]{0,20}\1g?["']|\|\s*cut\s+-d\s*["']?[=:]["']?\s+-f\s*1\b|\|\s*awk\s+-F\s*["']?[=:]["']?\s+["']\{\s*print\s+\$1\s*\}["']/;

/**
 * `sed -E 's#(mongodb\+srv://[^:]*:)[^@]*@#\1***REDACTED***@#' backend/.env`: a substitution whose
 * replacement is a redaction mark (`***`, `REDACTED`, `<hidden>`, `xxxx`), reading the file itself
 * or fed by a pipe — the values it matched never reached the log.
 */
const REDACTING_SED = /\bsed\b[^|;&\n]*?\bs([#/|,@])(?:(?!\1)[^\n])*\1((?:(?!\1)[^\n])*?(?:\*{3,}|REDACTED|<hidden>|\[hidden\]|MASKED|x{4,})(?:(?!\1)[^\n])*)\1/i;

/**
 * The redaction marks a sed on an env read's own pipeline writes (`sed … .env`, `cat .env | sed
 * …`): the marks of its replacements, none when the sed is another command's.
 */
function redactingSedMarks(line: string): string[] {
  const marks: string[] = [];
  for (const part of line.split(/&&|\|\||;/)) {
    if (!/\.env\b/.test(part)) continue;
    const m = REDACTING_SED.exec(part);
    if (!m) continue;
    for (const mark of m[2]!.replace(/\\\d/g, ' ').match(/\*{3,}[A-Z]*\*{0,}|REDACTED|<hidden>|\[hidden\]|MASKED|x{4,}/gi) ?? []) marks.push(mark);
  }
  return marks;
}

/** Words that make a joined value name a credential rather than be one (the stand-in words are labelled.ts's). */
const CREDENTIAL_WORD = /^(?:secret|password|passwd|pwd|token|key|apikey|credentials?|example|placeholder|changeme)$/;

/** A switch, a count, a duration or a keyword (`CORS_CREDENTIALS=true`, `TOKEN_TTL=3600`, `AUTH_MODE=none`): a setting, not a secret. */
function settingValue(value: string): boolean {
  return /^(?:true|false|yes|no|on|off|none|null|nil|undefined|enabled?|disabled?|required|optional|auto|\d{1,9}(?:ms|[smhdw])?)$/i.test(value.replace(/[;,]$/, ''));
}

/**
 * A value of plain lower-case words (`moodle`, `default-secret`, `my_api_key`) that no random
 * token is: under a key's or token's name it is an identifier (an LTI consumer key, a key's
 * name), and under any name a value that names a credential or a stand-in in its own words
 * (`default-secret`, `change_password`) describes one. A password of plain words (`PASSWORD=hunter`)
 * still counts: people choose those.
 */
function wordValueNoCredential(name: string, value: string): boolean {
  if (!/^[a-z]+(?:[-_.][a-z]+)*$/.test(value) || value.length > 40) return false;
  if (/(?:key|token)$/i.test(name) && !/passw|pwd|pass$|secret/i.test(name)) return true;
  const segments = value.split(/[-_.]/);
  return segments.length >= 2 && segments.some((w) => STAND_IN_SEGMENT.test(w) || CREDENTIAL_WORD.test(w));
}

function showsCredentialEntry(output: string, maskedByCommand = false, known: ReadonlySet<string> = new Set(), marks: readonly string[] = []): boolean {
  let n = 0;
  for (const [, name, value] of output.slice(0, 200_000).matchAll(CREDENTIAL_ENTRY)) {
    if (++n > ENTRIES_MAX) return true;
    if (known.has(value)) continue;
    // masked by the command itself: nothing of the value was printed; masked by a tool's display: it was read
    if (/^(?:<?redacted>?|\[redacted\]|\*{3,}|x{4,})$/i.test(value)) {
      // the command's own mark (`***`, or the one its sed writes); a log's later redaction is not the command's
      if (maskedByCommand && (/^\*{3,}$/.test(value) || marks.some((m) => value.includes(m) || m.includes(value)))) continue;
      return true;
    }
    // a name the web framework ships to every browser (`NEXT_PUBLIC_SUPABASE_ANON_KEY`) holds a
    // public value by design; a detector still reports a server secret put there
    if (clientBundledName(name)) continue;
    // how a key is managed or stored (`key_mgmt=WPA-PSK`, `psk-flags=1`), not a key
    if (/(?:^|[-_.])(?:mgmt|flags|type|method|file)$/i.test(name)) continue;
    // a path under a name for a place is where something lives (`PWD=/home/dev/app`,
    // `SSH_AUTH_SOCK=/tmp/ssh-x/agent.1`); a secret may start with "/" too (base64), so only there
    if (PLACE_NAME.test(name) && /^(?:\/|~\/|[A-Za-z]:\\)[^/\\\s]*[/\\][^\s]/.test(value)) continue;
    const words = name.toLowerCase().split(/[^a-z0-9]+/);
    if (isPlaceholder(value) || selfDescribedNonSecret(value) || isDefaultPassword(value) || words.includes(value.toLowerCase())) continue;
    if (settingValue(value) || wordValueNoCredential(name, value)) continue;
    // an address under an auth-named setting (`NEXTAUTH_URL=http://localhost:3000`): no userinfo, no key in its query
    if (/^[a-z][a-z0-9+.-]*:\/\/[^\s@/]+(?:[/?#]\S*)?$/i.test(value) && !/[?&#](?:[\w-]*(?:key|token|secret|sig|signature|password|pass|auth))=/i.test(value) && !/\/[A-Za-z0-9_-]{20,}/.test(value)) continue;
    return true;
  }
  return false;
}

function promptSecrets(ctx: RuleContext, event: NormEvent & { kind: 'prompt' }, facts: EventFacts, fromPrompt: HandedOver, outputs: ReadonlyMap<string, OutputSecret>): void {
  // A value a tool had already printed into the transcript: pasting it back (a config the user
  // copied from the server) adds no exposure; the output's finding is the one to look at.
  for (const hit of facts.secrets.filter((h) => outputs.has(secretKey(h)))) {
    fromPrompt.add(hit.value);
    ctx.report({ rule: inPrompt.id, severity: 'info', title: 'Secret pasted that the transcript already held', detail: `${hit.label} ${hit.masked} was written into the prompt; it had appeared in ${outputs.get(secretKey(hit))!.where} before.`, evidence: [{ index: event.index, excerpt: safe(around(event.text, hit.start, hit.end), facts) }], key: `${secretKey(hit)} (shown before)` });
  }
  // An access token that expires within the hour (a login's JWT copied from the browser's console
  // while debugging): the log outlives it.
  for (const hit of facts.secrets.filter((h) => !outputs.has(secretKey(h)) && shortLivedJwt(h))) {
    fromPrompt.add(hit.value);
    ctx.report({ rule: inPrompt.id, severity: 'info', title: 'Short-lived access token pasted', detail: `${hit.label} ${hit.masked} was written into the prompt: an access token that expires within an hour of being issued; the log outlives it.`, evidence: [{ index: event.index, excerpt: safe(around(event.text, hit.start, hit.end), facts) }], key: `${secretKey(hit)} (short-lived)` });
  }
  // (the excerpts below are masked with every value of the prompt, these included)
  const fresh = facts.secrets.filter((h) => !outputs.has(secretKey(h)) && !shortLivedJwt(h));
  if (fresh.length === 0) return;
  // One paste is one event (issue 25, item 9): every value in it shares one finding and one
  // severity, the most serious value's.
  // a Google key the user's words call a Maps key: a browser key by design, restricted to a site
  const maps = mapsKeyContext(fromPrompt.recent(MAPS_CONTEXT_PROMPTS));
  const severity = fresh.some((h) => inputSeverity(h, false) === 'critical' && !(maps && h.ruleId === GOOGLE_KEY)) ? 'critical' : 'warning';
  const labels = [...new Set(fresh.map((h) => h.label.toLowerCase()))].slice(0, 3).join(', ');
  const cause = fresh.length > 1 ? { id: `pasted:${event.index}`, summary: `${plural(fresh.length, 'credential')} (${labels}) were written into one prompt.` } : undefined;
  for (const hit of fresh) {
    fromPrompt.add(hit.value);
    ctx.report({
      rule: inPrompt.id,
      severity,
      detail: `${hit.label} ${hit.masked} was written into ${event.synthetic ? 'text injected into the prompt' : 'the prompt'}.${maps && hit.ruleId === GOOGLE_KEY ? ' The user speaks of maps: a Maps key ships to browsers by design and is meant to be restricted to the site — restrict it, or rotate it if it is not.' : ''}`,
      evidence: [{ index: event.index, excerpt: safe(around(event.text, hit.start, hit.end), facts) }],
      key: secretKey(hit),
      cause: cause ?? credentialCause(hit),
    });
  }
}

/** Prompts read for what a pasted Google key is for: the one it is in and the two before. */
const MAPS_CONTEXT_PROMPTS = 3;
const GOOGLE_KEY = 'token/google-api-key';
// the key's kind named: Google Maps, a maps API or SDK, a map view; a map word alone is not
// enough ("a map of the playlists"), and a Geocoding or Places key is a server's, to keep secret
const MAPS_WORDS = /google\s*maps?|googlemaps?|\bmaps?\s+(?:api|key|javascript|sdk|embed|view|component|widget)\b|\bmapa\s+de\s+google\b|google\s*地図|google\s*マップ|グーグルマップ|google\s*地图|谷歌地图|구글\s*지도|google\s*карт|карт[аеуы]\s+google/i;
const SERVER_MAPS_WORDS = /\bgeocod|\bplaces\s+api\b|\bdirections\s+api\b|\bdistance\s+matrix\b|\broutes\s+api\b/i;
const AI_WORDS = /\bgemini\b|generative|\bai\s+studio\b|\bvertex\b|\bgenai\b|\bllm\b|\bopenai\b|\bchat\s?bot\b/i;
/** The user's recent words say the key is for maps, and nothing says it is for generative AI (billed per call, not site-restricted). */
function mapsKeyContext(recent: string): boolean {
  return MAPS_WORDS.test(recent) && !AI_WORDS.test(recent) && !SERVER_MAPS_WORDS.test(recent);
}

/**
 * A password fed to sudo (or to a registry login, `docker login --password-stdin`) that the user
 * had typed into a prompt no detector read as one ("my sudo password is 482", "логін me пароль
 * …"): the exposure is the user's paste, now in the provider's logs and this log. Reported once, on
 * the prompt, with the command that showed what the value was (issue 25, item 7).
 */
function typedSudoPassword(ctx: RuleContext, event: NormEvent & { kind: 'tool_call' }, hit: SecretHit, fromPrompt: HandedOver, text: string): boolean {
  const sudo = hit.ruleId === 'vouch/sudo-password';
  if ((!sudo && hit.ruleId !== 'vouch/login-password') || fromPrompt.known(hit.value)) return false;
  const prompt = fromPrompt.passwordPrompt(hit.value);
  if (!prompt) return false;
  fromPrompt.add(hit.value);
  ctx.report({
    rule: inPrompt.id,
    severity: 'warning',
    title: sudo ? 'Sudo password typed into a prompt' : 'Registry password typed into a prompt',
    detail: sudo ? `The user's sudo password ${hit.masked} was written into the prompt, and the agent fed it to sudo.` : `The user's registry password ${hit.masked} was written into the prompt, and the agent fed it to a registry login.`,
    evidence: [
      { index: prompt.index, excerpt: safe(around(prompt.text, prompt.at, prompt.at + hit.value.length), null, undefined, [hit.value]) },
      { index: event.index, excerpt: safe(text, null, undefined, [hit.value]) },
    ],
    key: secretKey(hit),
  });
  return true;
}

function inputSecrets(ctx: RuleContext, event: NormEvent & { kind: 'tool_call' }, facts: EventFacts, fromPrompt: HandedOver, seen: Set<string>, outputs: Map<string, OutputSecret>, flow: SecretFlow, generated: ReadonlySet<string>): void {
  const input = event.input;
  const intoFiles = input.type === 'file_write' || input.type === 'file_edit' || input.type === 'patch';
  const fx = effectsOf(event, facts, ctx.session);
  const text = describeCall(event);
  for (const hit of facts.secrets) {
    // Using a credential the user handed over is expected; one found in output and reused is
    // reported on the output finding (critical once it goes over the network). Files always count.
    if (!intoFiles && typedSudoPassword(ctx, event, hit, fromPrompt, text)) continue;
    if (!intoFiles && (fromPrompt.has(hit.value) || outputs.has(secretKey(hit)))) continue;
    // A password nobody showed the agent, first put into a request that registers an account
    // (`curl -X POST …/auth/register -d '{"password": "…"}'`): the agent chose it for a test user
    // it makes itself — that account's own, and so are its later logins with it.
    if (!intoFiles && hit.confidence !== 'high' && PASSWORD_LABEL.test(hit.label) && !seen.has(hit.value)) {
      const host = registeredWith(fx.net, hit.value);
      if (host) flow.markRegistered(hit.value, host);
    }
    const inputBefore = seen.has(hit.value);
    addCapped(seen, hit.value, PROMPT_SECRETS_MAX);
    const paths = input.type === 'file_write' || input.type === 'file_edit' ? [input.path] : input.type === 'patch' ? patchedWith(input.files, hit.value) : [];
    const intoFile = paths.length > 0;
    const lowStakes = intoFile && paths.every((p) => isTestFile(p) || /\.(example|sample|template)$|\.example\./i.test(p));
    const where = intoFile ? `written into ${paths.slice(0, 3).join(', ')}` : input.type === 'command' ? 'put into a command' : `passed to ${event.name}`;
    // Labelled values one call writes into one file are one finding whatever each is labelled (a
    // manifest's password, connection URL and signing key: one write to look at); in commands, one per label.
    const cause = hit.confidence === 'high' || fromPrompt.has(hit.value) ? credentialCause(hit) : intoFile ? { id: `put:${event.index}:${where}`, summary: `Values labelled as credentials were ${where} by one call.` } : { id: `put:${hit.label}:${where}`, summary: `Values labelled as credentials (${hit.label.toLowerCase()}) were ${where}.` };
    const evidenceHere = [evidence(event, text, facts)];
    // Severity by where the value ends (issue 25, data flows): a scratch file outside the
    // repository (temp space) holds it no longer than the machine does: context. A file in the
    // working tree may be committed: a warning, critical once a push carries it (SecretFlow). A
    // password that only opens something on this machine is a development default.
    const located = paths.map((p) => locate(p, null, ctx.session));
    const scratch = intoFile && located.every((l) => l.zone === 'tmp');
    // The user pasted the value and it went where such values live (an env file): storing it is
    // what the user handed it over for. A push of that file is still followed (SecretFlow).
    // The same for a tool's own configuration outside any project (`~/.moltbot/agents/main/auth-profiles.json`,
    // `~/.config/app/config.toml`): the user's setup of their own tool, where no commit reaches it.
    const stored = intoFile && fromPrompt.has(hit.value) && located.every((l, i) => ENV_FILE.test(paths[i]) || toolConfigInHome(l.abs, l.zone, ctx.session));
    // A key the session generated itself (`openssl rand -base64 32`) put into the project's env
    // file: a new secret for its own setup, nobody's credential; a commit or push of it is still followed.
    const fresh = intoFile && hit.confidence !== 'high' && generated.has(hit.value) && located.every((l, i) => ENV_FILE.test(paths[i]) && l.zone === 'worktree');
    // Written back into the file it was read from (a whole .env rewritten with one key added): it
    // was stored there before the session; nothing new holds it.
    const shownBefore = outputs.get(secretKey(hit));
    const readFrom = shownBefore?.readFrom ?? [];
    // (an edit whose old text holds the value found it in the file: the edit kept it, it did not put it there)
    const keptByEdit = input.type === 'file_edit' && input.edits.length > 0 && input.edits.every((e) => !e.newText.includes(hit.value) || e.oldText.includes(hit.value));
    // …but an edit that keeps a value the transcript never showed before (a capture that folded
    // the read of the file) shows it now, in its old and new text: seen in the transcript, a warning
    const shownByEdit = keptByEdit && shownBefore === undefined && !inputBefore && !fromPrompt.has(hit.value) && hit.confidence === 'high';
    const already = intoFile && (located.every((l) => readFrom.includes(l.abs)) || shownBefore?.published === true || (keptByEdit && !shownByEdit));
    // A capture that cut the command before its host ("http://loc…") hides where it goes: the same
    // value used only with local services earlier in the session is taken as the same use.
    const cut = /…/.test(text) && fx.net.every((n) => n.local || /…/.test(n.url ?? n.host));
    // …or a value the session was shown as one that opens only something local (the project's
    // compose file's `…@postgres:5432`), copied into another file
    const local = isLocalPassword(hit, text, intoFile ? null : fx.net.map((n) => n.host)) || (cut && flow.isLocal(hit.value)) || (intoFile && shownBefore?.local === true && !shownBefore.sent);
    if (local) flow.markLocal(hit.value);
    // Followed wherever a repository may hold it: the tree, or a repository elsewhere in home (a
    // session launched in one folder that works in ~/config-repo commits and pushes from there).
    // A value known only by its label (no provider's format) written into test files is the test's
    // own fixture (`password: "s3cret-test"` in conftest.py): what the test logs in with, no account's.
    // Not a value the session was shown or read elsewhere (a real password copied into a test), and
    // not a credential file that happens to sit under tests/ (`tests/.env`, `tests/ssh/id_rsa`).
    // …and the same in a document of examples (`docs/API_EXAMPLES.md`), or a made-up password in any
    // document (`new_password123!` in docs/api.md): the sample request's password.
    const fixture = intoFile && hit.confidence !== 'high' && !fromPrompt.has(hit.value) && !outputs.has(secretKey(hit)) && paths.every((p) => (isTestFile(p) || isExamplesDoc(p) || isTestScriptValue(p, hit.value, ctx.session.cwd) || isDocExampleValue(p, hit.value)) && !ENV_FILE.test(p)) && located.every((l) => l.sensitive === null);
    // A log with no working directory (a terminal capture without its header) leaves a relative
    // path unplaced: it is where the agent works, so a `git add .` there stages it.
    const unplaced = (l: (typeof located)[number]) => l.zone === 'unknown' && !ctx.session.cwd && !/^(?:\/|~|[A-Za-z]:|\.\.)/.test(l.abs);
    if (intoFile && !scratch && !fixture) flow.written(located.filter((l) => l.zone === 'worktree' || l.zone === 'home' || l.zone === 'other' || unplaced(l)).map((l) => l.abs), hit, evidenceHere[0], fresh, isFileInput(event) ? event.callId : undefined);
    // Put into a command that only talks to the service that issued it (a Google token in a
    // request to googleapis.com): the credential doing its job, seen in the transcript (a warning).
    const remote = fx.net.filter((n) => !n.local);
    // A password inside a connection URL (`psql "postgresql://app:…@db.example.com/app"`) goes to
    // the host the URL names, and only there when the command reaches no other: the same.
    const urlHost = intoFile ? null : clientConnection(fx.commands, hit.value);
    const issuer = urlHost !== null && remote.every((n) => n.host === urlHost) ? urlHost : remote.length > 0 && remote.every((n) => isIssuerHost(hit, n.host)) ? remote[0].host : null;
    const toIssuer = !intoFile && issuer !== null;
    // The password of a test identity the same call names at a domain reserved for examples
    // (`smoketest+1@example.com`, `qa@demo.test`): made up for the test, no real account holds it.
    // (used only with the service it registered with: sent anywhere else, it is a password sent away)
    const registered = !intoFile && fx.net.length > 0 && fx.net.every((n) => flow.isRegisteredWith(hit.value, n.host));
    const testAccount = registered || (!intoFile && hit.confidence !== 'high' && PASSWORD_LABEL.test(hit.label) && RESERVED_EMAIL.test(text));
    // An access token that expires within the hour, used only with its issuer: gone before anyone reads the log.
    const expiring = toIssuer && shortLived(hit);
    // A file the session's own ignore rules keep out of git (`.env` listed in the .gitignore it
    // wrote): where a project's keys belong, no commit takes it (a forced add is still followed).
    const keptOut = intoFile && !scratch && located.every((l) => l.zone === 'worktree' && flow.keptOut(l.abs, event.callId));
    // Handed to a program on this machine through its environment (`GOOGLE_API_KEY=… python
    // main.py`), in a command that reaches no host: the value ends in the transcript and a local
    // process, not on a remote or in a file (issue 25, data flows: seen in the transcript is a
    // warning for a live-looking credential; sent or stored is critical).
    const staysHere = input.type === 'command' && remote.length === 0 && handedToLocalProgram(fx.commands, hit.value, input.command);
    const severity = scratch || local || stored || already || testAccount || fixture || expiring || keptOut || fresh ? 'info' : intoFile || toIssuer || staysHere ? 'warning' : inputSeverity(hit, lowStakes);
    // Why the severity is what it is, in the order the conditions above were weighed.
    const notes = [
      fixture ? 'a value written only into test files or a document of examples, with no provider\'s format: the test\'s or example\'s own' : lowStakes && 'a test or template file: possibly a fake value',
      scratch && 'temp space, outside the repository: nothing commits or sends it from there',
      keptOut && "a file the session's .gitignore keeps out of the repository",
      fresh && 'a key this session generated for the project, in its env file: no one else holds it',
      local && 'it only opens a service on this machine or its private network',
      stored && 'the user pasted it to be stored there',
      staysHere && !local && hit.confidence === 'high' && 'the command sends it to no host off this machine: it is in the transcript, not on a remote',
      toIssuer && (urlHost !== null ? `only to ${safe(issuer, null, 80)}, the host its connection URL opens` : `only to ${safe(issuer, null, 80)}, the service that issued it`),
      expiring && 'an access token that expires within an hour of being issued',
      testAccount && (registered ? 'the password the agent chose for an account it registered itself (a test user)' : 'the password of a test account the command names at a domain reserved for examples'),
      shownByEdit && !stored && 'it was in that file already, but the edit shows it: the transcript holds it from here',
      already && !stored && (shownBefore?.published ? "a default the project's own template, sample or seed files carry" : keptByEdit ? 'it was in that file already: the edit replaced text around it' : 'it was in that file already: the session read it there'),
    ].filter((n): n is string => typeof n === 'string');
    ctx.report({
      rule: inToolInput.id,
      severity,
      title: local ? 'Local development password in a command' : urlHost !== null && severity === 'warning' ? 'Credential written out in a command' : fixture ? 'Test fixture credential written' : testAccount ? "A test account's password in a command" : staysHere && severity === 'warning' ? 'Credential written out in a command' : intoFile ? (scratch ? 'Secret written into a scratch file' : shownByEdit ? 'Secret shown in an edit of the file that holds it' : 'Secret written into a file') : undefined,
      detail: `${hit.label} ${hit.masked} was ${where}${notes.map((n) => ` (${n})`).join('')}.`,
      evidence: evidenceHere,
      // One finding per value and sink (issue 25, item 9): a value used in commands and the same
      // value written into a file are two sinks; the file must not hide among the command lines.
      key: secretKey(hit) + (intoFile ? ' (file)' : '') + (severity === 'info' ? ' (info)' : ''),
      // A provider token is its own cause (each one must be rotated); values known only by their
      // labels that one call put somewhere (an .env with ten passwords) are one.
      // A value stored where the user asked stays part of that value's one finding; a scratch copy
      // or a local default is context of its own.
      cause: scratch || local ? undefined : cause,
    });
  }
}

/**
 * A credential put into a remote's URL that git stores (`git remote set-url origin
 * https://me:TOKEN@github.com/…`, a clone of such a URL): whoever handed it over and whatever service
 * it opens, it now lives in plain text in .git/config, beyond the session (issue 25, data flows: a
 * sink of its own). A warning once the command ran; one that failed (its call's last step) or was
 * refused stored nothing: an attempt.
 */
function savedInConfig(outcomes: Outcomes, event: NormEvent & { kind: 'tool_call' }, facts: EventFacts, hit: SecretHit, commands: readonly Located[]): void {
  const saved = savedInGitConfig(commands, hit.value);
  if (!saved) return;
  const draft: FindingDraft = {
    rule: inToolInput.id,
    severity: 'warning',
    title: "Credential saved in the repository's git config",
    detail: `${hit.label} ${hit.masked} was put into a remote's URL that git stores: .git/config now keeps it in plain text, \`git remote -v\` and tools that print the remote show it, and every copy of the folder carries it. A credential helper (\`gh auth setup-git\`, the system keychain) keeps tokens out of the URL; rotate this one.`,
    evidence: [evidence(event, saved.cmd.text, facts)],
    key: `${secretKey(hit)} (git config)`,
  };
  outcomes.report(event, 'run', draft, undefined, { last: lastStep(commands, saved.at), title: draft.title! });
}

/** Database and cache clients that open the connection URL they are given. */
const DB_CLIENTS = new Set(['psql', 'pg_dump', 'pg_dumpall', 'pg_restore', 'pg_isready', 'pgcli', 'mongosh', 'mongo', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport', 'mysql', 'mysqldump', 'mariadb', 'mycli', 'redis-cli', 'valkey-cli', 'clickhouse-client', 'usql']);

/**
 * The host a database client connects to with `value` as the password of the connection URL it
 * was given (`psql "postgresql://app:VALUE@db.example.com/app"`): every command of the call that
 * holds the value must be such a client, with the value only as that URL's password, and all of
 * one host. Anything else that holds it (`gh secret set`, `echo`, `git commit -m`, `curl`) keeps
 * the value a value put into a command. Null when not so.
 */
/**
 * Who asked for this credential, when the search that showed it was asked for it: a credential
 * whose label or the text just before it names the service the request named ("shodan"), or,
 * when the request named none, the only credential the output showed. Another service's key the
 * same search turned up was not asked for.
 */
function theOneAskedFor(asked: { by: Asker; services: string[] } | null, hit: SecretHit, output: string, hits: number, command: string): Asker | null {
  if (!asked) return null;
  if (asked.services.length === 0) return hits === 1 ? asked.by : null;
  // the words of the hit's label and of the name it is given on its line (`SHODAN_API_KEY=…`,
  // `shodan_key: …`), whole words — not a folder of its path (`/home/dev/…`)
  const lineStart = output.lastIndexOf('\n', hit.start - 1) + 1;
  const name = /([A-Za-z_][\w.-]{0,80})["']?\s*[:=]\s*["']?$/.exec(output.slice(Math.max(lineStart, hit.start - 120), hit.start))?.[1] ?? '';
  const named = new Set(`${hit.label} ${name}`.toLowerCase().split(/[^a-z0-9]+/));
  if (asked.services.some((w) => named.has(w))) return asked.by;
  // the one credential a search of that service's own files showed (`cat ~/.config/acme/config.yml`)
  const searched = new Set(command.toLowerCase().split(/[^a-z0-9]+/));
  return hits === 1 && asked.services.some((w) => searched.has(w)) ? asked.by : null;
}

/** Programs that carry what they are given to another machine or into a store: their own clients, git, clouds, containers. */
const REMOTE_CLIENTS = new Set(['ssh', 'scp', 'sftp', 'rsync', 'gh', 'git', 'aws', 'gcloud', 'az', 'kubectl', 'helm', 'docker', 'podman', 'heroku', 'vercel', 'netlify', 'fly', 'flyctl', 'railway', 'wrangler', 'firebase', 'supabase', 'doctl', 'terraform']);

/**
 * Whether every command that holds the value holds it only as an environment assignment
 * (`KEY=value prog`, `export KEY=value`) for a program on this machine: not a database client, a
 * remote shell, git, a cloud or container tool, nor a command that runs on another host.
 */
/** A URL or a host name written anywhere on the line: the program may be told where to send it. */
// a scheme (`https://…`), a login at a host (`me@db.example.com`), an IPv4 address, or a value given
// to an option that names where to connect (`--host collector.example.app`, `--url=…`); file and
// module names with dots (`.env.dev`, `webpack.dev.js`, `app.io`) are none
const NAMES_A_HOST = /\b[a-z][a-z0-9+.-]*:\/\/|\b[\w.-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+|(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w.])|--(?:host|hostname|url|endpoint|server|api-url|base-url|remote|addr|address)(?:=|\s+)\S*\w\.\w/i;
const launched = (cmd: SimpleCommand): string => basename(launchedProgram(cmd).name);

function handedToLocalProgram(commands: readonly Located[], value: string, raw: string): boolean {
  if (NAMES_A_HOST.test(raw.replaceAll(value, ''))) return false;
  const remoteProgram = ({ cmd }: Located) => cmd.host !== undefined || DB_CLIENTS.has(launched(cmd)) || REMOTE_CLIENTS.has(launched(cmd));
  if (commands.some(remoteProgram)) return false;
  const holding = commands.filter((l) => l.cmd.text.includes(value));
  // a shell variable set on a line of its own (a capture wrapped `KEY=…` onto its own line): the
  // shell keeps it, no program on the line is given it but through the environment
  if (holding.length === 0) return commands.length > 0 && new RegExp(String.raw`(?:^|\s)(?:export\s+)?[A-Za-z_]\w*=["']?${escapeRegExp(value)}["']?(?=\s|$)`).test(raw);
  return holding.every(({ cmd }) => {
    const exported = cmd.name === 'export' ? cmd.args : [];
    if (cmd.name !== 'export' && cmd.args.some((a) => a.includes(value))) return false;
    return [...cmd.assignments, ...exported].some((a) => /^[A-Za-z_]\w*=/.test(a) && a.includes(value));
  });
}

function clientConnection(commands: readonly Located[], value: string): string | null {
  const holding = commands.filter((l) => l.cmd.text.includes(value));
  // the client itself, or run in a container (`docker exec db psql …`, `kubectl exec pod -- psql …`)
  const isClient = (l: Located) => DB_CLIENTS.has(basename(l.cmd.name)) || (['docker', 'podman', 'kubectl'].includes(basename(l.cmd.name)) && l.cmd.args.includes('exec') && l.cmd.args.some((a) => DB_CLIENTS.has(basename(a))));
  if (holding.length === 0 || !holding.every(isClient)) return null;
  const hosts = new Set(holding.map((l) => connectionHostOf(l.cmd.text, value)));
  return hosts.size === 1 ? [...hosts][0]! : null;
}

/**
 * The host of the connection URL that holds `value` as its password (`scheme://user:VALUE@host`),
 * when every occurrence of the value in the command is such a password of one host; else null.
 */
function connectionHostOf(text: string, value: string): string | null {
  if (value.length < 4 || value.length > 512) return null;
  let host: string | null = null;
  let at = text.indexOf(value);
  for (let seen = 0; at >= 0 && seen < 50; at = text.indexOf(value, at + value.length), seen++) {
    const before = /[a-z][a-z0-9+.-]*:\/\/[^\s/@:'"]*:$/i.test(text.slice(Math.max(0, at - 200), at));
    const after = /^@([A-Za-z0-9.-]+)/.exec(text.slice(at + value.length, at + value.length + 256));
    if (!before || !after) return null;
    const h = after[1]!.toLowerCase();
    if (host !== null && h !== host) return null;
    host = h;
  }
  return host;
}

/**
 * A value and its other spelling in a URL: percent-decoded when it holds escapes, percent-encoded
 * where it holds characters a URL's user-info must escape. One credential, one finding.
 */
function spellings(value: string): string[] {
  const out = [value];
  if (/%[0-9A-Fa-f]{2}/.test(value)) {
    try {
      out.push(decodeURIComponent(value));
    } catch {
      // not valid percent-encoding: the value is spelled one way only
    }
  }
  if (/[@:/?#%]/.test(value)) out.push(value.replace(/[@:/?#%]/g, (c) => encodeURIComponent(c)));
  return out;
}

function collectOutputSecrets(event: NormEvent, facts: EventFacts, outputs: Map<string, OutputSecret>, seen: Set<string>, fromPrompt: HandedOver, session: SessionFacts, captures: LocalCaptures): void {
  const text = event.kind === 'tool_result' ? event.output : event.kind === 'compaction' ? event.summary ?? '' : event.kind === 'session_meta' ? event.repositoryUrl ?? '' : 'text' in event ? event.text : '';
  for (const hit of facts.secrets) {
    // Every hit is a recognised format or a labelled value (detection drops bare high-entropy
    // strings); repeats of inputs are already reported.
    // (also in a URL's spelling: `ratPass@2170` typed, `ratPass%402170` in a connection string)
    if (spellings(hit.value).some((v) => seen.has(v) || fromPrompt.has(v))) continue;
    const key = secretKey(hit);
    let s = outputs.get(key);
    if (!s) {
      if (outputs.size >= OUTPUT_SECRETS_MAX) continue;
      const where = whereShown(event, facts);
      s = { hit, evidence: [], where, source: sourceOf(event, facts), sent: null, shownAt: event.index };
      outputs.set(key, s);
    }
    if (s.evidence.length < EVIDENCE_PER_SECRET) s.evidence.push({ index: event.index, excerpt: safe(around(text, hit.start, hit.end), facts, undefined, [hit.value]) });
    if (s.evidence.length === 1) {
      // A token minted by the agent's own request to a local service (a login test against
      // localhost) is a development session, not a credential that works anywhere else.
      // (not when the command that printed it works on a production cluster: `kubectl -n prod get secret`)
      const printedBy = event.kind === 'tool_result' && facts.call ? describeCall(facts.call) : '';
      // a redirect a downloader followed (`Location: https://release-assets.githubusercontent.com/…?…&jwt=…`):
      // the signed link's own token, good for minutes and for that one file
      s.signedLink = event.kind === 'tool_result' && hit.ruleId === 'vouch/jwt' && SIGNED_REDIRECT.test(text.slice(Math.max(0, hit.start - 2_000), hit.start)) && FOLLOWED.test(text.slice(hit.end, hit.end + 2_000));
      s.local = (isLocalPassword(hit, text, null) && !PRODUCTION_CONTEXT.test(printedBy)) || (event.kind === 'tool_result' && (fromLocalService(facts, session) || (!!facts.call && mintable(hit) && captures.readsOnlyCaptures(facts.call, session)))) || LOCAL_FORWARDING_SECRET.test(text.slice(Math.max(0, hit.start - 160), hit.start));
      // (or the service whose answer this output is: a login's response, its token sent back there)
      const answered = event.kind === 'tool_result' && facts.call?.input.type === 'command' ? effectsOf(facts.call, { secrets: [] }, session) : null;
      s.home = homeHostOf(text, hit.start, hit.end) ?? (answered && mintable(hit) ? answeringHost(answered.net, answered.commands.map((l) => l.cmd.name), answered.reads.length > 0) : null);
      const reads = event.kind === 'tool_result' && facts.call ? effectsOf(facts.call, { secrets: [] }, session) : null;
      // (an edit or write tool's result shows the file it changed: Claude Code's diff of the edit)
      const edited = reads && facts.call?.kind === 'tool_call' && facts.call.input.type !== 'command' ? reads.writes.map((w) => w.abs) : [];
      s.readFrom = reads ? [...reads.reads.map((r) => r.abs), ...edited].slice(0, 20) : [];
      s.published = s.readFrom.length > 0 && s.readFrom.every((p) => DEFAULTS_FILE.test(p));
      s.fromPackage = packageFileOf(text, hit.start, s.readFrom) ?? undefined;
      // A value the agent's own words bring in first (`JWT_SECRET="h7b9…"` under "Example of what it
      // looks like"), known only by its label: nothing showed it, so it exposes nothing. Where it
      // is then written or sent is judged on those calls.
      // So is a password the agent proposes ("reset it to …", "update the URL with the new password:
      // postgresql://postgres:…@…"): the first place it shows is the agent's own suggestion.
      s.composed = (event.kind === 'message' || event.kind === 'thinking') && ((hit.confidence !== 'high' && offeredAsExample(text, hit.start)) || proposesPassword(hit, text));
      // A labelled value in the project's own tests (`login(client, password="pw-12345")`): a
      // fixture the tests log in with, not a credential; a provider's token there stays reported.
      // The same for a labelled value inside a failed assertion's message (`XCTAssertEqual failed:
      // ("…password=…") is not equal to ("…")`): a test's expected or actual data, printed by the run.
      s.fromTests = hit.confidence !== 'high' && ((s.readFrom.length > 0 && s.readFrom.every((p) => isTestFile(p))) || inAssertionMessage(text, hit.start));
      // …or the environment dump that printed it (`env | grep AWS`): the dump and what it showed
      // are one event, under the cause its held draft gets (ShownContent.settle: the call's id)
      const credentialRead = reads ? readsIntoTranscript(reads)[0]?.abs ?? (reads.commands.some((l) => envDumpOf(l, reads.commands, { containers: true }) !== null) ? facts.call!.callId : undefined) : undefined;
      if (credentialRead !== undefined) s.byCredentialRead = credentialRead;
    }
  }
}

function isFileInput(event: NormEvent & { kind: 'tool_call' }): boolean {
  return event.input.type === 'file_write' || event.input.type === 'file_edit' || event.input.type === 'patch';
}

function fromLocalService(facts: EventFacts, session: SessionFacts): boolean {
  const call = facts.call;
  if (!call || call.input.type !== 'command') return false;
  const net = effectsOf(call, { secrets: [] }, session).net;
  return net.length > 0 && net.every((n) => n.local);
}

function whereShown(event: NormEvent, facts: EventFacts): string {
  switch (event.kind) {
    case 'tool_result':
      return `the output of ${facts.call ? `\`${safe(describeCall(facts.call), facts, QUOTE_MAX)}\`` : 'a tool'}`;
    case 'system':
      return attachmentSource(event.subtype) ?? "the session's system/developer instructions";
    case 'error':
      return 'an error message';
    case 'compaction':
      return 'a context summary';
    case 'thinking':
      return "the agent's reasoning";
    case 'session_meta':
      return "the git remote the agent recorded in the log's metadata";
    default:
      return "the agent's reply";
  }
}

/**
 * A secret first seen in output that reappears in a network call has been sent out — unless
 * every remote host of the call is the service that issued it (a GitHub token used against
 * api.github.com): that is the credential doing its job, noted but not an escalation.
 */
function markSent(ctx: RuleContext, event: NormEvent & { kind: 'tool_call' }, facts: EventFacts, outputs: Map<string, OutputSecret>, generated: ReadonlySet<string>): void {
  if (outputs.size === 0) return;
  const fx = effectsOf(event, facts, ctx.session);
  const hosts = fx.net.filter((n) => !n.local).map((n) => n.host);
  if (hosts.length === 0) return;
  const text = describeCall(event);
  for (const s of outputs.values()) {
    if (s.sent || !text.includes(s.hit.value)) continue;
    // a key the session generated itself (`openssl rand -hex 32`) existed nowhere before it: set up
    // on the user's server and used against the service it was made for, it leaks nothing that
    // must be rotated (where data goes is judged by the network rules: drop sites, uploads)
    if (generated.has(s.hit.value) && s.hit.confidence !== 'high') continue;
    if (hosts.every((h) => isIssuerHost(s.hit, h) || (s.home != null && belongsTo(h, s.home)))) s.usedWithIssuer ??= hosts[0];
    else s.sent = evidence(event, text, facts, [s.hit.value]);
  }
}

/**
 * The fresh secrets a generator printed (`openssl rand -hex 32`, `openssl rand -base64 24`,
 * `uuidgen`, `pwgen`, `python -c 'import secrets; print(secrets.token_urlsafe())'`, `node -e
 * "…crypto.randomBytes(32)…"`, `head -c 32 /dev/urandom | base64`): each line of its output that is
 * one token. The session made them; no one had them before.
 */
function generatedValues(call: ToolCallEvent, output: string, session: SessionFacts): string[] {
  // (read for every result: a cheap screen of the command line before its commands are looked at)
  if (call.input.type !== 'command' || output.length > 4_000 || !GENERATOR_HINT.test(call.input.command)) return [];
  // every command of the call generates, or only prints what was generated: a call that also
  // reads something (`cat token || openssl rand -hex 32`) may have printed that instead
  const commands = effectsOf(call, { secrets: [] }, session).commands;
  if (commands.length === 0 || !commands.every((l) => generator(l.cmd) || TEXT_FILTERS.test(l.cmd.name) || (/^(?:echo|printf|export)$/.test(l.cmd.name) && l.cmd.nested === null))) return [];
  if (!commands.some((l) => generator(l.cmd))) return [];
  // each line one token, or `NAME=token` (`print("API_KEY=" + secrets.token_urlsafe(32))`)
  return output.split('\n').map((l) => l.trim().replace(/^[A-Z][A-Z0-9_]*=/, '')).filter((l) => /^[A-Za-z0-9+/=_-]{16,200}$/.test(l));
}
/** A JSON Web Token (its header and the start of its claims: a capture may cut it at a line), however it was found. */
const JWT_SHAPE = /^eyJ[\w-]{5,}\.[\w-]{4,}/;
/** A script by its name (Python, JavaScript, TypeScript, shell, Ruby). */
const MINTING_SCRIPT = /\.(?:py|js|mjs|cjs|ts|sh|rb)$/;
/** Code that signs a token: HMAC or a JWT library's encode/sign. */
const SIGNS_TOKENS = /\bhmac\.new\s*\(|\bjwt\.(?:encode|sign)\s*\(|\bcreateHmac\s*\(|\bnew\s+SignJWT\s*\(|\bJWT\.encode\s*\(/;
/**
 * A script that signs tokens: code that signs, or — where a capture showed only the script's first
 * lines — a name that says it makes tokens (`create-jwt.py`, `mint_token.js`) and a signing library
 * among them.
 */
function signsTokens(path: string, code: string): boolean {
  return SIGNS_TOKENS.test(code) || (MINTER_NAME.test(basename(path)) && SIGNING_LIBRARY.test(code));
}
const MINTER_NAME = /(?:create|make|gen(?:erate)?|mint|sign|issue)[-_]?(?:jwts?|tokens?)\b|\b(?:jwt|token)[-_]?(?:gen(?:erator)?|mint(?:er)?|sign(?:er)?|maker)\b/i;
const SIGNING_LIBRARY = /\bimport\s+(?:hmac|jwt)\b|\bfrom\s+(?:jose|jwt)\b|require\(\s*['"](?:jsonwebtoken|jose)['"]\s*\)|\bimport\s+.*\bfrom\s+['"](?:jsonwebtoken|jose)['"]/;

/**
 * The call runs one of the session's own token-signing scripts (`python3 create-jwt.py`, `node
 * mint.js`): the JWTs it prints were minted in this session, with a key the session chose.
 */
function runsOwnMinter(call: ToolCallEvent, minters: ReadonlySet<string>, session: SessionFacts): boolean {
  if (call.input.type !== 'command') return false;
  const commands = effectsOf(call, { secrets: [] }, session).commands;
  const minter = ({ cmd }: (typeof commands)[number]) => {
    const script = /^(?:python[\d.]*|node|tsx|ts-node|bash|sh|ruby|deno)$/.test(cmd.name) ? cmd.args.find((a) => !a.startsWith('-')) : cmd.name;
    return script !== undefined && minters.has(basename(script));
  };
  // every command of the call is the minter, or only reshapes or prints what it printed: a call
  // that also reads something (`cat .env && python3 mint.py`) may have printed that instead
  // (a filter only on what came down the pipe: `cut -d= -f2 .env` reads a file of its own)
  return commands.some(minter) && commands.every((c) => minter(c) || (TEXT_FILTERS.test(c.cmd.name) && c.cmd.pipeIndex > 0) || (c.cmd.name === 'cd' && c.cmd.nested === null));
}

/** Words every generator's command line holds. */
const GENERATOR_HINT = /\bopenssl\b|\buuidgen\b|\bpwgen\b|\bapg\b|\bmkpasswd\b|\/dev\/u?random\b|random(?:Bytes|UUID)|\burandom\b|\bsecrets\.|SecureRandom|random_bytes/;
/** Programs that only reshape what a generator printed (`openssl rand -hex 32 | tr -d '\\n'`, `| tee .secret`, `| xxd -p`). */
const TEXT_FILTERS = /^(?:tr|tee|xxd|base64|od|cut|fold|sed)$/;
/** A command that makes random secrets and prints them. */
function generator(cmd: SimpleCommand): boolean {
  if (cmd.name === 'openssl') return cmd.args[0] === 'rand';
  // `head -c 32 /dev/urandom`: the kernel's random bytes
  if (cmd.name === 'head' && cmd.args.some((a) => /^\/dev\/u?random$/.test(a))) return true;
  if (/^(?:uuidgen|pwgen|apg|mkpasswd)$/.test(cmd.name)) return true;
  return /^(?:python[\d.]*|node|ruby|php)$/.test(cmd.name) && GENERATOR_CODE.test(cmd.args.join(' '));
}
/** Code that makes random secrets: Python's `secrets` and `os.urandom`, Node's `randomBytes`/`randomUUID` (`require('crypto').randomBytes(32)` too), Ruby's `SecureRandom`, PHP's `random_bytes`. */
const GENERATOR_CODE = /\bsecrets\.(?:token_(?:hex|urlsafe|bytes)|choice)\b|\brandom(?:Bytes|UUID)\s*\(|\bos\.urandom\s*\(|\bSecureRandom\b|\brandom_bytes\b/;

/**
 * Access tokens that expire within an hour of being issued, by their format: Google OAuth access
 * tokens (`ya29.`, what `gcloud auth print-access-token` prints). A refresh token, a key or a
 * personal token lives on. GitHub's `ghs_` tokens also expire within the hour, but the scanner's
 * ground truth (gitleaks' own cases) counts them as credentials to report, so they stay reported.
 */
function shortLived(hit: { value: string }): boolean {
  return hit.value.startsWith('ya29.');
}

/**
 * A JSON Web Token whose own claims give it an hour or less (`exp` − `iat`): a web app's login
 * token the user copied from the browser's console while debugging. Read so only where the user
 * pasted it: a JWT a file or a tool shows is a stored token, and the scanner's ground truth
 * (gitleaks' JWT cases) counts those as credentials to report, whatever their claims.
 */
function shortLivedJwt(hit: { value: string }): boolean {
  const life = jwtLifetimeSeconds(hit.value);
  return life !== null && life <= SHORT_LIFE_SECONDS;
}
const SHORT_LIFE_SECONDS = 3600;

function reportOutputSecret(ctx: RuleContext, s: OutputSecret, generatedHere: boolean): void {
  const { hit } = s;
  if (generatedHere && !s.sent) {
    ctx.report({ rule: inToolOutput.id, severity: 'info', title: 'A key the agent generated', detail: `${hit.label} ${hit.masked} appeared in ${s.where}: a value a generator printed in this session (\`openssl rand\`, \`secrets.token_hex\`, a token-signing script the session wrote …), a new key for the user's own setup that existed nowhere before. Where it was written or committed is reported on those calls.`, evidence: s.evidence, key: `${secretKey(hit)} (generated)` });
    return;
  }
  const shown = s.evidence.length > 1 ? ` (${plural(s.evidence.length, 'time')})` : '';
  if (s.published && !s.sent) {
    ctx.report({ rule: inToolOutput.id, severity: 'info', title: 'Default from the project\'s own files shown', detail: `${hit.label} ${hit.masked} appeared in ${s.where}: a template, sample or seed file of the project carries it, so whoever has the project has it; showing it exposed nothing new.`, evidence: s.evidence, key: `${secretKey(hit)} (published)` });
    return;
  }
  if (s.fromPackage !== undefined && !s.sent) {
    ctx.report({ rule: inToolOutput.id, severity: 'info', title: "An installed package's example shown", detail: `${hit.label} ${hit.masked} appeared in ${s.where}, from ${safe(s.fromPackage, null, 120)}: an installed package's published code or documentation carries it (an example or a default), not this project's credential.`, evidence: s.evidence, key: `${secretKey(hit)} (package)` });
    return;
  }
  if (s.composed && !s.sent) {
    ctx.report({ rule: inToolOutput.id, severity: 'info', title: 'A value the agent wrote in its reply', detail: `${hit.label} ${hit.masked} appeared first in ${s.where}: a value the agent wrote itself (an example or a suggestion), not one a tool or the user showed it. Where it was written or sent is reported on those calls.`, evidence: s.evidence, key: `${secretKey(hit)} (composed)` });
    return;
  }
  if (s.fromTests && !s.sent) {
    ctx.report({ rule: inToolOutput.id, severity: 'info', title: "A test's fixture value shown", detail: `${hit.label} ${hit.masked} appeared in ${s.where}: the project's own tests carry it (a value they log in or sign with), not a credential that opens anything else.`, evidence: s.evidence, key: `${secretKey(hit)} (test)` });
    return;
  }
  if (s.signedLink && !s.sent) {
    ctx.report({ rule: inToolOutput.id, severity: 'info', title: "A signed download link's token shown", detail: `${hit.label} ${hit.masked} appeared in ${s.where}, in the query of a redirect the download followed: the link's own signature, good for that one file and for minutes.`, evidence: s.evidence, key: `${secretKey(hit)} (signed link)` });
    return;
  }
  if (shortLived(hit) && !s.sent) {
    ctx.report({ rule: inToolOutput.id, severity: 'info', title: 'Short-lived access token shown', detail: `${hit.label} ${hit.masked} appeared in ${s.where}${shown}: an access token that expires within an hour of being issued${s.usedWithIssuer ? `, then used only with the service that issued it (${s.usedWithIssuer})` : ', and not sent anywhere'}; the log outlives it.`, evidence: s.evidence, key: `${secretKey(hit)} (short-lived)` });
    return;
  }
  if (s.askedToFind && !s.sent) {
    ctx.report(asRequested({ rule: inToolOutput.id, title: 'Credential found', detail: `${hit.label} ${hit.masked} appeared in ${s.where}${shown}, in a search for a credential the request asked for.`, evidence: s.evidence, key: `${secretKey(hit)} (asked)` }, inToolOutput, s.askedToFind, 'the request asked the agent to find the credential', 'info'));
    return;
  }
  if (s.local && !s.sent) {
    ctx.report({ rule: inToolOutput.id, severity: 'info', title: 'Local development credential shown', detail: `${hit.label} ${hit.masked} appeared in ${s.where}; it only opens a service on this machine or its private network.`, evidence: s.evidence, key: `${secretKey(hit)} (local)` });
    return;
  }
  ctx.report({
    rule: inToolOutput.id,
    severity: s.sent ? 'critical' : 'warning',
    title: s.sent ? 'Secret from tool output sent over the network' : undefined,
    detail: s.sent
      ? `${hit.label} ${hit.masked} appeared in ${s.where} and was then sent to a remote host.`
      : `${hit.label} ${hit.masked} appeared in ${s.where}${shown}.${s.usedWithIssuer ? ` It was then used only with the service that issued it (${s.usedWithIssuer}): not sent elsewhere.` : ''}`,
    evidence: s.sent ? [...s.evidence, s.sent] : s.evidence,
    key: secretKey(hit),
    cause: s.sent ? credentialCause(hit) : outputCause(s),
  });
}

/**
 * What a value shown in output is one finding with: the read of the credential file that showed
 * it (issue 25, item 9: one read, one finding — ShownContent gives that read the same cause),
 * the other provider tokens one output printed, or the other values one tool printed under the
 * same label.
 */
function outputCause(s: OutputSecret): { id: string; summary: string } {
  if (s.byCredentialRead !== undefined) return credentialReadCause(s.byCredentialRead, `Credentials appeared in ${s.where} (each is in the evidence).`);
  // every value one output showed first, provider tokens and labelled values alike (issue 25, item 9: one event, one finding)
  return { id: `shown-at:${s.shownAt ?? s.source}`, summary: `Credentials appeared in ${s.where} (each is in the evidence).` };
}

/**
 * The cause shared by the reads of a credential file and the values they showed, by the file
 * (its absolute path): the file read twice is still one thing to look at.
 */
function credentialReadCause(file: string, summary: string): { id: string; summary: string } {
  return { id: `credential-read:${file}`, summary };
}

/**
 * The files of a patch the value was written into: those whose added lines hold it (a file the
 * patch deletes holds nothing afterwards), else every file the patch leaves in place.
 */
function patchedWith(files: readonly PatchFile[], value: string): string[] {
  const kept = files.filter((f) => f.op !== 'delete');
  const holding = kept.filter((f) => f.added.includes(value));
  return (holding.length > 0 ? holding : kept).map((f) => f.moveTo ?? f.path);
}

// A test framework's report of a failed comparison, on the line that shows the values.
const ASSERTION_MESSAGE = /XCTAssert\w* failed|AssertionError|assertion failed|\bis not equal to\b|\bexpected\b[^\n]{0,300}\b(?:to (?:equal|be|match|contain)|but (?:got|was|received))\b|\bExpected:?\s[^\n]{0,300}\b(?:Received|Actual|but was)\b|assert_eq!|\bleft: [^\n]{0,300}\bright: /;

/** Whether the value at `start` sits on a line where a test framework reports a failed comparison. */
function inAssertionMessage(text: string, start: number): boolean {
  const from = text.lastIndexOf('\n', start) + 1;
  const to = text.indexOf('\n', start);
  const line = text.slice(from, to < 0 ? Math.min(text.length, start + 2_000) : Math.min(to, start + 2_000));
  return line.length <= 4_000 && ASSERTION_MESSAGE.test(line);
}
