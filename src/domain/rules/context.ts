// context: a handful of info findings that let a reader place the session — models, tokens and an
// estimated cost, files changed, commands run, hosts contacted. They never lower the score.
import type { NormEvent, ToolResultEvent } from '../model/events.ts';
import type { ParsedShell } from '../shell/types.ts';
import type { Rule, RuleContext } from './types.ts';
import { effectsOf } from './effects.ts';
import { memoized } from '../bounded.ts';
import { answerExit } from './exit-status.ts';
import { refusal } from './outcome.ts';
import { describeCall, evidence, meta, plural, pushCapped, setCapped, type EvidenceItem } from './util.ts';

export const models = meta({
  id: 'context/models',
  severity: 'info',
  title: 'Models used',
  description: 'The models that answered in this session, as the log records them.',
  remediation: 'None needed; context for the reader.',
});
export const usageCost = meta({
  id: 'context/usage-cost',
  severity: 'info',
  title: 'Tokens and estimated cost',
  description: 'Token counts summed from the log, and a cost ESTIMATE from public list prices per model family (USD per million tokens, as of 2025; no discounts, batch or regional pricing). Models not in the table are counted but not priced.',
  remediation: 'None needed; check the provider\'s billing for real costs.',
});
export const filesChanged = meta({
  id: 'context/files-changed',
  severity: 'info',
  title: 'Files changed',
  description: 'How many files the agent created, edited or deleted, and the most-changed ones.',
  remediation: 'None needed; review the diff of these files.',
});
export const commandsRun = meta({
  id: 'context/commands',
  severity: 'info',
  title: 'Commands run',
  description: 'How many shell commands the agent ran and how many failed.',
  remediation: 'None needed; the timeline lists every command with its exit code.',
});
export const networkHosts = meta({
  id: 'context/network-hosts',
  severity: 'info',
  title: 'Network hosts contacted',
  description: 'Remote hosts named by curl/wget/ssh/scp/nc commands, git remote URLs and web fetches (package registries contacted implicitly by installs are not listed).',
  remediation: 'Check that every host is expected.',
});

export const mcpToolsCalled = meta({
  id: 'context/mcp-tools',
  severity: 'info',
  title: 'MCP tools called',
  description: 'The MCP servers whose tools the agent called and how often each tool was called: what the session did through services (a cloud project created, a function deployed, a database queried) that no shell command shows.',
  remediation: 'None needed; check that each server and tool is expected. What a tool did is judged by the rules that read it (destructive SQL, pushes, pull requests).',
});

// ---- prices -----------------------------------------------------------------------------------

/** USD per million tokens: input, output, cache read, cache write. Most specific pattern first. */
const PRICES: [RegExp, number, number, number, number][] = [
  [/opus-4[-.]?[5-9]/, 5, 25, 0.5, 6.25],
  [/opus/, 15, 75, 1.5, 18.75],
  [/haiku-4|haiku-[5-9]/, 1, 5, 0.1, 1.25],
  [/haiku/, 0.8, 4, 0.08, 1],
  [/sonnet|claude/, 3, 15, 0.3, 3.75],
  [/gpt-5[\w.-]*nano/, 0.05, 0.4, 0.005, 0],
  [/gpt-5[\w.-]*mini|codex-mini/, 0.25, 2, 0.025, 0],
  [/gpt-5|codex/, 1.25, 10, 0.125, 0],
  [/gpt-4\.1[\w.-]*nano/, 0.1, 0.4, 0.025, 0],
  [/gpt-4\.1[\w.-]*mini/, 0.4, 1.6, 0.1, 0],
  [/gpt-4\.1/, 2, 8, 0.5, 0],
  [/gpt-4o[\w.-]*mini/, 0.15, 0.6, 0.075, 0],
  [/gpt-4o/, 2.5, 10, 1.25, 0],
  [/o[34]-mini/, 1.1, 4.4, 0.275, 0],
  [/\bo3\b/, 2, 8, 0.5, 0],
  [/gemini[\w.-]*flash-lite/, 0.1, 0.4, 0.025, 0],
  [/gemini[\w.-]*flash/, 0.3, 2.5, 0.075, 0],
  [/gemini-3[\w.-]*pro/, 2, 12, 0.2, 0],
  [/gemini[\w.-]*pro/, 1.25, 10, 0.31, 0],
];

