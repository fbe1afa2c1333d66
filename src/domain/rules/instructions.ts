// Instructions inside tool output: what a fetched page, file or README tells the agent to do —
// the URLs and hosts it names, the scripts it says to download, the commands it says to run —
// and whether a later action of the agent is positively that: the same URL, the same uncommon
// host, the named script, the named command. Mere co-occurrence (the agent uses GitHub after a
// page mentioned github.com) is not a link.
import type { SimpleCommand } from '../shell/types.ts';
import type { Effects } from './effects.ts';
import { hostOfUrl, isLocalHost } from './commands.ts';

export interface Named {
  urls: string[];
  /** Hosts named in the text (from URLs and bare domain names), minus ubiquitous platforms. */
  hosts: string[];
  /** Script file names the text links to (`install.sh` of `https://x.io/install.sh`). */
  scripts: string[];
  /** Commands from code spans, code blocks and `$ ` lines, one pipeline segment each. */
  commands: string[];
}

/** Hosts every session talks to for ordinary reasons: naming them links nothing. */
const COMMON_HOSTS = /(?:^|\.)(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|npmjs\.(?:com|org)|yarnpkg\.com|pypi\.org|pythonhosted\.org|crates\.io|rubygems\.org|golang\.org|go\.dev|google\.com|googleapis\.com|microsoft\.com|apple\.com|docker\.(?:com|io)|stackoverflow\.com|wikipedia\.org|mozilla\.org|python\.org|nodejs\.org|example\.(?:com|org|net)|anthropic\.com|openai\.com|w3\.org|schema\.org|json-schema\.org|shields\.io|jsdelivr\.net|unpkg\.com|cloudflare\.com)$/i;
const URL_RE = /\bhttps?:\/\/[^\s"'`<>()[\]{}|\\^]+/gi;
const BARE_HOST = /(?<![\w./@-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|io|dev|xyz|ru|cn|app|co|me|info|biz|top|site|online|cc|ly|gg|ai|tk|su|pw)(?![\w.-]*[\w-])/gi;
const SCRIPT = /\.(?:sh|bash|zsh|py|ps1|psm1|bat|cmd|js|mjs|cjs|rb|pl|exe|bin|msi|dmg|pkg|deb|rpm|appimage|jar)$/i;
const CODE_SPAN = /`([^`\n]{4,300})`/g;
const FENCE = /```[^\n]*\n([\s\S]{0,4000}?)```/g;
const PROMPT_LINE = /^[ \t]*\$[ \t]+(.{4,300})$/gm;
/** Commands a page names that any session runs anyway: following them shows nothing. */
const ROUTINE = /^(?:cd|ls|pwd|cat|echo|git\s+(?:status|diff|log|add|commit|pull|checkout|switch|branch)|npm\s+(?:i|install|ci|test|run|start)|pnpm\s+(?:i|install|test|run|dev|build)|yarn(?:\s+(?:install|test|build|dev|start))?|pip3?\s+install\s+-r|pip3?\s+install\s+-e|python3?\s+-m\s+(?:pytest|venv)|pytest|cargo\s+(?:build|test|run|check)|go\s+(?:build|test|run|mod)|make(?:\s+\w+)?|docker\s+compose\s+(?:up|down|build)|bundle\s+(?:install|exec)|mvn|gradle|\.\/gradlew)\b/;

const MAX_EACH = 20;

function trimUrl(u: string): string {
  return u.replace(/[.,;:!?'")\]]+$/, '');
}

/** Kept values are flat copies: a regex match is a view that would pin the whole output in memory. */
function push(list: string[], value: string): void {
  if (list.length < MAX_EACH && !list.includes(value)) list.push((' ' + value).slice(1));
}

/** The URLs, hosts, scripts and commands a passage of text names. */
export function namedIn(text: string): Named {
  const named: Named = { urls: [], hosts: [], scripts: [], commands: [] };
  const addHost = (h: string) => {
    const host = h.toLowerCase();
    if (!isLocalHost(host) && !COMMON_HOSTS.test(host)) push(named.hosts, host);
  };
  for (const m of text.matchAll(URL_RE)) {
    const url = trimUrl(m[0]);
    const host = hostOfUrl(url);
    if (!host || isLocalHost(host)) continue;
    push(named.urls, url);
    addHost(host);
    const file = url.split(/[?#]/)[0].split('/').pop() ?? '';
    if (SCRIPT.test(file)) push(named.scripts, file);
  }
  for (const m of text.replace(URL_RE, ' ').matchAll(BARE_HOST)) addHost(m[0]);
  const snippets = [
    ...[...text.matchAll(FENCE)].flatMap((m) => m[1].split('\n')),
    ...[...text.matchAll(CODE_SPAN)].map((m) => m[1]),
    ...[...text.matchAll(PROMPT_LINE)].map((m) => m[1]),
  ];
  for (const s of snippets) {
    for (const seg of s.replace(/^\s*\$\s+/, '').split(/\s*(?:\|\|?|&&|;)\s*/)) {
      const c = norm(seg);
      if (c.split(' ').length >= 2 && c.length >= 6 && !ROUTINE.test(c) && /[/.:@=]|\S{12,}/.test(c)) push(named.commands, c);
    }
  }
  return named;
}

/** The action's URL is the named one, or a path under it (a trailing slash or punctuation aside). */
function sameOrUnder(url: string, named: string): boolean {
  const a = url.replace(/\/+$/, '');
  const b = named.replace(/\/+$/, '');
  return a === b || a.startsWith(`${b}/`) || a.startsWith(`${b}?`);
}

/** Text that speaks to AI agents directly ("Note to AI assistants:", "If you are an LLM, …"). */
const ADDRESSED = /\bif\s+you\s+are\s+an?\s+(?:ai|llm|large\s+language\s+model|language\s+model|(?:ai\s+)?(?:coding\s+)?(?:agent|assistant))\b|\b(?:note|message|instructions?|attention|important|notice)\s+(?:to|for)\s+(?:any\s+|all\s+)?(?:ai|llms?|language\s+models?|(?:ai\s+|coding\s+)?(?:agents?|assistants?))\b|\b(?:ai|llm)\s+(?:agents?|assistants?)(?:\s+reading\s+this)?\s*(?:must|should|:)/i;

const ADDRESSEE_WORDS = ['AI', 'LLM', 'agent', 'Agent', 'AGENT', 'assistant', 'Assistant', 'ASSISTANT', 'language model', 'Language Model'];

/** Where text addresses AI agents, or -1. */
export function addressedToAgents(text: string): number {
  // Literal searches first: most outputs (source files, logs) name no agent at all.
  if (!ADDRESSEE_WORDS.some((w) => text.includes(w))) return -1;
  const m = ADDRESSED.exec(text);
  return m ? m.index : -1;
}

export function norm(cmd: string): string {
  return cmd.trim().replace(/\s+/g, ' ').replace(/^sudo /, '');
}

export function isEmpty(n: Named): boolean {
  return n.urls.length + n.hosts.length + n.scripts.length + n.commands.length === 0;
}

/**
 * How the action is linked to what the text named, or null: the same URL (or a URL under it),
 * a named uncommon host, a named script file among its arguments, a named command in its text.
 * `strict` (text that merely addresses agents, no injection): only named scripts, and named
 * commands that dial out, count — a README's "agents: read https://docs…" is ordinary guidance.
 */
export function followedLink(named: Named, fx: Effects, raw: string, strict = false): string | null {
  for (const n of fx.net) {
    if (n.local) continue;
    const url = n.url ? trimUrl(n.url) : null;
    const u = url ? named.urls.find((x) => sameOrUnder(url, x)) : undefined;
    if (u && SCRIPT.test(u.split(/[?#]/)[0])) return `downloaded the named script ${u}`;
    if (strict) continue;
    if (u) return `contacted the named URL ${u}`;
    if (named.hosts.includes(n.host)) return `contacted the named host ${n.host}`;
  }
  if (named.commands.length > 0 && (!strict || fx.net.some((n) => !n.local))) {
    const text = norm(raw.length > 20_000 ? raw.slice(0, 20_000) : raw);
    for (const c of named.commands) if (text.includes(c)) return `ran the named command \`${c}\``;
  }
  for (const { cmd } of fx.commands) {
    const script = scriptRun(cmd, named.scripts);
    if (script) return `ran the named script ${script}`;
  }
  return null;
}

/** Programs that run the script file given as their first operand. */
const SCRIPT_RUNNERS = /^(?:bash|sh|zsh|dash|ksh|fish|source|\.|python[\d.]*|node|deno|bun|ruby|perl|php|pwsh|powershell)$/;

/**
 * The named script this command runs: as the program itself (`./install.sh`), or as what a shell or
 * an interpreter is given to run (`bash install.sh`, `source setup.sh`). A command that only names
 * the file — stages, reads, copies or makes it executable (`git add install.sh`) — runs nothing.
 */
function scriptRun(cmd: SimpleCommand, scripts: readonly string[]): string | null {
  const base = (a: string) => a.split('/').pop() ?? a;
  if (scripts.includes(base(cmd.name))) return base(cmd.name);
  if (!SCRIPT_RUNNERS.test(cmd.name)) return null;
  const operand = cmd.args.find((a) => !a.startsWith('-'));
  return operand !== undefined && scripts.includes(base(operand)) ? base(operand) : null;
}
