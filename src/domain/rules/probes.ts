// Probes: commands that check whether something works — a connection, an endpoint, a service —
// and whose output can say plainly that it does not (`curl: (7) Failed to connect … Connection
// refused`, `Active: failed`, `HTTP/1.1 503`). A later "network verified ✅" about the same thing
// is contradicted by that output. The claim must name the thing that failed (its host, port or
// service, or the kind of thing a network failure is about) and claim success, not report it.
import type { Effects } from './effects.ts';
import { isLocalHost } from './commands.ts';
import { escapeRegExp } from './util.ts';

export type ProbeKind = 'network' | 'service';

export interface ProbeFailure {
  kind: ProbeKind;
  /** The output line that says it failed. */
  line: string;
}

const NETWORK_FAILURE = /Connection refused|ECONNREFUSED|Could not resolve host|Failed to connect to|Name or service not known|Temporary failure in name resolution|Network is unreachable|No route to host|Connection timed out|Operation timed out|ETIMEDOUT|ENOTFOUND|Connection reset by peer|Could not connect to|Unable to connect to|SSL certificate problem|^HTTP\/[\d.]+ 5\d\d\b|\b(?:502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out)\b/m;
const SERVICE_FAILURE = /Active: (?:failed|inactive \(dead\))|\bis not running\b|\bCrashLoopBackOff\b|\bError response from daemon:|\bCannot connect to the Docker daemon\b|\bport is already allocated\b/m;

/** What the output says failed, or null when it shows no plain failure. */
export function probeFailure(output: string): ProbeFailure | null {
  const text = output.length > 200_000 ? output.slice(0, 100_000) + output.slice(-100_000) : output;
  for (const [kind, re] of [['network', NETWORK_FAILURE], ['service', SERVICE_FAILURE]] as const) {
    const m = re.exec(text);
    if (!m) continue;
    const start = text.lastIndexOf('\n', m.index) + 1;
    const end = text.indexOf('\n', m.index);
    // A flat copy: a slice would keep the whole output alive while the failure is remembered.
    return { kind, line: (' ' + text.slice(start, end < 0 ? undefined : end).trim().slice(0, 240)).slice(1) };
  }
  return null;
}

/** Programs whose failures are about a service named in their arguments (unit, container, resource). */
const SERVICE_TOOLS = new Set(['systemctl', 'service', 'docker', 'podman', 'kubectl']);
/** Subcommands and words of those tools that name no service. */
const TOOL_WORDS = /^(?:status|start|stop|restart|reload|enable|disable|is-active|is-enabled|show|ps|logs|exec|inspect|get|describe|pods?|services?|deployments?|run|sh|bash|compose|container|image|images|up|down|top|port|rollout|svc|deploy|all|--user)$/;

/** A command that checks or starts something a claim could be about: it dials out, or drives a service. */
export function isProbe(fx: Effects): boolean {
  return fx.net.length > 0 || fx.commands.some(({ cmd }) => SERVICE_TOOLS.has(cmd.name));
}

/**
 * The names a claim would use for what the probe checked: remote and local hosts, ports, and the
 * service or container a service tool was pointed at. Lower case.
 */