export function priceOf(model: string): [number, number, number, number] | null {
  // Asked for every usage record, of a handful of model names: a bounded memo (callers only read the prices).
  return memoized(prices, model, priceOfUncached, PRICED_MODELS_MAX);
}
const PRICED_MODELS_MAX = 64;
const prices = new Map<string, [number, number, number, number] | null>();

function priceOfUncached(model: string): [number, number, number, number] | null {
  const m = model.toLowerCase();
  for (const [re, ...p] of PRICES) if (re.test(m)) return p as [number, number, number, number];
  return null;
}

// ---- the rule ---------------------------------------------------------------------------------

const MODELS_MAX = 20;
const FILES_MAX = 5_000;
const HOSTS_MAX = 50;
const clipName = (name: string) => (name.length > 60 ? `${name.slice(0, 59)}…` : name);
/** Bounds of the MCP tally: servers, and tools per server. */
const MCP_SERVERS_MAX = 50;
const MCP_TOOLS_MAX = 100;
const OPEN_MAX = 2_000;

class Context {
  readonly models = new Map<string, number>();
  lastModel: string | null = null;
  tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  cost = 0;
  unpriced = 0;
  readonly files = new Map<string, number>();
  filesOmitted = 0;
  commands = 0;
  commandFailures = 0;
  /** Commands waiting for their result: the command and its parse, to judge its exit status. */
  readonly openCommands = new Map<string, { command: string; shell: ParsedShell | undefined }>();
  readonly hosts = new Map<string, EvidenceItem>();
  /** MCP calls by server, then by tool, with the first call's evidence. */
  readonly mcp = new Map<string, { tools: Map<string, number>; first: EvidenceItem }>();
  modelEvidence: EvidenceItem | null = null;

  /** Paths a call writes or deletes, until its result says whether it ran. */
  readonly pendingFiles = new Map<string, string[]>();

  /** `first`: the call's evidence, made only for a server's first call (the one the finding quotes). */
  mcpCall(serverName: string, toolName: string, first: () => EvidenceItem): void {
    // names as a log writes them, clipped: a hostile log's 100 KB name stays a name
    const server = clipName(serverName);
    const tool = clipName(toolName);
    let calls = this.mcp.get(server);
    if (!calls) {
      if (this.mcp.size >= MCP_SERVERS_MAX) return;
      this.mcp.set(server, (calls = { tools: new Map(), first: first() }));
    }
    if (calls.tools.has(tool) || calls.tools.size < MCP_TOOLS_MAX) calls.tools.set(tool, (calls.tools.get(tool) ?? 0) + 1);
  }

  pending(callId: string, paths: string[]): void {
    if (paths.length === 0) return;
    this.pendingFiles.set(callId, paths);
    if (this.pendingFiles.size <= OPEN_MAX) return;
    // bounded: the oldest call still waiting counts as having run
    const [oldest, first] = this.pendingFiles.entries().next().value as [string, string[]];
    this.pendingFiles.delete(oldest);
    for (const p of first) this.file(p);
  }

  /** Calls whose result never came: what they would change counts (the log does not say otherwise). */
  flushPending(): void {
    for (const paths of this.pendingFiles.values()) for (const p of paths) this.file(p);
    this.pendingFiles.clear();
  }

