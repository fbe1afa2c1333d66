// The user's earlier messages as a compaction summary recalls them. Claude Code's summary of a
// conversation that ran out of context lists "All user messages" (quoted, one per bullet); when a
// log begins with such a summary (a session continued in a new file), the requests it recalls are
// in no prompt of the file, yet they are what the user asked for: work they named is not
// "unrequested". Only that section is read — the rest of the summary is the model's account.
/** The summary's list of the user's messages: "6. All User Messages:", "**All user messages** (non-tool-use):". */
const SECTION_HEAD = /^[ \t]*(?:#{1,6}[ \t]*)?(?:\d+\.[ \t]*)?\**All user messages\**[^\n]*$/im;
/**
 * The next section of the summary: "7. Pending Tasks:", "## Current Work", "**Pending Tasks**:". A
 * numbered heading ends on its colon, so a numbered list inside a message ("1. Rename the helper")
 * is part of the message.
 */
const NEXT_SECTION = /^[ \t]{0,3}(?:\d+\.[ \t]+\**[A-Z][^\n:]{0,80}:\**[ \t]*|#{1,6}[ \t]+\S[^\n]*|\*\*[A-Z][^\n]{0,80}\*\*[^\n]*)$/m;
/** A bullet that starts one message. */
const BULLET = /^[ \t]*(?:[-*•]|\d+[.)])[ \t]+/;
/** A message quoted whole, with the summary's note after it: `"yes do it" (chose option 1)`. */
const QUOTED = /^["“](.*)["”](?:\s*\([^()]*\))?\s*$/s;
/** How much of the summary is searched, of the section read, and of one message kept; how many messages. */
const SUMMARY_MAX = 200_000;
const SECTION_MAX = 40_000;
const MESSAGE_MAX = 2_000;
const MESSAGES_MAX = 30;

/** The user's messages a compaction summary recalls, oldest first (none when it lists none). */
export function recalledUserMessages(summary: string): string[] {
  const text = summary.slice(0, SUMMARY_MAX);
  const head = SECTION_HEAD.exec(text);
  if (!head) return [];
  const rest = text.slice(head.index + head[0].length, head.index + head[0].length + SECTION_MAX);
  const end = NEXT_SECTION.exec(rest);
  const section = end ? rest.slice(0, end.index) : rest;
  const messages: string[] = [];
  // the list's own bullets are the kind its first one is (`-`, or `1.`): a numbered list inside a
  // dashed message belongs to that message
  const lines = section.split('\n');
  const first = lines.find((l) => BULLET.test(l));
  const numbered = first !== undefined && /^[ \t]*\d/.test(first);
  const starts = (line: string) => BULLET.test(line) && /^[ \t]*\d/.test(line) === numbered;
  for (const line of lines) {
    if (starts(line)) messages.push(line.replace(BULLET, ''));
    else if (messages.length > 0 && line.trim() !== '') messages[messages.length - 1] += `\n${line.trim()}`;
  }
  return messages.map(unquote).filter((m) => m !== '').slice(-MESSAGES_MAX);
}

function unquote(message: string): string {
  const trimmed = message.trim();
  const quoted = QUOTED.exec(trimmed);
  return (quoted ? quoted[1] : trimmed).slice(0, MESSAGE_MAX);
}
