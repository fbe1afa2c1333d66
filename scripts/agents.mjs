#!/usr/bin/env node
// The real agent CLIs for the `agents` test tier, installed from the npm registry at pinned
// versions into a cache OUTSIDE the repository (they are ~750 MB and no project dependency):
//   node scripts/agents.mjs install   install what is missing (prints each CLI's path)
//   node scripts/agents.mjs bump      pin the registry's latest versions (edits this file)
//   node scripts/agents.mjs path <agent>
// The cache is $VOUCH_AGENTS_CACHE, default ~/.cache/vouch-agents; one folder per
// package@version, so a bump installs beside the old one and a cold cache is one `npm install`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Pinned versions (scripts/agents.mjs bump rewrites these lines).
export const AGENTS = {
  'claude-code': { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'codex' },
  'gemini-cli': { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
};

export const cacheDir = () => process.env.VOUCH_AGENTS_CACHE ?? join(homedir(), '.cache', 'vouch-agents');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function agentDir(agent) {
  const a = AGENTS[agent];
  return join(cacheDir(), `${a.pkg.replace('/', '+')}@${a.version}`);
}

/** The CLI's executable in the cache, or null when not installed. */
export function agentBin(agent) {
  const bin = join(agentDir(agent), 'node_modules', '.bin', AGENTS[agent].bin);
  return existsSync(bin) ? bin : null;
}

/** Installs one CLI into its own folder (atomically: a half install never looks complete). */
export function installAgent(agent) {
  if (agentBin(agent)) return agentBin(agent);
  const a = AGENTS[agent];
  const dir = agentDir(agent);
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: 'vouch-agent-cache', private: true }) + '\n');
  const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', `${a.pkg}@${a.version}`], { cwd: tmp, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`npm install ${a.pkg}@${a.version} failed (exit ${r.status})`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return agentBin(agent);
}

function bump() {
  const file = fileURLToPath(import.meta.url);
  let text = readFileSync(file, 'utf8');
  for (const [agent, a] of Object.entries(AGENTS)) {
    const latest = execFileSync(npm, ['view', a.pkg, 'version'], { encoding: 'utf8' }).trim();
    if (latest === a.version) continue;
    text = text.replace(`pkg: '${a.pkg}', version: '${a.version}'`, `pkg: '${a.pkg}', version: '${latest}'`);
    console.log(`${agent}: ${a.version} -> ${latest}`);
  }
  writeFileSync(file, text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [cmd, arg] = process.argv.slice(2);
  if (cmd === 'install') {
    for (const agent of Object.keys(AGENTS)) {
      const started = Date.now();
      const bin = installAgent(agent);
      console.log(`${agent} ${AGENTS[agent].version}: ${bin} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  } else if (cmd === 'bump') bump();
  else if (cmd === 'path' && arg in AGENTS) console.log(agentBin(arg) ?? '(not installed)');
  else {
    console.error('usage: node scripts/agents.mjs install | bump | path <claude-code|codex|gemini-cli>');
    process.exit(2);
  }
}
