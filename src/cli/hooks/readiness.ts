// Whether an installed hook will actually run, per agent, from the agent's own settings: the
// truthful half of `vouch hooks status` (and of install's closing advice). Pure: the caller
// reads the files; each check returns null (nothing stops it) or the reason and what to do.
//   Claude Code  `disableAllHooks: true` in any settings file it reads turns every hook off.
//   Gemini CLI   runs no hook at all, user-level included, in a folder that is not trusted while
//                folder trust is on (the default): ~/.gemini/trustedFolders.json maps paths to
//                TRUST_FOLDER / TRUST_PARENT / DO_NOT_TRUST, the most specific rule wins.
//   Codex CLI    runs a hooks.json hook only when config.toml holds its trusted hash.
import { dirname, resolve, sep } from 'node:path';
import type { CodexTrust } from './codex-trust.ts';
import { CODEX_TRUST_HELP } from './codex-trust.ts';

export interface Blocker {
  why: string;
  todo: string;
}

/** Claude Code: the first settings file (in the order given) that disables all hooks. */
export function claudeHooksDisabled(files: Array<{ file: string; settings: Record<string, unknown> | null }>): Blocker | null {
  const hit = files.find((f) => f.settings?.disableAllHooks === true);
  return hit ? { why: `hooks are disabled: "disableAllHooks": true in ${hit.file}`, todo: `remove "disableAllHooks" from ${hit.file} (or set it to false)` } : null;
}

const within = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

/** Gemini CLI: whether `folder` is trusted by these rules; null when no rule covers it. */
export function geminiFolderTrusted(folder: string, rules: Record<string, unknown>): boolean | null {
  let best: { depth: number; trusted: boolean } | null = null;
  const target = resolve(folder);
  for (const [path, level] of Object.entries(rules)) {
    const root = level === 'TRUST_PARENT' ? dirname(resolve(path)) : resolve(path);
    if (!within(target, root) || (level !== 'TRUST_FOLDER' && level !== 'TRUST_PARENT' && level !== 'DO_NOT_TRUST')) continue;
    const depth = root.length;
    if (!best || depth > best.depth || (depth === best.depth && level === 'DO_NOT_TRUST')) best = { depth, trusted: level !== 'DO_NOT_TRUST' };
  }
  return best ? best.trusted : null;
}

export function geminiBlocker(folder: string, folderTrustOn: boolean, rules: Record<string, unknown> | null, rulesFile: string): Blocker | null {
  if (!folderTrustOn) return null;
  const trusted = geminiFolderTrusted(folder, rules ?? {});
  if (trusted === true) return null;
  return {
    why: trusted === false ? `${folder} is marked DO_NOT_TRUST in ${rulesFile}: Gemini CLI runs no hooks there` : `${folder} is not a trusted folder: Gemini CLI runs no hooks there (folder trust is on)`,
    todo: `start gemini in ${folder} and choose "Trust folder" (or /permissions); headless runs need --skip-trust or a trusted folder`,
  };
}

export function codexBlocker(trust: CodexTrust): Blocker | null {
  switch (trust) {
    case 'trusted':
      return null;
    case 'disabled':
      return { why: 'the hook is turned off in Codex (enabled = false in config.toml)', todo: 'turn it on again with /hooks in codex' };
    case 'modified':
      return { why: 'the hook is no longer trusted: it changed since you trusted it', todo: CODEX_TRUST_HELP };
    default:
      return { why: 'the hook is not trusted yet', todo: CODEX_TRUST_HELP };
  }
}
