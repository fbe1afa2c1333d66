// Installs, removes and inspects Vouch's hook in an agent's configuration file, editing its text
// (settings-merge.ts) so the rest of the file stays byte for byte. Uninstall gives back the very
// bytes the file had before our first install when nobody touched it since (a record of them is
// kept in Vouch's own directory, ~/.vouch/hooks/installs/); after later edits by the user it
// removes only our entry, in place. A file Vouch created is deleted again, with the folders it
// created. A user-level file also keeps `<file>.vouch-backup`, written once, never overwritten;
// project files get none (nothing machine-specific lands in a repository). Writes are atomic; a
// file we cannot read faithfully (not UTF-8, not JSON) is refused before anything is written.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HookAgentId } from '../../domain/agents.ts';
import { HOOK_AGENTS, isVouchHandler, type HookEnv, type HookKind, type HookScope, type Launch } from './agents.ts';
import { parseSettings, SettingsError, vouchHandlerPositions, withoutVouchHook, withVouchHook } from './settings-merge.ts';

export interface HookChange {
  agent: HookAgentId;
  scope: HookScope;
  file: string;
  event: string | null;
  changed: boolean;
  /** Uninstall only: whether the file is back to its exact bytes from before the install. */
  restored?: boolean;
  /** Uninstall only: the file was Vouch's own creation and is deleted again. */
  deleted?: boolean;
}

