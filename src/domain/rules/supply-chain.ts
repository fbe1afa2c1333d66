// supply-chain: what the agent brought into the project or pushed out of it — packages installed
// from URLs and git, registry overrides, publications (irreversible), new install scripts and
// names one typo away from a popular package.
import type { NormEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { EventFacts, FindingDraft, Rule, RuleContext } from './types.ts';
import { effectsOf, type FileOp } from './effects.ts';
import { CommandTable, type Positional, type Row } from './command-table.ts';
import { hostOfUrl, optionValues, parseArgs } from './commands.ts';
import { basename, countMatches, escapeRegExp, evidence, meta, QUOTE_MAX, safe, type EvidenceItem } from './util.ts';
import { asRequested, orderSentences, requestsOf, whoAsked, type RequestLog } from './requests.ts';
import { ShownContents } from './shown-contents.ts';
import { lastStep, Outcomes } from './outcome.ts';
import { parseShell } from '../shell/parse.ts';

export const installFromUrl = meta({
  id: 'supply-chain/install-from-url',
  severity: 'warning',
  title: 'Package installed from a URL or git',
  description: 'npm/pnpm/yarn/bun install of https://, git+…, github:user/repo or user/repo; pip/uv install of git+…, https://… archives or "name @ URL"; cargo install --git. Such code bypasses the registry\'s review, versioning and audit tooling. Local paths are not reported; curl | sh is reported as exfiltration/remote-code-execution.',
  remediation: 'Prefer a published, pinned version; if the source is needed, pin a commit hash and review it.',
});
export const registryOverride = meta({
  id: 'supply-chain/registry-override',
  severity: 'warning',
  title: 'Package registry overridden',
  description: 'A non-default registry or index was used or configured: --registry, npm/yarn/pnpm config set registry, pip -i/--index-url/--extra-index-url/--trusted-host, pip config set, uv --index-url, or a registry/index-url line written into .npmrc/.yarnrc/pip.conf. --extra-index-url is the classic dependency-confusion setup. Scoped registries (@scope:registry=…) and the PyTorch wheel index are not reported.',
  remediation: 'Check that the registry is the organisation\'s own and trusted; prefer scoped registries for private packages.',
});
export const publish = meta({
  id: 'supply-chain/publish',
  severity: 'critical',
  title: 'Package published or unpublished',
  description: 'npm/pnpm/yarn/bun publish, npm unpublish, cargo publish, twine upload, poetry/uv/flit/hatch publish, gem push, dotnet nuget push, vsce/ovsx publish: a release went out to a public registry and cannot really be taken back. Dry runs are not reported. Info when the user asked for the release in words ("publish it to npm", "release 0.3.1 to PyPI", "发布到 npm": a publish or release word beside a registry, a package or a version; unpublishing needs its own word).',
  remediation: 'Check the published version and its contents; deprecate or yank it if it was not intended, and rotate the token used.',
});
export const installScript = meta({
  id: 'supply-chain/install-script-added',
  severity: 'warning',
  title: 'Install script added to package.json',
  description: 'A preinstall/install/postinstall script was written into a package.json: it runs on every install, on every developer machine and CI runner. prepare scripts (husky) are not reported.',
  remediation: 'Review the script; prefer explicit setup commands over install hooks.',
});
export const typosquat = meta({
  id: 'supply-chain/typosquat',
  severity: 'warning',
  title: 'Possible typosquatted package',
  description: 'An installed package name is one or two edits away from a popular npm or PyPI package (reqeusts, expresss, lodahs, crossenv …) without being that package or a known legitimate neighbour (preact, scapy …).',
  remediation: 'Check the package name and its publisher; uninstall it and rotate credentials if it was malicious.',
});

// ---- install commands ---------------------------------------------------------------------------

type Ecosystem = 'npm' | 'pypi' | 'cargo';

interface Install {
  eco: Ecosystem;
  specs: string[];
}

const NPM_VALUE_OPTS = ['--registry', '--prefix', '-w', '--workspace', '--filter', '--tag', '--cwd', '--save-prefix', '-C', '--dir'];
const PIP_VALUE_OPTS = ['-r', '--requirement', '-c', '--constraint', '-i', '--index-url', '--extra-index-url', '-t', '--target', '--prefix', '-f', '--find-links', '--trusted-host', '--python', '--root', '--src', '--index', '--default-index', '-p', '--group'];

/** The packages an install command names, by ecosystem (null when it is not an install). */
export function installOf(cmd: SimpleCommand): Install | null {
  const { name, args } = cmd;
  if (name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') {
    const { operands } = parseArgs(args, NPM_VALUE_OPTS);
    const sub = operands[0] === 'global' ? operands[1] : operands[0];
    if (!/^(install|i|add|in|ins|inst|insta|instal|isnt|isntall)$/.test(sub ?? '')) return null;
    return { eco: 'npm', specs: operands.slice(operands.indexOf(sub) + 1) };
  }
  const pipArgs = pipInstallArgs(cmd);
  if (pipArgs) {
    const { operands } = parseArgs(pipArgs, PIP_VALUE_OPTS);
    return { eco: 'pypi', specs: [...operands, ...optionValues(pipArgs, ['-e', '--editable'])] };
  }
  if (name === 'cargo' && args[0] === 'install') return { eco: 'cargo', specs: optionValues(args, ['--git']).map((u) => `git+${u}`) };
  return null;
}

/** Arguments after "install"/"add" for pip, python -m pip, uv pip, uv add, poetry add, pipenv, pipx. */
function pipInstallArgs(cmd: SimpleCommand): string[] | null {
  const { name, args } = cmd;
  // Screen: every installer below is named p… (pip*, pipx, pipenv, python*, poetry) or uv.
  if (name.charCodeAt(0) !== 0x70 && name !== 'uv') return null;
  const after = (i: number) => (i >= 0 ? args.slice(i + 1) : null);
  if (/^pip[\d.]*$/.test(name) || name === 'pipx' || name === 'pipenv') return args[0] === 'install' ? args.slice(1) : null;
  if (/^python[\d.]*$/.test(name) && args[0] === '-m' && /^pip[\d.]*$/.test(args[1] ?? '')) return args[2] === 'install' ? args.slice(3) : null;
  if (name === 'uv') return args[0] === 'pip' && args[1] === 'install' ? args.slice(2) : args[0] === 'add' ? args.slice(1) : null;
  if (name === 'poetry') return args[0] === 'add' ? after(0) : null;
  return null;
}

const NPM_REMOTE = /^(https?:|git\+|git:|git@|github:|gitlab:|bitbucket:|gist:)|^[A-Za-z0-9][\w.-]*\/[\w.-]+(#.*)?$/;
const PIP_REMOTE = /^(git\+|hg\+|svn\+|bzr\+|https?:|ftp:)|\s@\s*\S+:\/\/|@(git\+|https?:)/;

function isRemoteSpec(eco: Ecosystem, spec: string): boolean {
  if (eco === 'npm') return NPM_REMOTE.test(spec) && !spec.startsWith('@') && !/^\.{0,2}\//.test(spec);
  return eco === 'cargo' || PIP_REMOTE.test(spec);
}

// ---- registries -------------------------------------------------------------------------------------

const DEFAULT_REGISTRIES = ['registry.npmjs.org', 'registry.yarnpkg.com', 'pypi.org', 'pypi.python.org', 'files.pythonhosted.org', 'download.pytorch.org'];

function nonDefault(url: string): boolean {
  const host = hostOfUrl(url) ?? hostOfUrl(`https://${url}`);
  return host !== null && !DEFAULT_REGISTRIES.includes(host);
}

function registryOverrides(cmd: SimpleCommand): string[] {
  const { name, args } = cmd;
  const out: string[] = [];
  if (name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun' || name === 'npx') {
    out.push(...optionValues(args, ['--registry']));
    const ops = parseArgs(args, NPM_VALUE_OPTS).operands;
    const set = ops[0] === 'config' ? ops.slice(1) : ops;
    if (set[0] === 'set' && /^(registry|npmRegistryServer)$/.test(set[1] ?? '')) out.push(set[2] ?? '');
    if (set[0] === 'set' && /^(registry|npmRegistryServer)=/.test(set[1] ?? '')) out.push(set[1].split('=')[1]);
  }
  if (pipInstallArgs(cmd) || /^pip[\d.]*$/.test(name) || name === 'uv' || /^python[\d.]*$/.test(name)) {
    out.push(...optionValues(args, ['-i', '--index-url', '--extra-index-url', '--trusted-host', '--index', '--default-index']));
    const cfg = args.indexOf('config');
    if (cfg >= 0 && args[cfg + 1] === 'set' && /index-url|trusted-host/.test(args[cfg + 2] ?? '')) out.push(args[cfg + 3] ?? '');
  }
  return out.filter((v) => v && nonDefault(v));
}

const REGISTRY_FILE = /(^|\/)(\.npmrc|\.yarnrc|\.yarnrc\.yml|pip\.conf|pip\.ini|uv\.toml|\.pypirc)$/;
const REGISTRY_LINE = /^(?!\s*@)\s*(registry|npmRegistryServer|index-url|extra-index-url|index_url|extra_index_url|trusted-host)\s*[=:]\s*["']?([^\s"']+)/gm;

function registryLines(w: FileOp): string[] {
  if (!REGISTRY_FILE.test(w.path)) return [];
  return [...w.added.matchAll(REGISTRY_LINE)].map((m) => m[2]).filter(nonDefault);
}

// ---- publication --------------------------------------------------------------------------------

interface PublishView extends Positional {
  tool: string;
  args: string[];
}

interface Publication extends Row<PublishView> {
  /** The publishing command as the finding names it. */
  what: string | ((v: PublishView) => string);
}

/** Package publications: tool → subcommand path → what was published (irreversible for others). */
export const PUBLICATIONS = new CommandTable<PublishView, Publication>([
  { tools: ['npm', 'pnpm', 'bun'], path: [/^(publish|unpublish)$/], what: (v) => `${v.tool} ${v.operands[0]}` },
  { tools: ['yarn'], path: ['publish'], what: 'yarn publish' },
  { tools: ['yarn'], path: ['npm', 'publish'], what: 'yarn publish' },
  // `cargo publish -n` is cargo's dry run.
  { tools: ['cargo'], path: ['publish'], unless: (v) => v.args.includes('-n'), what: 'cargo publish' },
  { tools: ['twine'], path: ['upload'], what: 'twine upload' },
  { tools: ['python'], path: [], when: (v) => v.args.slice(0, 3).join(' ') === '-m twine upload', what: 'twine upload' },
  { tools: ['poetry', 'uv', 'flit', 'hatch', 'vsce', 'ovsx'], path: ['publish'], what: (v) => `${v.tool} publish` },
  { tools: ['gem'], path: ['push'], what: 'gem push' },
  { tools: ['dotnet'], path: ['nuget', 'push'], what: 'dotnet nuget push' },
  { tools: ['pod'], path: ['trunk', 'push'], what: 'pod trunk push' },
]);

/** The publishing command (`npm publish`, `twine upload` …), or null; a dry run publishes nothing. */
export function publication(cmd: SimpleCommand): string | null {
  const { name, args } = cmd;
  if (args.includes('--dry-run')) return null;
  const tool = /^python[\d.]*$/.test(name) ? 'python' : name;
  const found = PUBLICATIONS.match(tool, () => ({ tool: name, args, operands: args.filter((a) => !a.startsWith('-')) }));
  if (!found) return null;
  const { row, view } = found;
  return typeof row.what === 'function' ? row.what(view) : row.what;
}

// ---- typosquats ---------------------------------------------------------------------------------

const POPULAR: Record<'npm' | 'pypi', string[]> = {
  npm: [
    'react', 'react-dom', 'express', 'lodash', 'axios', 'chalk', 'commander', 'typescript', 'webpack', 'eslint', 'prettier',
    'jest', 'mocha', 'moment', 'dayjs', 'request', 'debug', 'dotenv', 'uuid', 'yargs', 'minimist', 'underscore', 'jquery',
    'vue', 'next', 'nuxt', 'preact', 'redux', 'mongoose', 'sequelize', 'prisma', 'socket.io', 'body-parser', 'cors',
    'nodemon', 'inquirer', 'glob', 'rimraf', 'mkdirp', 'semver', 'colors', 'color', 'async', 'bluebird', 'fs-extra',
    'node-fetch', 'cross-env', 'ts-node', 'vite', 'vitest', 'rollup', 'esbuild', 'tslint', 'electron', 'angular',
    'graphql', 'apollo-server', 'jsonwebtoken', 'bcrypt', 'bcryptjs', 'passport', 'helmet', 'morgan', 'winston',
    'pino', 'zod', 'yup', 'joi', 'ajv', 'classnames', 'styled-components', 'tailwindcss', 'postcss', 'autoprefixer',
    'sass', 'less', 'babel-core', 'core-js', 'rxjs', 'immer', 'ramda', 'chokidar', 'ws', 'superagent', 'cheerio',
    'puppeteer', 'playwright', 'nanoid', 'date-fns', 'luxon', 'mysql', 'mysql2', 'pg', 'redis', 'ioredis', 'knex',
    'sharp', 'multer', 'formidable', 'serve', 'http-server', 'concurrently', 'husky', 'lint-staged', 'openai',
    'discord.js', 'mongodb', 'firebase', 'svelte', 'astro', 'gatsby', 'koa', 'fastify', 'hapi', 'ethers', 'web3',
  ],
  pypi: [
    'requests', 'numpy', 'pandas', 'scipy', 'matplotlib', 'django', 'flask', 'fastapi', 'pytest', 'boto3', 'botocore',
    'boto', 'urllib3', 'setuptools', 'pillow', 'sqlalchemy', 'pyyaml', 'pyaml', 'cryptography', 'beautifulsoup4',
    'selenium', 'tensorflow', 'torch', 'torchvision', 'scikit-learn', 'jinja2', 'jinja', 'click', 'pydantic', 'httpx',
    'aiohttp', 'uvicorn', 'gunicorn', 'celery', 'redis', 'psycopg2', 'psycopg2-binary', 'pymongo', 'openai',
    'anthropic', 'transformers', 'python-dateutil', 'six', 'certifi', 'idna', 'charset-normalizer', 'colorama',
    'tqdm', 'rich', 'lxml', 'paramiko', 'docker', 'pyjwt', 'jsonschema', 'scapy', 'seaborn', 'plotly', 'keras',
    'opencv-python', 'nltk', 'spacy', 'black', 'flake8', 'mypy', 'pylint', 'isort', 'poetry', 'virtualenv', 'wheel',
    'pip', 'tox', 'coverage', 'mock', 'attrs', 'packaging', 'markdown', 'werkzeug', 'itsdangerous', 'pytz',
    'tzdata', 'protobuf', 'grpcio', 'langchain', 'streamlit', 'gradio', 'sympy', 'networkx', 'xgboost', 'lightgbm',
  ],
};

/** Optimal string alignment distance (edits incl. transpositions), stopping early above `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  // three rows reused from call to call (it is asked of every word against every name: issue 30)
  if (rows[0].length < n + 1) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  let [prev2, prev, cur] = rows;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    const done = prev2;
    prev2 = prev;
    prev = cur;
    cur = done;
  }
  return prev[n];
}
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

function packageName(eco: 'npm' | 'pypi', spec: string): string | null {
  if (eco === 'npm') {
    if (spec.startsWith('@') || spec.includes('/') || spec.includes(':')) return null;
    return spec.split('@')[0].toLowerCase() || null;
  }
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec);
  return m && !spec.includes('://') ? m[1].toLowerCase().replace(/[_.]+/g, '-') : null;
}

/** Real packages that happen to sit one edit away from a popular one. */
const LEGIT_NEIGHBOURS = new Set(['markdown2', 'openapi', 'axiom', 'server', 'prism', 'docket', 'pyaml', 'jinja', 'color', 'tslint', 'boto', 'scapy', 'preact']);

/** The name without a trailing major-version number (`psycopg2-binary` → `psycopg-binary`). */
function versionStem(name: string): string {
  return name.replace(/(?<=[a-z])\d{1,2}(?=$|-)/, '');
}

/** Stems of the popular names that carry their major version (`psycopg2` → `psycopg`). */
const VERSIONED_STEMS = {
  npm: new Set(POPULAR.npm.filter((p) => versionStem(p) !== p).map(versionStem)),
  pypi: new Set(POPULAR.pypi.filter((p) => versionStem(p) !== p).map(versionStem)),
};

/** The popular package this name imitates, or null. */
export function typosquatOf(eco: 'npm' | 'pypi', name: string): string | null {
  const list = POPULAR[eco];
  if (name.length < 5 || list.includes(name) || LEGIT_NEIGHBOURS.has(name)) return null;
  const max = name.length >= 9 ? 2 : 1;
  const stem = versionStem(name);
  // A major-version sibling (`psycopg` beside `psycopg2`, `boto` beside `boto3`) names the same
  // project's family: projects publish each major under its own name, squatters change letters.
  // Only for a popular name that carries its major version itself: `requests2` is no family of `requests`.
  if (VERSIONED_STEMS[eco].has(stem)) return null;
  for (const p of list) if (p.length >= 5 && editDistance(name, p, max) <= max && !insertsSyllable(name, p)) return p;
  return null;
}

/**
 * `markitdown` beside `markdown`: the popular name with two letters put in together, neither of
 * them a repeat of a neighbour — a syllable that makes another word, not a slipped finger (a typo
 * doubles a letter, drops one or swaps two: `requestss`, `reqeusts`).
 */
function insertsSyllable(name: string, popular: string): boolean {
  if (name.length !== popular.length + 2) return false;
  for (let i = 1; i < popular.length; i++) {
    if (name.slice(0, i) !== popular.slice(0, i) || name.slice(i + 2) !== popular.slice(i)) continue;
    const block = name.slice(i, i + 2);
    const neighbours = `${name[i - 1]}${name[i + 2] ?? ''}`;
    if (/^[a-z]{2}$/.test(block) && block[0] !== block[1] && ![...block].some((c) => neighbours.includes(c))) return true;
  }
  return false;
}

// ---- the rule ---------------------------------------------------------------------------------------

// The registries' clients saying a release went out: npm's `+ name@1.2.3` (printed after the
// package's publish scripts) and its `postpublish` script starting (run once the registry took it),
// twine's "View at:", cargo's "Published"/"Uploaded", poetry's and others' "Published"/"Uploaded".
const PUBLISHED_WORDS = /^\+ \S+@\d\S*\s*$|^> \S+@\S+ postpublish$|\bView at:|^\s*(?:Published|Uploaded)\b/m;

const INSTALL_SCRIPT = /"(preinstall|install|postinstall)"\s*:/g;

export const SUPPLY_CHAIN_RULES: Rule[] = [
  {
    metas: [installFromUrl, registryOverride, publish, installScript, typosquat],
    create(ctx) {
      const requests = requestsOf(ctx.session);
      // package.json as the session last saw it: a whole-file rewrite keeps the install hooks it had
      const manifests = new ShownContents((f) => basename(f.path) === 'package.json');
      // a publication waits for its call's result: a registry that refused it (no login, a taken
      // version) published nothing (Outcomes settles it, as a change on another system)
      const outcomes = new Outcomes(ctx, [publish]);
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          const fx = effectsOf(event, facts, ctx.session);
          fx.commands.forEach(({ cmd }, i) => checkCommand(ctx, event, facts, cmd, requests, (d) => outcomes.report(event, 'run', d, undefined, { last: lastStep(fx.commands, i), title: publish.title, wentThrough: PUBLISHED_WORDS })));
          for (const w of fx.writes) checkWrite(ctx, event, facts, w.kind === 'write' && !w.removed ? { ...w, removed: manifests.get(w.abs) } : w, requests);
          if (event.kind === 'tool_call') manifests.onCall(event, fx);
          if (event.kind === 'tool_result') manifests.onResult(event, facts);
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
];

function checkCommand(ctx: RuleContext, event: NormEvent, facts: EventFacts, cmd: SimpleCommand, requests: RequestLog, reportPublication: (d: FindingDraft) => void): void {
  // The quote and the evidence are built only when something is reported: most commands are not.
  let quotedText: string | undefined;
  let ev: EvidenceItem[] | undefined;
  const quoted = () => (quotedText ??= safe(cmd.text, facts, QUOTE_MAX));
  const evidenceOf = () => (ev ??= [evidence(event, cmd.text, facts)]);
  const install = installOf(cmd);
  for (const spec of install?.specs ?? []) {
    if (isRemoteSpec(install!.eco, spec)) {
      const draft = { rule: installFromUrl.id, detail: `Installed ${safe(spec, facts, QUOTE_MAX)} from outside the registry: \`${quoted()}\`.`, evidence: evidenceOf(), key: spec };
      // "install the tool from github.com/acme/tool": the source the user named
      const asked = whoAsked(requests.for(event), (t) => namesInstallSource(t, spec));
      ctx.report(asked ? asRequested(draft, installFromUrl, asked, 'the request named where to install it from') : draft);
      continue;
    }
    const eco = install!.eco;
    const name = eco === 'cargo' ? null : packageName(eco, spec);
    const target = name && eco !== 'cargo' ? typosquatOf(eco, name) : null;
    if (target) ctx.report({ rule: typosquat.id, detail: `Installed "${name}", which looks like a misspelling of the popular package "${target}": \`${quoted()}\`.`, evidence: evidenceOf(), key: name! });
  }
  for (const reg of registryOverrides(cmd)) {
    ctx.report({ rule: registryOverride.id, detail: `Packages fetched from or configured to ${safe(reg, facts, QUOTE_MAX)}: \`${quoted()}\`.`, evidence: evidenceOf(), key: hostOfUrl(reg) ?? reg });
  }
  const pub = publication(cmd);
  if (!pub) return;
  const draft = { rule: publish.id, detail: `${pub}: \`${quoted()}\`.`, evidence: evidenceOf(), key: pub };
  const asked = whoAsked(requests.for(event), (t) => asksToPublish(t, /unpublish/.test(pub), REGISTRY_OF[cmd.name] ?? null));
  reportPublication(asked ? asRequested(draft, publish, asked, `the request asked to ${/unpublish/.test(pub) ? 'unpublish' : 'publish'} the package`) : draft);
}

// what is published: a registry, a package, a version — "release 0.3.1 to PyPI", "publish the package"
const PUBLISHED_THING = /\b(?:npm|pypi|crates(?:\.io)?|crate|rubygems|gems?|nuget|marketplace|open ?vsx|registry|package|library|extension|sdk|v?\d+\.\d+(?:\.\d+)?)\b|包|パッケージ|패키지/i;
// "release"/"ship" as the order, not a noun ("the release notes", "the v2.0.0 release"): at the
// sentence's start or after "please", "let's", "to", "and", "then", "now", a comma
const RELEASE_ORDER = /(?:^|\b(?:please|let'?s|and|then|now|go ahead and|can you|could you)\s+|[,;:]\s*)(?:release|ship)\b(?!\s+notes?\b)(?!\s+\S+\s+(?:is|was|are|were|has|had|broke|failed)\b)|リリース(?:して|する)|출시해/i;
// the registries by name, and the one each publishing tool sends to
const REGISTRY_NAMED = /\b(npm|pypi|crates(?:\.io)?|rubygems|nuget|marketplace|open ?vsx)\b/gi;
const REGISTRY_OF: Record<string, string> = { npm: 'npm', pnpm: 'npm', yarn: 'npm', bun: 'npm', twine: 'pypi', poetry: 'pypi', uv: 'pypi', flit: 'pypi', hatch: 'pypi', cargo: 'crates', gem: 'rubygems', dotnet: 'nuget', vsce: 'marketplace', ovsx: 'openvsx' };
// "no publishing", "don't publish yet", "publish later", "before you publish": held back
const PUBLISH_HELD_BACK = /\b(?:don'?t|do not|never|no|not|later|yet|without|before you|dry[- ]run|for now|until)\b|不要|别|先不|しないで|하지 ?마|todavía no|pas encore|пока не/i;

/**
 * The request names where the package comes from: its repository as `owner/name` (with its host or
 * as a URL), or the whole URL — not a lone name.
 */
function namesInstallSource(request: string, spec: string): boolean {
  const url = spec.replace(/^git\+/, '').replace(/#.*$/, '').replace(/\.git$/, '').toLowerCase();
  const repo = /^(?:https?:\/\/|ssh:\/\/git@|git@)([^/:]+)[/:]([\w.-]+\/[\w.-]+)/.exec(url);
  return orderSentences(request).some((s) => {
    const text = s.toLowerCase();
    if (!repo) return url.length >= 12 && new RegExp(`(?<![\\w.-])${escapeRegExp(url)}(?![\\w/-])`).test(text);
    const [host, path] = [repo[1]!, repo[2]!];
    // `host/owner/name` whole, or `owner/name` beside the name of that very host ("acme/tool from GitHub")
    if (new RegExp(`(?<![\\w.-])${escapeRegExp(`${host}/${path}`)}(?![\\w/-])`).test(text)) return true;
    const hostWord = /^(?:www\.)?(github|gitlab|bitbucket|codeberg)\.(?:com|org)$/.exec(host)?.[1];
    return hostWord !== undefined && new RegExp(`\\b${hostWord}\\b`).test(text) && new RegExp(`(?<![\\w./-])${escapeRegExp(path)}(?![\\w/-])`).test(text);
  });
}

/**
 * "publish it to npm", "release 1.2.0 to PyPI", "发布到 npm": a sentence that asks for the release —
 * a publish word beside what is published ("the package", a registry, a version, "it"), or
 * "release"/"ship" beside a registry, a package or a version — not held back ("no publishing",
 * "later") and not a question. A registry named must be the one the tool publishes to
 * (`registry`: npm, pypi …). Unpublishing needs its own word.
 */
export function asksToPublish(request: string, unpublish = false, registry: string | null = null): boolean {
  return request.slice(0, 10_000).split(/(?<=[.!?。！？])\s+|\n+/).some((s) => {
    if (PUBLISH_HELD_BACK.test(s) || /\?\s*$/.test(s) || /^\s*(?:what|why|how|should|can|could|is|are|does|do|will|would)\b/i.test(s)) return false;
    const named = [...s.matchAll(REGISTRY_NAMED)].map((m) => m[1]!.toLowerCase().replace(/\.io$/, '').replace(/\s+/g, ''));
    if (registry !== null && named.length > 0 && !named.includes(registry)) return false;
    if (unpublish) return /\bunpublish|\b(?:remove|delete|take down)\b[^.\n]{0,40}\bfrom (?:npm|the registry)\b/i.test(s);
    // "publish it" in a session about a package; "publish the docs to Pages" names something else
    return (/\bpublish(?:ing)?\b|发布|發佈|公開して|배포해|publica|publie|veröffentlich|опубликуй/i.test(s) && (PUBLISHED_THING.test(s) || /\bpublish (?:it|this)\b/i.test(s)))
      || (RELEASE_ORDER.test(s.trim()) && PUBLISHED_THING.test(s));
  });
}

const HOOK = /"(pre|post)?install"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/** The install hooks of a package.json's text, whole (`"postinstall": "…"`), by kind. */
function hooksIn(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const h of text.matchAll(HOOK)) out.set(h[0], `${h[1] ?? ''}install`);
  return out;
}

/** The programs a hook's command runs, as the shell parser reads it (`cd` moves, it runs nothing). */
function programs(command: string): Set<string> {
  return new Set(parseShell(command.replace(/\\"/g, '"')).commands.map((c) => c.name).filter((p) => p !== '' && p !== 'cd'));
}

/** The hook replaces one of its kind the file had and runs only programs that one ran. */
function narrows(hook: RegExpMatchArray, before: Map<string, string>): boolean {
  const kind = `${hook[1] ?? ''}install`;
  const now = programs(hook[2] ?? '');
  for (const [old, oldKind] of before) {
    if (oldKind !== kind) continue;
    const then = programs(/:\s*"((?:[^"\\]|\\.)*)"$/.exec(old)?.[1] ?? '');
    if ([...now].every((p) => then.has(p))) return true;
  }
  return false;
}

/** The request names the hook's kind (`postinstall`; a plain `install` script only as `"install"` or "install script") and its program, each as a whole word. */
function specifiesHook(request: string, hook: string, script: string): boolean {
  const program = (script.trim().split(/\s+/)[0] ?? '').toLowerCase().replace(/^.*\//, '');
  if (program.length < 3 || !/^[a-z0-9][\w.-]*$/.test(program)) return false;
  const l = request.toLowerCase();
  const kind = hook === 'install' ? /"install"|\binstall\s+(?:script|hook)\b/ : new RegExp(`\\b${hook}\\b`);
  return kind.test(l) && new RegExp(`(?:^|[^\\w.-])${program.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(l);
}

function checkWrite(ctx: RuleContext, event: NormEvent, facts: EventFacts, w: FileOp, requests: RequestLog): void {
  const excerpt = `${w.path}: ${w.added}`;
  for (const reg of registryLines(w)) {
    ctx.report({ rule: registryOverride.id, detail: `${safe(w.path, facts, QUOTE_MAX)} now points at the registry ${safe(reg, facts, QUOTE_MAX)}.`, evidence: [evidence(event, excerpt, facts)], key: hostOfUrl(reg) ?? reg });
  }
  const before = basename(w.path) === 'package.json' ? hooksIn(w.removed) : null;
  // the hooks this write added, or changed to run a program the old one did not (a hook narrowed to
  // part of what it ran — `cd client && npm install` for an install of three folders — adds nothing)
  const hooks = before ? [...w.added.matchAll(HOOK)].filter((h) => !before.has(h[0]) && !narrows(h, before)) : [];
  if (before && (hooks.length > 0 || (before.size === 0 && countMatches(w.added, INSTALL_SCRIPT) > countMatches(w.removed, INSTALL_SCRIPT)))) {
    const m = hooks[0] ?? /"(pre|post)?install"\s*:\s*"([^"]*)"/.exec(w.added);
    const draft = { rule: installScript.id, detail: `An install script was added to ${safe(w.path, facts, QUOTE_MAX)}${m ? `: ${safe(m[0], facts, QUOTE_MAX)}` : ''}.`, evidence: [evidence(event, m ? `${w.path}: ${m[0]}` : excerpt, facts)], key: w.abs };
    // "postinstall: basehub", "add a postinstall that runs prisma generate": every hook added is one
    // the request specified, by its kind and the program it runs, each a whole word
    const asked = hooks.length > 0 ? whoAsked(requests.for(event), (t) => hooks.every((h) => specifiesHook(t, `${h[1] ?? ''}install`, h[2]!))) : null;
    ctx.report(asked ? asRequested(draft, installScript, asked, `the request specified this ${m ? `${m[1] ?? ''}install` : 'install'} script`) : draft);
  }
}