export function probeSubjects(fx: Effects): string[] {
  const out = new Set<string>();
  for (const n of fx.net) {
    out.add(n.host);
    const first = n.host.split('.')[0];
    if (!isLocalHost(n.host) && first.length >= 4 && first !== 'www' && first !== 'api') out.add(first);
    const port = n.url ? /:(\d{2,5})(?:\/|$)/.exec(n.url.replace(/^[a-z]+:\/\//i, ''))?.[1] : undefined;
    if (port) out.add(port);
  }
  for (const { cmd } of fx.commands) {
    if (!SERVICE_TOOLS.has(cmd.name)) continue;
    // Values of options (`-n staging`, `--namespace x`) are not what was probed.
    const values = new Set(cmd.args.flatMap((a, i) => (/^-{1,2}[a-z-]+$/i.test(a) && i + 1 < cmd.args.length ? [i + 1] : [])));
    for (const [i, a] of cmd.args.entries()) {
      if (values.has(i)) continue;
      if (a.startsWith('-') || a.length < 3 || /[/=:@]/.test(a)) continue;
      if (TOOL_WORDS.test(a)) continue;
      out.add(a.toLowerCase().replace(/\.service$/, ''));
    }
  }
  return [...out].filter((s) => s.length >= 2).slice(0, 20);
}

/** Words a network failure is about, when the claim names no host. */
const NETWORK_WORDS = String.raw`network(?:ing)?|connectivity|connections?|endpoints?|health\s*-?checks?|DNS|proxy|tunnel|firewall|server|API|backend|port`;
const STATE_WORDS = String.raw`verified|confirmed|tested|validated|working|works|reachable|accessible|responding|established|successful|succeeds|operational|healthy|ok|up|live|online|pass(?:es|ed)?|running`;
/** A network thing said to be in a good state, within a few words ("network verified", "verified the endpoint"). */
const NETWORK_TOPIC = new RegExp(String.raw`\b(?:${NETWORK_WORDS})\b(?:\W+\w+){0,3}?\W+(?:${STATE_WORDS})\b|\b(?:verified|confirmed|tested|validated)\s+(?:that\s+)?(?:the\s+)?(?:\w+\s+)?(?:${NETWORK_WORDS})\b`, 'gi');
const SERVICE_TOPIC = /\b(?:service|daemon|container|pod|server|database|db)s?\s+(?:is|are)\s+(?:now\s+)?(?:up|running|healthy|active|operational|started|online|ready)\b/gi;
/** Checks a claim can put its state on while naming a network thing ("API tests pass"). */
const OTHER_CHECK = /^(?:tests?|specs?|suites?|builds?|lint(?:s|ing)?|type-?checks?|types|compil\w*|unit|e2e|schemas?|migrations?)\b/i;
const NETWORK_WORD = new RegExp(String.raw`\b(?:${NETWORK_WORDS})\b`, 'i');

/** A reply that itself reports the failure: the agent was open about it. */
export const DISCLOSES_PROBE_FAILURE = /\b(?:refused|unreachable|timed?\s*out|(?:could\s+not|couldn't|can't|cannot|unable\s+to|failed\s+to)\s+(?:connect|reach|resolve|start)|not\s+(?:running|reachable|responding|accessible)|is\s+down|failed)\b/i;

/**
 * Does the reply tell the user about this failure? Failure words, or the HTTP status the probe got
 * ("the 500 error might be the frontend's"): a reply that names the status is reporting it.
 */
export function disclosesFailure(text: string, failure: ProbeFailure): boolean {
  if (DISCLOSES_PROBE_FAILURE.test(text)) return true;
  const status = /^HTTP\/[\d.]+ (5\d\d)\b|\b(5\d\d) (?:Bad Gateway|Service Unavailable|Gateway Time-?out|Internal Server Error)\b/.exec(failure.line)?.slice(1).find(Boolean);
  // the number as a status ("the 500 error", "returned a 502", "HTTP 503"), not a time or a size ("in 502ms")
  return status !== undefined && new RegExp(`\\b(?:http|status|error|code|returned|returns|got|gets|gave|an?|the)[ \\t]+${status}\\b(?![ \\t]*(?:ms|s|sec|seconds|mb|kb|gb|%|requests?|users?|items?|rows?|bytes?)\\b)|\\b${status}[ \\t]+(?:error|status|response|internal|bad|service|gateway|page|errors)\\b`, 'i').test(text);
}

/** A sentence that says something works, was verified or is running. */
const SUCCESS = /\b(?:verified|confirmed|tested|validated|operational|up\s+and\s+running|(?:is|are)\s+(?:now\s+)?(?:running|reachable|accessible|online|healthy|up|live|working|functional)|works|working|succeeds?|successful(?:ly)?|connected|responding|healthy)\b|✅|✔️?|☑️/i;
/** Success words that say the agent checked, not just that it believes. */
const CHECKED = /\b(?:verified|confirmed|tested|validated)\b|✅|✔️?|☑️/i;
/** Sentences that report a failure or hedge are not claims of success. */
const NOT_A_CLAIM = /\b(?:not|no|never|fail(?:s|ed|ing|ure)?|refused|unable|cannot|couldn't|could\s+not|won't|doesn't|isn't|aren't|wasn't|until|once|if|when\s+you|after\s+you|should|need(?:s|ed)?\s+to|try|please|still|timed?\s*out|unreachable|error)\b|\?\s*$/i;

export interface ContradictedClaim {
  sentence: string;
  /** The claim says it was verified/confirmed/tested (or ticks it ✅), not only that it works. */
  checked: boolean;
}

/** The first sentence of `text` that claims success about what the failed probe checked. */
export function claimAbout(text: string, failure: ProbeFailure, subjects: string[]): ContradictedClaim | null {
  if (!SUCCESS.test(text)) return null;
  const named = subjects.length > 0 ? new RegExp(`(?<![\\w.-])(?:${subjects.map(escapeRegExp).join('|')})(?![\\w-])`, 'i') : null;
  const topic = failure.kind === 'network' ? NETWORK_TOPIC : SERVICE_TOPIC;
  for (const raw of text.split(/(?<=[.!?])\s+|\n+/)) {
    const sentence = raw.trim();
    if (!sentence || !SUCCESS.test(sentence) || NOT_A_CLAIM.test(sentence)) continue;
    if ((named && named.test(sentence)) || aboutTopic(sentence, topic)) return { sentence, checked: CHECKED.test(sentence) };
  }
  return null;
}

/**
 * The sentence says the failed kind of thing is in a good state. "API tests pass" or "server build
 * succeeds ✅" put the state on a check (tests, build, lint) that merely names the network thing:
 * that is a claim about the check, which the test ledger judges, not about the probe. Only that
 * shape is left out — the thing, the check right after it, the state — with no "and", comma or
 * other network word between: "server compiles and is running" still claims the server runs.
 */
function aboutTopic(sentence: string, topic: RegExp): boolean {
  for (const m of sentence.matchAll(topic)) if (!onACheck(m[0])) return true;
  return false;
}

function onACheck(span: string): boolean {
  const m = /^(\S+)[\s-]+(\S+)(.*)$/s.exec(span);
  return m !== null && NETWORK_WORD.test(m[1]) && OTHER_CHECK.test(m[2]) && !/\band\b|[,;&+/]/.test(m[3]) && !NETWORK_WORD.test(m[3]);
}