  /** A command's result: failed unless its exit status 1 is an answer (grep with no match, …). */
  onResult(result: ToolResultEvent): void {
    const paths = this.pendingFiles.get(result.callId);
    if (paths) {
      this.pendingFiles.delete(result.callId);
      // a file tool that returned an error (text not found, a hook's block) wrote nothing; a
      // command that failed may have written before it failed
      const command = this.openCommands.get(result.callId)?.command;
      const fileToolFailed = result.isError && command === undefined;
      // a command whose result says its write was refused (a read-only sandbox's "operation not
      // permitted: artifacts/report.json", sudo that wanted a password) changed nothing there
      if (!result.denied && !fileToolFailed) for (const p of paths) if (command === undefined || !writeRefused(result, p, command)) this.file(p);
    }
    const open = this.openCommands.get(result.callId);
    if (!open) return;
    this.openCommands.delete(result.callId);
    if (result.denied || !(result.isError || (result.exitCode ?? 0) !== 0)) return;
    if (!answerExit(open.command, open.shell, result)) this.commandFailures++;
  }

  model(name: string | undefined, event: NormEvent): void {
    if (!name || name === '<synthetic>') return;
    this.lastModel = name;
    if (!this.models.has(name) && this.models.size >= MODELS_MAX) return;
    this.models.set(name, (this.models.get(name) ?? 0) + 1);
    this.modelEvidence ??= { index: event.index, excerpt: name };
  }

  usage(e: NormEvent & { kind: 'usage' }): void {
    this.model(e.model, e);
    const t = { input: n(e.input), output: n(e.output), cacheRead: n(e.cacheRead), cacheWrite: n(e.cacheWrite) };
    this.tokens.input += t.input;
    this.tokens.output += t.output;
    this.tokens.cacheRead += t.cacheRead;
    this.tokens.cacheWrite += t.cacheWrite;
    const price = priceOf(e.model ?? this.lastModel ?? '');
    const total = t.input + t.output + t.cacheRead + t.cacheWrite;
    if (!price) this.unpriced += total;
    else this.cost += (t.input * price[0] + t.output * price[1] + t.cacheRead * price[2] + t.cacheWrite * price[3]) / 1e6;
  }

  file(abs: string): void {
    if (!this.files.has(abs) && this.files.size >= FILES_MAX) {
      this.filesOmitted++;
      return;
    }
    this.files.set(abs, (this.files.get(abs) ?? 0) + 1);
  }
}

function n(v: number): number {
  return Number.isFinite(v) && v > 0 ? v : 0;
}

export const CONTEXT_RULES: Rule[] = [
  {
    metas: [models, usageCost, filesChanged, commandsRun, networkHosts, mcpToolsCalled],
    create(ctx) {
      const c = new Context();
      return {
        onEvent(event, facts) {
          if (event.kind === 'session_meta' || event.kind === 'message') c.model(event.model, event);
          else if (event.kind === 'usage') c.usage(event);
          else if (event.kind === 'tool_result') c.onResult(event);
          if (event.kind !== 'tool_call') return;
          const fx = effectsOf(event, facts, ctx.session);
          if (event.input.type === 'mcp') c.mcpCall(event.input.server, event.input.tool, () => evidence(event, describeCall(event), facts));
          if (event.input.type === 'command') {
            c.commands++;
            setCapped(c.openCommands, event.callId, { command: event.input.command, shell: facts.shell }, OPEN_MAX);
          }
          // counted once the result shows the call ran: a refused call (the guard's denial) changed nothing
          c.pending(event.callId, [...fx.writes, ...fx.deletes].filter((f) => f.zone !== 'device').map((f) => f.abs));
          for (const h of fx.net) {
            if (h.local || c.hosts.has(h.host)) continue;
            if (c.hosts.size < HOSTS_MAX) setCapped(c.hosts, h.host, evidence(event, h.cmd?.text ?? describeCall(event), facts), HOSTS_MAX);
          }
        },
        finish() {
          c.flushPending();
          report(ctx, c);
        },
      };
    },
  },
];

/**
 * The command's result says this path's write did not happen: a refusal that stopped the whole
 * call (sudo without a password, the harness), or a permission refusal that names this file — a
 * "Permission denied" about another file of the same chain leaves this one written.
 */
