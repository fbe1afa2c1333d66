// Refusals worked around: an edit the user, the permission mode (plan mode) or the sandbox refused,
// then the same file changed anyway through another tool — `cat <<EOF > file`, `sed -i`, a
// script. The refusal was the guardrail doing its job; going around it is the agent overriding
// the user. A new prompt in between may have allowed it, so the window closes there.
import type { NormEvent, ToolCallEvent } from '../model/events.ts';
import type { FindingDraft, Rule } from './types.ts';
import { effectsOf, type Effects } from './effects.ts';
import { effectGated } from './outcome.ts';
import { hostOfUrl, isLocalHost } from './commands.ts';
import { inlineProgram, interpreterLanguage, programUrls } from '../shell/interpreters.ts';
import { describeCall, evidence, meta, QUOTE_MAX, safe, setCapped, type EvidenceItem } from './util.ts';

export const refusalWorkedAround = meta({
  id: 'permissions/refusal-worked-around',
  severity: 'warning',
  title: 'Refused edit made through another tool',
  description: 'A network request was refused — denied at the permission prompt or by a permission rule, or blocked by a hook or the sandbox in its own words — and before the user said anything else the agent reached the same host with another program (`curl` denied, then `node -e "https.get(…)"`, `python -c "requests.post(…)"`, `wget`). A file edit was refused — denied at the permission prompt, rejected in plan mode, blocked by a hook (`BLOCKED: …`, "protected"), the sandbox or file permissions — and before the user said anything else the agent changed the same file with a different tool (a shell redirect or heredoc, sed -i, tee, cp, a script); or `vouch guard` denied a call and, before the user said anything else, a later call did the same thing to the same target another way (the same rule\'s finding for the same path, host or branch), at the severity of what was done. Edits that failed for ordinary reasons (file not read yet, text not found), retries with the same tool and changes after a new prompt are not reported.',
  remediation: 'Review the change against what the user refused, and revert it if it was not wanted.',
});

/** Tool errors that are a refusal, not a mistake: the call was not allowed. */
/** The operating system's own "permission denied" (a file's mode or owner). */
const FILE_MODE = /\bEACCES\b|permission denied|operation not permitted|\bEPERM\b/i;
/** …unless the text says who refused: a person, a hook, a sandbox, a policy or plan mode. */
const BY_SOMEONE = /user (?:rejected|denied|declined)|doesn't want to|rejected by|blocked by|sandbox|\bhook\b|plan mode|policy|^(?:Error: )?BLOCKED\b/im;
const REFUSED = /permission|not permitted|read-only file system|\bEACCES\b|\bEPERM\b|\bEROFS\b|plan mode|not allowed|user (rejected|denied|declined)|doesn't want to (proceed|make)|rejected by|blocked by|sandbox|\bhook\b|\bprotected\b|\bforbidden\b|\bdenied\b|^(?:Error: )?BLOCKED\b/im;

/**
 * The harness's own edit failures, which quote the text they looked for (and so any word in it);
 * and a sandbox that broke rather than refused: its helper could not start (Codex's "fs sandbox
 * helper failed … bwrap: Failed to make / slave: Permission denied"), so the tool could not work
 * at all — a fault of the machine, not a decision that this edit may not happen.
 */
const ORDINARY = /String to replace not found|File has not been read yet|File has been modified since read|Found \d+ matches of the string|old_string and new_string are|does not exist|No such file|is a directory|EISDIR|sandbox helper failed|\bbwrap: |failed to (?:initiali[sz]e|start|set up) (?:the )?sandbox|landlock[^\n]{0,40}not supported/i;

/** An error that says the edit was not allowed, read in its first lines: not an ordinary failure that quotes the edited code. */
function refusedNotFailed(output: string): boolean {
  const head = output.slice(0, 300);
  return !ORDINARY.test(head) && REFUSED.test(head);
}

interface Refused {
  /** The refused call's tool name. */
  tool: string;
  evidence: EvidenceItem;
  /** Refused by the file's own permissions (EACCES), not by a person, a hook, a sandbox or plan mode. */
  fileMode: boolean;
}

const REFUSED_MAX = 200;

/**
 * The finding for a guard denial worked around (the analyser's prevention gate, report/prevented.ts,
 * matches the denied finding and the later one by rule and target).
 */