/** What we know about a file we changed: enough to give its bytes back. */
interface InstallRecord {
  file: string;
  /** The file's bytes before our first install (base64); null when Vouch created it. */
  before: string | null;
  /** sha256 of the bytes we last wrote: uninstall restores `before` only if the file still has them. */
  after_sha256: string;
  /** Folders Vouch created for the file, deepest first: removed again if empty. */
  created_dirs: string[];
  kinds: HookKind[];
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const recordPath = (root: string, file: string) => join(root, 'installs', `${sha256(file).slice(0, 32)}.json`);

export async function readBytes(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** The file as text, refused if it is not UTF-8 (editing it as text would change bytes we never meant to). */
export function asText(bytes: Buffer | null, file: string): string | null {
  if (bytes === null) return null;
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) throw new SettingsError(`${file} is not UTF-8 text; add the hook by hand. Nothing was changed.`);
  return text;
}

async function loadRecord(root: string, file: string): Promise<InstallRecord | null> {
  try {
    const r = JSON.parse(await readFile(recordPath(root, file), 'utf8')) as InstallRecord;
    return r.file === file ? r : null;
  } catch {
    return null;
  }
}

async function saveRecord(root: string, r: InstallRecord): Promise<void> {
  const path = recordPath(root, r.file);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(`${path}.tmp`, JSON.stringify(r) + '\n', { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

const dropRecord = (root: string, file: string) => rm(recordPath(root, file), { force: true });

/** Folders `mkdir -p` would create for `dir`, deepest first. */
async function missingDirs(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (await stat(d).then(() => true, () => false)) return out;
    out.push(d);
    if (dirname(d) === d) return out;
  }
}

async function writeAtomically(file: string, bytes: Buffer | string, mode: number): Promise<void> {
  const tmp = `${file}.vouch-tmp-${process.pid}`;
  await writeFile(tmp, bytes, { mode });
  await rename(tmp, file);
}

export interface FileEdit {
  /** The new text for the file's current text (null: absent). Same text: nothing to do. */
  edit(text: string | null): string | null;
}

/**
 * Applies an install edit to a file: the first backup and the record of the original bytes are
 * written before the file changes; later installs keep both.
 */
export async function applyInstall(root: string, file: string, scope: HookScope, kind: HookKind, e: FileEdit): Promise<boolean> {
  const bytes = await readBytes(file);
  const text = asText(bytes, file);
  const next = e.edit(text);
  if (next === text || next === null) return false;
  let record = await loadRecord(root, file);
  if (record && (bytes === null || sha256(bytes) !== record.after_sha256) && !(bytes === null && record.before === null)) {
    // Changed since our last write (by the user, or an uninstall by hand): that is the new original.
    record = null;
  }
  const created = bytes === null ? await missingDirs(dirname(file)) : [];
  if (!record) record = { file, before: bytes === null ? null : bytes.toString('base64'), after_sha256: '', created_dirs: created, kinds: [] };
  record.after_sha256 = sha256(next);
  if (!record.kinds.includes(kind)) record.kinds.push(kind);
  await saveRecord(root, record);
  await mkdir(dirname(file), { recursive: true });
  if (bytes !== null && scope === 'user') {
    const backup = `${file}.vouch-backup`;
    if (!(await stat(backup).then(() => true, () => false))) await copyFile(file, backup);
  }
  const mode = bytes === null ? 0o600 : (await stat(file)).mode & 0o777;
  await writeAtomically(file, next, mode);
  return true;
}

/**
 * Applies an uninstall: the original bytes when the file is exactly as we left it and no other
 * kind of ours is in it; otherwise the in-place removal `e.edit` computes (deleting the file
 * only if Vouch created it and nothing but an empty object is left).
 */
export async function applyUninstall(root: string, file: string, kind: HookKind, e: FileEdit): Promise<{ changed: boolean; restored: boolean; deleted: boolean }> {
  const bytes = await readBytes(file);
  const record = await loadRecord(root, file);
  if (bytes === null) {
    if (record) await dropRecord(root, file);
    return { changed: false, restored: false, deleted: false };
  }
  const text = asText(bytes, file);
  const untouched = record !== null && sha256(bytes) === record.after_sha256 && record.kinds.length === 1 && record.kinds[0] === kind;
  if (untouched) {
    if (record.before === null) {
      await rm(file, { force: true });
      for (const dir of record.created_dirs) await rmdir(dir).catch(() => {});
    } else {
      const mode = (await stat(file)).mode & 0o777;
      await writeAtomically(file, Buffer.from(record.before, 'base64'), mode);
    }
    await dropRecord(root, file);
    return record.before === null ? { changed: true, restored: false, deleted: true } : { changed: true, restored: true, deleted: false };
  }
  const next = e.edit(text);
  if (next === text || next === null) return { changed: false, restored: false, deleted: false };
  const emptied = record?.before === null && isEmptyObject(next);
  if (emptied) {
    await rm(file, { force: true });
    for (const dir of record.created_dirs) await rmdir(dir).catch(() => {});
  } else {
    await writeAtomically(file, next, (await stat(file)).mode & 0o777);
  }
  if (record) {
    record.kinds = record.kinds.filter((k) => k !== kind);
    if (record.kinds.length === 0 || emptied) await dropRecord(root, file);
    else {
      record.after_sha256 = sha256(next);
      await saveRecord(root, record);
    }
  }
  return { changed: true, restored: false, deleted: emptied };
}

function isEmptyObject(text: string): boolean {
  try {
    return Object.keys(parseSettings(text, 'f')).length === 0 && text.replace(/^\uFEFF/, '').replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').replace(/\s/g, '') === '{}';
  } catch {
    return false;
  }
}

// ---- hooks.json / settings.json ------------------------------------------------------------------

export async function installHook(root: string, agent: HookAgentId, kind: HookKind, scope: HookScope, env: HookEnv, launch: Launch): Promise<HookChange> {
  const spec = HOOK_AGENTS[agent];
  const k = spec.kinds[kind];
  const file = spec.settingsFile(scope, env);
  const event = k.event(env);
  const handler = k.handler(launch, agent, event, env);
  const isOurs = (h: Record<string, unknown>) => isVouchHandler(h, agent, kind);
  const changed = await applyInstall(root, file, scope, kind, {
    edit: (text) => {
      // An install for another event (Codex: Stop before SessionEnd existed) moves to this one.
      let next = text;
      for (const other of k.events) if (other !== event) next = withoutVouchHook(next, other, isOurs, file);
      return withVouchHook(next, event, handler, isOurs, file);
    },
  });
  return { agent, scope, file, event, changed };
}

export async function uninstallHook(root: string, agent: HookAgentId, kind: HookKind, scope: HookScope, env: HookEnv): Promise<HookChange> {
  const spec = HOOK_AGENTS[agent];
  const k = spec.kinds[kind];
  const file = spec.settingsFile(scope, env);
  const isOurs = (h: Record<string, unknown>) => isVouchHandler(h, agent, kind);
  const record = await loadRecord(root, file);
  const before = record ? (record.before === null ? null : Buffer.from(record.before, 'base64').toString('utf8')) : undefined;
  const result = await applyUninstall(root, file, kind, {
    edit: (text) => k.events.reduce<string | null>((t, ev) => withoutVouchHook(t, ev, isOurs, file, before === null ? '{}' : before), text),
  });
  return { agent, scope, file, event: null, ...result };
}

export interface InstallState {
  agent: HookAgentId;
  scope: HookScope;
  file: string;
  installed: boolean;
  /** The events our handler is on, with its position (Codex keys trust by position). */
  entries: Array<{ event: string; group: number; handler: number; value: Record<string, unknown> }>;
  /** Why the file could not be read, if it could not. */
  problem: string | null;
}

export async function hookState(agent: HookAgentId, kind: HookKind, scope: HookScope, env: HookEnv): Promise<InstallState> {
  const spec = HOOK_AGENTS[agent];
  const file = spec.settingsFile(scope, env);
  const isOurs = (h: Record<string, unknown>) => isVouchHandler(h, agent, kind);
  try {
    const text = asText(await readBytes(file), file);
    const entries = spec.kinds[kind].events.flatMap((event) => vouchHandlerPositions(text, event, isOurs, file).map((p) => ({ event, ...p, value: p.value })));
    return { agent, scope, file, installed: entries.length > 0, entries, problem: null };
  } catch (e) {
    return { agent, scope, file, installed: false, entries: [], problem: e instanceof Error ? e.message : String(e) };
  }
}
