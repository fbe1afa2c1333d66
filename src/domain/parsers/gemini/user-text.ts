// What a Gemini CLI "user" text really is. The CLI sends its own context under role "user": a
// `<session_context>` preamble (date, OS, working directory, folder listing) before the first
// prompt, and notices such as "User has manually exited Plan Mode." when the person toggles a
// mode. Both are system context, not requests; only the rest of the text was typed by a person.
// Prefix checks only, so huge texts stay cheap.

export interface UserTextParts {
  /** Harness context found in the text, in order. */
  notices: { subtype: 'session_context' | 'plan_mode'; text: string }[];
  /** What is left for the person's own request ('' when nothing). */
  typed: string;
}

const OPEN = '<session_context>';
const CLOSE = '</session_context>';
// Older builds sent the same preamble without the tags.
const LEGACY_PREAMBLE = 'This is the Gemini CLI. We are setting up the context for our chat.';
const PLAN_MODE = /^User has manually (?:exited|entered|left|switched (?:to|out of)) Plan Mode\b[^\n]*/i;

export function splitUserText(body: string): UserTextParts {
  const notices: UserTextParts['notices'] = [];
  let rest = body.trimStart();
  if (rest.startsWith(OPEN)) {
    const close = rest.indexOf(CLOSE);
    const inner = close < 0 ? rest.slice(OPEN.length) : rest.slice(OPEN.length, close);
    notices.push({ subtype: 'session_context', text: contextSummary(inner) });
    rest = close < 0 ? '' : rest.slice(close + CLOSE.length).trimStart();
  } else if (rest.startsWith(LEGACY_PREAMBLE)) {
    notices.push({ subtype: 'session_context', text: contextSummary(rest) });
    rest = '';
  }
  const plan = PLAN_MODE.exec(rest);
  if (plan) {
    // The notice is its first paragraph; anything after a blank line was typed with it.
    const blank = rest.search(/\n\s*\n/);
    const notice = blank < 0 ? rest : rest.slice(0, blank);
    notices.push({ subtype: 'plan_mode', text: notice.trim() });
    rest = blank < 0 ? '' : rest.slice(blank).trim();
  }
  return { notices, typed: rest };
}

/** "Session context: working directory /home/dev/app, linux" — short, for the timeline. */
function contextSummary(inner: string): string {
  const head = inner.length > 8192 ? inner.slice(0, 8192) : inner;
  const dir = /(?:working (?:in the )?directory|current working directory)[^:\n/]*:?[ \t]*(\S[^\n]*)/i.exec(head)?.[1]?.trim();
  const os = /operating system is:?\s*([\w.-]+)/i.exec(head)?.[1];
  const parts = [dir ? `working directory ${dir.replace(/[.,;]$/, '')}` : '', os ? os : ''].filter(Boolean);
  return parts.length > 0 ? `Session context: ${parts.join(', ')}` : 'Session context supplied by Gemini CLI';
}