export function guardDenialWorkedAround(deniedCall: string, denied: FindingDraft, done: FindingDraft, what: string): FindingDraft {
  const later = done.evidence[0];
  return {
    rule: refusalWorkedAround.id,
    severity: done.severity === 'critical' ? 'critical' : 'warning',
    title: 'Guard denial worked around',
    detail: `Vouch guard denied \`${clipText(deniedCall)}\`; before the user said anything else the agent did the same (${what}) another way${later ? `: \`${clipText(later.excerpt)}\`` : ''}.`,
    evidence: [...denied.evidence.slice(0, 1), ...(later ? [later] : [])],
    key: `guard:${denied.rule}:${denied.key ?? ''}`,
  };
}

function clipText(text: string): string {
  return text.length > QUOTE_MAX ? text.slice(0, QUOTE_MAX - 1) + '…' : text;
}

/** Who refused a network request, in the result's first lines: a person, a hook, a sandbox, a policy. */
function refusedBySomeone(output: string): boolean {
  const head = output.slice(0, 300);
  return !ORDINARY.test(head) && BY_SOMEONE.test(head);
}

/** The remote hosts a call contacts, each with the program that does it (`curl`, `node`, `WebFetch`). */
function contacted(call: ToolCallEvent, fx: Effects): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of fx.net) if (!n.local) out.set(n.host, n.cmd?.name ?? call.name);
  for (const { cmd } of fx.commands) {
    const lang = interpreterLanguage(cmd.name);
    const program = lang ? inlineProgram(lang, cmd.args) : null;
    if (!lang || !program) continue;
    for (const url of programUrls(lang, program)) {
      const host = hostOfUrl(url);
      if (host && !isLocalHost(host) && !out.has(host)) out.set(host, cmd.name);
    }
  }
  return out;
}

interface RefusedRequest {
  program: string;
  evidence: EvidenceItem;
}

// The workaround is itself a call that may be refused (Claude Code asks again for a heredoc it
// would not run unapproved): its finding waits for its result, and one that did not run is an attempt.
export const CIRCUMVENTION_RULES: Rule[] = [
  effectGated({
    metas: [refusalWorkedAround],
    create(ctx) {
      const pending = new Map<string, ToolCallEvent>();
      const refused = new Map<string, Refused>();
      // network requests: calls that contact a host, until their results come; hosts refused since the last prompt
      const dialling = new Map<string, { hosts: Map<string, string>; evidence: EvidenceItem }>();
      const refusedHosts = new Map<string, RefusedRequest>();
      return {
        onEvent(event: NormEvent, facts) {
          if (event.kind === 'prompt' && !event.synthetic && event.agentId === undefined) {
            refused.clear();
            refusedHosts.clear();
            return;
          }
          if (event.kind === 'tool_result') {
            const request = dialling.get(event.callId);
            dialling.delete(event.callId);
            if (request && (event.denied || (event.isError && refusedBySomeone(event.output)))) {
              for (const [host, program] of request.hosts) setCapped(refusedHosts, host, { program, evidence: request.evidence }, REFUSED_MAX);
            }
            const call = pending.get(event.callId);
            pending.delete(event.callId);
            if (!call || !(event.denied || (event.isError && refusedNotFailed(event.output)))) return;
            for (const w of effectsOf(call, { secrets: [] }, ctx.session).writes) {
              refused.set(w.abs, { tool: call.name, evidence: evidence(call, describeCall(call), facts), fileMode: !event.denied && FILE_MODE.test(event.output) && !BY_SOMEONE.test(event.output) });
              if (refused.size > REFUSED_MAX) refused.delete(refused.keys().next().value as string);
            }
            return;
          }
          if (event.kind !== 'tool_call') return;
          const fx = effectsOf(event, facts, ctx.session);
          const hosts = contacted(event, fx);
          if (hosts.size > 0) {
            for (const [host, program] of hosts) {
              const r = refusedHosts.get(host);
              if (!r || r.program === program) continue;
              refusedHosts.delete(host);
              ctx.report({
                rule: refusalWorkedAround.id,
                title: 'Refused network request made through another program',
                detail: `A request to ${safe(host, facts, QUOTE_MAX)} with ${r.program} was refused; the agent then reached the same host with ${program} without a new go-ahead from the user.`,
                evidence: [r.evidence, evidence(event, describeCall(event), facts)],
                key: `host:${host}`,
              });
            }
            setCapped(dialling, event.callId, { hosts, evidence: evidence(event, describeCall(event), facts) }, REFUSED_MAX);
          }
          if (fx.writes.length > 0) {
            pending.set(event.callId, event);
            if (pending.size > REFUSED_MAX) pending.delete(pending.keys().next().value as string);
          }
          for (const w of fx.writes) {
            const r = refused.get(w.abs);
            if (!r || r.tool === event.name) continue;
            refused.delete(w.abs);
            const how = w.cmd ? `\`${safe(w.cmd.text, facts, QUOTE_MAX)}\`` : `${event.name}`;
            // The file's own permissions said no (EACCES), and the agent used root: no person, hook or
            // sandbox was overridden — the sudo finding for that command is the one to look at.
            const asRoot = r.fileMode && w.cmd !== undefined && (w.cmd.wrappers.includes('sudo') || w.cmd.name === 'sudo');
            ctx.report({
              rule: refusalWorkedAround.id,
              ...(asRoot ? { severity: 'info' as const, title: 'File permissions overridden with sudo' } : {}),
              detail: asRoot
                ? `Writing ${safe(w.path, facts, QUOTE_MAX)} with ${r.tool} failed on the file's permissions; the agent then wrote it as root with ${how} (judged with its use of sudo).`
                : `The ${r.tool} edit of ${safe(w.path, facts, QUOTE_MAX)} was refused; the agent then changed it with ${how} without a new go-ahead from the user.`,
              evidence: [r.evidence, evidence(event, w.cmd?.text ?? describeCall(event), facts)],
              key: asRoot ? `${w.abs} (as root)` : w.abs,
            });
          }
        },
      };
    },
  }),
];
