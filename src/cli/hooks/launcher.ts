// How an agent's hook starts Vouch. Never an absolute node or checkout path in a file a team
// commits: `--project` files say `npx --no-install vouch` (the repository's own install, no
// download at hook time); user files say `vouch` when a global install puts it on PATH. Only
// when neither exists (running from a checkout) does a user file get this machine's node and
// bin paths, and install says so, because upgrading Node or moving the checkout breaks them.
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { HookScope, Launch } from './agents.ts';

export interface LaunchChoice {
  launch: Launch;
  /** Why the hook names absolute paths, when it does. */
  warning: string | null;
}

/** Whether `name` is an executable on PATH (Windows: with one of PATHEXT's suffixes). */
export async function onPath(name: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  const dirs = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : delimiter).filter(Boolean);
  const suffixes = platform === 'win32' ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').map((s) => s.toLowerCase()) : [''];
  for (const dir of dirs) {
    for (const suffix of suffixes) {
      const file = join(dir, name + suffix);
      try {
        await access(file, platform === 'win32' ? constants.F_OK : constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return null;
}

export async function chooseLaunch(scope: HookScope, self: { node: string; bin: string }, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<LaunchChoice> {
  if (scope === 'project') return { launch: { program: 'npx', args: ['--no-install', 'vouch'] }, warning: null };
  if (await onPath('vouch', env, platform)) return { launch: { program: 'vouch', args: [] }, warning: null };
  return {
    launch: { program: self.node, args: [self.bin] },
    warning: `vouch is not on PATH, so the hook names ${self.node} and ${self.bin}: it breaks if either moves. Install Vouch globally (npm install --global vouch) and run install again.`,
  };
}
