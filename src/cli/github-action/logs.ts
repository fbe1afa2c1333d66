// The files a `log` input names: a path or a glob, relative to the workspace (or absolute, e.g. an
// agent's transcripts under $HOME written during the job). Every file is checked to be a readable
// regular file before any analysis, so a wrong path fails the step with exit 3 and nothing else.
import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ActionInputError } from './inputs.ts';

/** Most files a glob may match: a pattern like `**` in a large checkout is a mistake, not a request. */
export const MAX_LOGS = 1_000;
/** Most files walked while matching a glob. */
const MAX_WALKED = 100_000;

export interface LogFile {
  /** Absolute path. */
  path: string;
  /** As shown and as the SARIF artifact location: relative to the workspace with `/`, or absolute when outside it. */
  display: string;
}

/** `*` and `?` within a path segment, `**` across segments; the rest literal. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

async function walk(dir: string, out: string[], budget: { left: number }): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (--budget.left < 0) return;
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, out, budget);
    else if (entry.isFile()) out.push(path);
  }
}

/** `~/…` is the runner's home (the runner does not expand it in inputs). */
function expandHome(pattern: string): string {
  return pattern === '~' || pattern.startsWith('~/') ? join(homedir(), pattern.slice(1)) : pattern;
}

function display(path: string, workspace: string): string {
  const rel = relative(workspace, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : path;
}

/** The files a `log` input names, sorted; an error (exit 3) when there are none or one is unreadable. */
export async function resolveLogs(pattern: string, workspace: string): Promise<LogFile[]> {
  const absolute = resolve(workspace, expandHome(pattern.replace(/^\.\//, '')));
  const files = /[*?]/.test(pattern) ? await matchGlob(absolute, pattern) : [await readableFile(absolute, pattern)];
  return files.map((path) => ({ path, display: display(path, workspace) })).sort((a, b) => a.display.localeCompare(b.display));
}

async function matchGlob(absolutePattern: string, pattern: string): Promise<string[]> {
  const wild = absolutePattern.search(/[*?]/);
  const base = absolutePattern.slice(0, absolutePattern.lastIndexOf('/', wild) + 1) || '/';
  const found: string[] = [];
  await walk(base, found, { left: MAX_WALKED });
  const re = globToRegExp(absolutePattern.split(sep).join('/'));
  const matches = found.filter((f) => re.test(f.split(sep).join('/')));
  if (matches.length === 0) throw new ActionInputError(`no file matches ${JSON.stringify(pattern)}`);
  if (matches.length > MAX_LOGS) throw new ActionInputError(`${JSON.stringify(pattern)} matches ${matches.length} files; at most ${MAX_LOGS} logs are checked in one step (narrow the glob)`);
  for (const m of matches) await readableFile(m, m); // a glob can match a file we may not open
  return matches;
}

async function readableFile(path: string, asGiven: string): Promise<string> {
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => {
    throw new ActionInputError(`cannot read the log ${JSON.stringify(asGiven)}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  });
  if (!info.isFile()) throw new ActionInputError(`the log ${JSON.stringify(asGiven)} is not a file${info.isDirectory() ? ' but a directory (use a glob such as dir/**/*.jsonl)' : ''}`);
  await access(path, constants.R_OK).catch(() => {
    throw new ActionInputError(`cannot read the log ${JSON.stringify(asGiven)}: permission denied`);
  });
  return path;
}
