// Benchmark inputs generated at run time from the corpus (nothing big is committed): the corpus
// files of one agent repeated until the size is reached, each repetition varied (see
// `repetition`), with a variation of its own per run. Shared by `npm run bench` and `npm run bench:api`.
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

export const CORPUS = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
export const OUT = join(tmpdir(), 'vouch-bench');
export const MB = 1024 * 1024;

/**
 * One copy of the corpus per repetition, varied so that no repetition repeats the previous one:
 * - ids rewritten so that each copy reads as a distinct session (the parsers deduplicate records
 *   they have already seen: a plain repetition would measure the dedupe path, not the analysis).
 *   UUIDs get the repetition in their last group; tool-use / message / call / request ids a suffix;
 * - every shell command given a trailing ` # r<k>` comment (same meaning, different text), so the
 *   shell-parse and path caches see new commands on every copy, as a long real log would. That
 *   includes `bash -lc` argv arrays and the JSON-in-a-string arguments of Codex's function calls.
 */
const UUID = /\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)[0-9a-f]{4}([0-9a-f]{8})\b/gi;
const PREFIXED_ID = /\b((?:toolu|srvtoolu|msg|call|req|fc|rs|resp)_[A-Za-z0-9]{6,})/g;
const SHELL_KEYS = new Set(['command', 'cmd']);
const SHELLS = new Set(['bash', 'sh', 'zsh', '/bin/bash', '/bin/sh', '/bin/zsh', '/usr/bin/bash']);

function repetition(text: string, rep: number, run: number): string {
  const hex = ((run + rep) % 0x10000).toString(16).padStart(4, '0');
  const tag = `r${rep}x${run.toString(36)}`;
  const lines = text.split('\n').map((line) => varyCommands(line, ` # ${tag}`));
  return lines.join('\n').replace(UUID, `$1${hex}$2`).replace(PREFIXED_ID, `$1${tag}`);
}

/** This run's variation: every run generates its inputs afresh, with ids and commands of its own. */
export const RUN = Math.floor(Math.random() * 0xffff);

/** The line with every shell command in it suffixed by `tag`; lines without one unchanged. */
function varyCommands(line: string, tag: string): string {
  if (!line.includes('"command') && !line.includes('"cmd') && !line.includes('\\"command') && !line.includes('\\"cmd')) return line;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return line;
  }
  return vary(value, tag) ? JSON.stringify(value) : line;
}

/** Rewrites commands in place; true when something changed. */
function vary(node: unknown, tag: string): boolean {
  if (Array.isArray(node)) return node.reduce<boolean>((changed, item) => vary(item, tag) || changed, false);
  if (node === null || typeof node !== 'object') return false;
  const obj = node as Record<string, unknown>;
  let changed = false;
  for (const [key, v] of Object.entries(obj)) {
    if (SHELL_KEYS.has(key) && typeof v === 'string' && v.length > 0) {
      obj[key] = v + tag;
      changed = true;
    } else if (SHELL_KEYS.has(key) && isShellArgv(v)) {
      v[v.length - 1] += tag;
      changed = true;
    } else if (typeof v === 'string' && (v.startsWith('{"') || v.startsWith('{ "'))) {
      // Codex's function-call `arguments` (and the like): JSON inside a string.
      const inner = tryParse(v);
      if (inner !== undefined && vary(inner, tag)) {
        obj[key] = JSON.stringify(inner);
        changed = true;
      }
    } else if (typeof v === 'object' && vary(v, tag)) {
      changed = true;
    }
  }
  return changed;
}

/** `["bash", "-lc", "script"]`: the script is the last element. Plain argv arrays are left alone. */
function isShellArgv(v: unknown): v is string[] {
  return Array.isArray(v) && v.length >= 3 && SHELLS.has(String(v[0])) && /^-l?c$/.test(String(v[v.length - 2])) && typeof v[v.length - 1] === 'string';
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Generated inputs, deleted when the run ends (`--prepare` keeps them). */
export const generated: string[] = [];

export async function generate(name: string, dir: string, bytes: number): Promise<string> {
  const file = join(OUT, `${process.pid}-${name}`);
  mkdirSync(OUT, { recursive: true });
  generated.push(file);
  const parts = readdirSync(join(CORPUS, dir)).filter((f) => f.endsWith('.jsonl')).sort().map((f) => readFileSync(join(CORPUS, dir, f), 'utf8'));
  const out = createWriteStream(file);
  let written = 0;
  for (let rep = 0; written < bytes; rep++) {
    for (const p of parts) {
      const text = repetition(p, rep, RUN);
      const data = text.endsWith('\n') ? text : text + '\n';
      if (!out.write(data)) await new Promise<void>((r) => out.once('drain', () => r()));
      written += Buffer.byteLength(data);
      if (written >= bytes) break;
    }
  }
  await new Promise<void>((r) => out.end(() => r()));
  return file;
}

