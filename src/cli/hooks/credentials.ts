// Where the hook finds the server: VOUCH_API_URL / VOUCH_API_KEY in the agent's environment
// win; otherwise the copy `vouch hooks install` saved (mode 0600, beside the queue), because
// agents often start hooks with a trimmed environment. The key is never printed whole.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface HookCredentials {
  apiUrl: string;
  apiKey: string;
  source: 'environment' | 'file';
}

const FILE = 'credentials.json';

export async function loadCredentials(root: string, env: NodeJS.ProcessEnv = process.env): Promise<HookCredentials | null> {
  if (env.VOUCH_API_KEY) return { apiUrl: (env.VOUCH_API_URL ?? 'http://localhost:8080').replace(/\/+$/, ''), apiKey: env.VOUCH_API_KEY, source: 'environment' };
  try {
    const saved = JSON.parse(await readFile(join(root, FILE), 'utf8')) as { api_url?: unknown; api_key?: unknown };
    if (typeof saved.api_url === 'string' && typeof saved.api_key === 'string') return { apiUrl: saved.api_url, apiKey: saved.api_key, source: 'file' };
  } catch {
    // none saved
  }
  return null;
}

export async function saveCredentials(root: string, apiUrl: string, apiKey: string): Promise<string> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const file = join(root, FILE);
  await writeFile(`${file}.tmp`, JSON.stringify({ api_url: apiUrl.replace(/\/+$/, ''), api_key: apiKey }) + '\n', { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  return file;
}

/** `vk_AbCd…wxyz`: enough to tell keys apart, never enough to use one. */
export function describeKey(key: string): string {
  return key.length > 12 ? `${key.slice(0, 7)}…${key.slice(-4)}` : '(set)';
}
