// `vouch hooks install codex --via notify`: Codex's `notify = [argv…]` in config.toml runs one
// program after every turn with a JSON argument, and needs no trust step. It holds ONE program,
// so an existing one is chained, not replaced: ours becomes
//   notify = ["vouch", "hooks", "run", "codex", "--then", "[\"their\",\"argv\"]"]
// and `hooks run codex` starts their program with the same JSON argument after queueing the
// session. Uninstall puts their argv back. Pure: text in, text out.
import type { Launch } from './agents.ts';
import { SettingsError } from './settings-merge.ts';
import { parseToml, removeTopLevelKey, setTopLevelKey, tomlStringArray } from './toml-edit.ts';

const WORDS = ['hooks', 'run', 'codex'];

export function isVouchNotify(argv: unknown): argv is string[] {
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return false;
  const i = argv.findIndex((_, k) => WORDS.every((w, j) => argv[k + j] === w));
  return i > 0 && argv.slice(0, i).some((a) => /vouch/.test(a));
}

/** The program our notify entry chains to, if any. */
export function chainedNotify(argv: string[]): string[] | null {
  const i = argv.indexOf('--then');
  if (i < 0) return null;
  try {
    const prev = JSON.parse(argv[i + 1] ?? '') as unknown;
    return Array.isArray(prev) && prev.every((a) => typeof a === 'string') ? prev : null;
  } catch {
    return null;
  }
}

function currentNotify(text: string | null, file: string): string[] | null {
  const value = parseToml(text, file).notify;
  if (value === undefined) return null;
  if (!Array.isArray(value) || !value.every((a) => typeof a === 'string')) throw new SettingsError(`${file}: "notify" must be a list of strings; nothing was changed.`);
  return value as string[];
}

export function notifyArgv(launch: Launch, chain: string[] | null): string[] {
  return [launch.program, ...launch.args, ...WORDS, ...(chain && chain.length > 0 ? ['--then', JSON.stringify(chain)] : [])];
}

export function withVouchNotify(text: string | null, launch: Launch, file: string): string {
  const current = currentNotify(text, file);
  const chain = current === null ? null : isVouchNotify(current) ? chainedNotify(current) : current;
  const next = notifyArgv(launch, chain);
  if (current && JSON.stringify(current) === JSON.stringify(next)) return text!;
  return setTopLevelKey(text, 'notify', tomlStringArray(next));
}

export function withoutVouchNotify(text: string | null, file: string): string | null {
  if (text === null) return null;
  const current = currentNotify(text, file);
  if (!current || !isVouchNotify(current)) return text;
  const chain = chainedNotify(current);
  return chain ? setTopLevelKey(text, 'notify', tomlStringArray(chain)) : removeTopLevelKey(text, 'notify');
}

export function hasVouchNotify(text: string | null, file: string): boolean {
  return isVouchNotify(currentNotify(text, file));
}