function writeRefused(result: ToolResultEvent, path: string, command: string): boolean {
  const r = refusal(result, 'write', path, command);
  if (!r) return false;
  const aboutPath = r.line !== null && /denied|not permitted|read-only|EACCES|EPERM|EROFS/i.test(r.line);
  // a refusal of the whole call: the harness's or a person's, or a stop in a chain of `&&` steps
  if (!aboutPath) return r.refused === true || !/;|\|\||\n|(?<![|&])[|&](?![|&])/.test(command);
  // the refusal names this file: a path in its line that this path ends with (not /etc/x for ./x)
  const base = path.replace(/^.*[\\/]/, '');
  return (r.line!.match(/[^\s:'"`]+/g) ?? []).some((token) => token.endsWith(base) && path.replace(/\\/g, '/').endsWith(token.replace(/^\.\//, '').replace(/\\/g, '/')));
}

function report(ctx: RuleContext, c: Context): void {
  if (c.models.size > 0) {
    const list = [...c.models.keys()].join(', ');
    ctx.report({ rule: models.id, detail: `${c.models.size === 1 ? 'Model' : 'Models'}: ${list}.`, evidence: c.modelEvidence ? [c.modelEvidence] : [] });
  }
  const t = c.tokens;
  const total = t.input + t.output + t.cacheRead + t.cacheWrite;
  if (total > 0) {
    const cost = c.cost > 0 ? ` Estimated cost: about $${c.cost < 100 ? c.cost.toFixed(2) : c.cost.toFixed(0)} (list prices${c.unpriced > 0 ? `; ${fmt(c.unpriced)} tokens of unknown models not priced` : ''}).` : ' Cost not estimated (unknown model).';
    ctx.report({ rule: usageCost.id, detail: `Tokens: ${fmt(t.input)} input, ${fmt(t.output)} output, ${fmt(t.cacheRead)} cache read, ${fmt(t.cacheWrite)} cache write.${cost}`, evidence: [] });
  }
  if (c.files.size > 0) {
    const top = [...c.files.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([p, k]) => `${displayPath(p, ctx)} (${k})`);
    const more = c.filesOmitted > 0 ? ` (+${c.filesOmitted} not tracked)` : '';
    ctx.report({ rule: filesChanged.id, detail: `${plural(c.files.size, 'file')} changed${more}; most changed: ${top.join(', ')}.`, evidence: [] });
  }
  if (c.commands > 0) {
    ctx.report({ rule: commandsRun.id, detail: `${plural(c.commands, 'command')} run, ${c.commandFailures} failed.`, evidence: [] });
  }
  if (c.mcp.size > 0) {
    // "supabase: deploy_edge_function ×11, execute_sql ×2; github: create_pull_request"
    const servers = [...c.mcp.entries()].map(([server, { tools }]) => `${server}: ${[...tools.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([tool, n]) => (n > 1 ? `${tool} ×${n}` : tool)).join(', ')}${tools.size > 6 ? ', …' : ''}`);
    const calls = [...c.mcp.values()].reduce((n, { tools }) => n + [...tools.values()].reduce((a, b) => a + b, 0), 0);
    const listed = servers.slice(0, 10).join('; ') + (servers.length > 10 ? `; and ${servers.length - 10} more` : '');
    ctx.report({ rule: mcpToolsCalled.id, detail: `${plural(calls, 'call')} to ${plural(c.mcp.size, 'MCP server')}: ${listed}.`, evidence: [...c.mcp.values()].slice(0, 10).map((m) => m.first) });
  }
  if (c.hosts.size > 0) {
    const hosts = [...c.hosts.keys()];
    const ev: EvidenceItem[] = [];
    for (const e of c.hosts.values()) pushCapped(ev, e, 10);
    ctx.report({ rule: networkHosts.id, detail: `${plural(hosts.length, 'remote host')}: ${hosts.slice(0, 10).join(', ')}${hosts.length > 10 ? ' …' : ''}.`, evidence: ev });
  }
}

function displayPath(abs: string, ctx: RuleContext): string {
  const cwd = ctx.session.cwd?.replace(/\/+$/, '');
  return cwd && abs.startsWith(cwd + '/') ? abs.slice(cwd.length + 1) : abs;
}

function fmt(v: number): string {
  return v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(1)}k` : String(v);
}
