// Which files `vouch analyze DIR|FILE…` analyses. A file named on the command line is always
// taken, whatever its name; a directory is walked for agent logs: `.jsonl` (Claude Code, Codex),
// `.json` (Gemini CLI) and `.log`, skipping hidden directories, node_modules and symbolic links
// (a link loop must not hang the walk). Order is stable: arguments as given, files sorted within
// a directory.
import { opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export const LOG_EXTENSIONS = ['.jsonl', '.json', '.log'];

export interface Collected {
  files: string[];
  /** Arguments that could not be read, with the reason. */
  unreadable: { path: string; reason: string }[];
}

export async function collectLogs(paths: string[]): Promise<Collected> {
  const out: Collected = { files: [], unreadable: [] };
  const seen = new Set<string>();
  const add = (f: string) => {
    if (!seen.has(f)) {
      seen.add(f);
      out.files.push(f);
    }
  };
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      out.unreadable.push({ path, reason: code === 'ENOENT' ? 'no such file or directory' : `cannot read: ${code ?? String(e)}` });
      continue;
    }
    if (!info.isDirectory()) {
      add(path);
      continue;
    }
    try {
      for (const f of await walk(path)) add(f);
    } catch (e) {
      out.unreadable.push({ path, reason: `cannot read the directory: ${(e as NodeJS.ErrnoException).code ?? String(e)}` });
    }
  }
  return out;
}

async function walk(dir: string): Promise<string[]> {
  const files: string[] = [];
  const dirs: string[] = [];
  for await (const entry of await opendir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && entry.name !== 'node_modules') dirs.push(path);
    } else if (entry.isFile() && LOG_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) {
      files.push(path);
    }
  }
  files.sort();
  dirs.sort();
  for (const d of dirs) files.push(...(await walk(d)));
  return files;
}
