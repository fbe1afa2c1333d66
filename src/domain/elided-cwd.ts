// Claude Code 2.x's terminal banner shortens a long working directory from the left
// ("/…/Documents/ws/physics-course"): the folder is known only by its tail. Read as a directory it
// would put every absolute path outside the project; until the log shows the whole path (a command
// or a file path that holds `/…/Documents/ws/physics-course` in full), the working directory is
// unknown, as in a capture without a banner. Pure: no I/O.

/** The tail of a working directory the banner shortened (`/…/a/b`, `…/a/b`, `/.../a/b`), or null when it is whole. */
export function elidedTail(cwd: string): string | null {
  const m = /^\/?(?:…|\.\.\.)\/(.+?)\/*$/.exec(cwd.trim());
  return m && m[1]!.includes('/') ? m[1]! : null;
}

/**
 * The whole working directory, from text that names a path ending in `tail` or passing through it
 * (`/Users/dan/Documents/ws/physics-course/docs/x.md`), or null. Only an absolute path counts, as a
 * word of its own (not a value after `:` in a PATH list, not inside a URL, no pattern in it), and the
 * tail must stand between slashes (or end the path). Of several, one under a home folder (`/Users/x`,
 * `/home/x`) is taken before a copy elsewhere (`/Volumes/Backup/…`).
 */
export function resolveElided(tail: string, text: string): string | null {
  if (!text.includes(`/${tail}`)) return null;
  const re = new RegExp(String.raw`(?:^|[\s'"=(])((?:/|[A-Za-z]:/)[^\s'":*?\\]*?/${escape(tail)})(?=[/\s'"):\\]|$)`, 'g');
  const found: string[] = [];
  for (const m of text.slice(0, 20_000).matchAll(re)) if (!m[1]!.includes('//')) found.push(m[1]!);
  return found.find((p) => /^(?:\/Users\/|\/home\/|[A-Za-z]:\/Users\/)/i.test(p)) ?? found[0] ?? null;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
