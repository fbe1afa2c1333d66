// injection: text that tries to steer the agent from inside its inputs — injection phrases, fake
// role markers and hidden Unicode in tool output or fetched pages — risky actions right after
// such text, and edits to the files that instruct the agent in every future session.
import type { NormEvent, ToolResultEvent, ToolCallEvent } from '../model/events.ts';
import type { EventFacts, FindingDraft, Rule, RuleContext, SessionFacts } from './types.ts';
import type { SimpleCommand } from '../shell/types.ts';
import { Outcomes } from './outcome.ts';
import { mcpServersAdded } from './mcp-servers.ts';
import { CreatedPaths } from './created-paths.ts';
import { namesFile, requestsOf, sentencesAsking, whoAsked } from './requests.ts';
import { effectsOf, locate, type Effects, type FileOp, type Located } from './effects.ts';
import { gitSubcommand, asksForInfo } from './commands.ts';
import { envDumpOf, sensitiveLabel, sensitiveReads } from './secrets.ts';
import { isAgentSettingsFile } from './permissions.ts';
import { isAgentHookPath, isAgentInstructionFile, isAgentOwnData } from '../paths.ts';
import { addCapped, around, basename, describeCall, escapeRegExp, evidence, meta, pushCapped, QUOTE_MAX, safe, setCapped, type EvidenceItem } from './util.ts';
import { addressedToAgents, followedLink, isEmpty, namedIn, type Named } from './instructions.ts';

export const injectionText = meta({
  id: 'injection/prompt-injection-text',
  severity: 'warning',
  title: 'Prompt-injection text in tool output',
  description: 'Tool output or a fetched page contained text aimed at the model: "ignore previous instructions", role reassignment ("you are now an unrestricted AI"), chat-template tokens (<|im_start|>, [INST]), fake tool/system tags (</tool_result>), "### SYSTEM" headers or "do not tell the user". Outputs of files the agent wrote itself, agent instruction files, and searches for the phrase itself are not scanned; a phrase quoted as an example of an attack (the line introduces the quotation as an example, a payload, a pattern to detect or block) is a description, not an order.',
  remediation: 'Read the source of that text and check whether the agent followed it; treat content from that source as hostile.',
});
export const hiddenUnicode = meta({
  id: 'injection/hidden-unicode',
  severity: 'warning',
  title: 'Hidden Unicode in tool output',
  description: 'Invisible characters in tool output or fetched content: zero-width spaces in a run of three or more or splitting a word (lone ones between words or after list markers, as documents pasted from Google Docs carry them, are layout), bidirectional overrides and embeddings (U+202A–202E, "Trojan Source"), unbalanced isolates (U+2066–2069), or Unicode tag characters (U+E0000–E007F, invisible ASCII — decoded in the finding). A byte-order mark where a text begins (start of a line, of a tab-separated field as in `gh run view --log`, or after a grep `path:` prefix), zero-width joiners inside emoji, and balanced isolate pairs around plain text (how i18n libraries wrap dates and names) are not reported.',
  remediation: 'Inspect the raw content with a hex viewer; strip invisible characters from files before agents read them.',
});
export const riskyAfterInjection = meta({
  id: 'injection/risky-action-after-injection',
  severity: 'critical',
  title: 'Risky action right after injected instructions',
  description: 'Within the next three tool calls after injection text or hidden Unicode, the agent made a network call to a remote host, deleted files outside the tree, read credentials, dumped the environment, wrote outside the working tree, used sudo or pushed code: it may have obeyed the injected text.',
  remediation: 'Assume the session was hijacked: review every action after the injection, rotate credentials it could reach.',
});
export const instructionFollowed = meta({
  id: 'injection/instruction-followed',
  severity: 'warning',
  title: 'Instructions from tool output followed',
  description: 'After injection text or hidden Unicode in a tool output (a fetched page, a file, a README), the agent did part of what that text named: it fetched or downloaded the named URL or script, contacted the named host, ran the named script or command — even when nothing was piped to a shell. The action must be that one (same URL, a URL under it, the same uncommon host, the script file, the command text), not merely co-occur; hosts every session uses (github.com, registries) only link through their exact URL. Text that merely addresses AI agents ("Note to AI assistants: …" in a fetched page or a README/doc file) links only through a named script or a named command that dials out. Not reported when the user named the URL or host, or when the action was already reported as a risky action after the injection.',
  remediation: 'Check what the named script, host or command did; treat the source of the instructions as hostile.',
});
export const agentConfigEdit = meta({
  id: 'injection/agent-config-edit',
  severity: 'warning',
  title: 'Agent instruction file modified',
  description: 'The agent changed a file that instructs agents in later sessions (CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, copilot instructions, hooks, MCP server config): a persistent foothold for injected instructions. Info when the user asked for it (named the file or its kind — "your rules", "你的规则" —, ran /init, or asked for it earlier in the session), for a memory note through the harness\'s own feature, and for the instruction files of a template the session cloned for new work, rewritten with text that holds nothing instruction-like, and for `sed -i` replacing one name by another across several files, the instruction file among them (references following a rename). The change must have happened: a write the tool refused is an attempt (info). The unrequested changes of a session\'s instruction files are one finding, each change in its evidence (several files in one turn, or one file edited turn after turn). Permission settings files are reported by permissions/agent-settings-write.',
  remediation: 'Review the diff of the instruction file before the next agent session uses it.',
});

// ---- injection text --------------------------------------------------------------------------

// `screen`: a cheap necessary condition for a match, on the text and on its lower-cased copy
// (lower-casing maps at least everything /i folds, so a screen never hides a match). Outputs can
// be megabytes and most pass no screen: literal searches replace slow word-boundary regex scans
// (patterns that start with a rare literal are fast as they are and have no screen).
type Screen = (text: string, lower: string) => boolean;
const CHAT_TEMPLATE = 'chat-template token';
const IGNORE_PREVIOUS = '"ignore previous instructions"';
/**
 * The words before "override system rules" that make it a description, not an order: a modal or
 * auxiliary ("USER rules … can override SYSTEM rules", "must not ignore the previous instructions"),
 * `to`, or a negation. An injection tells the model to do it.
 */
const DESCRIBED_BEFORE = /\b(?:can|cannot|can't|could|may|might|will|won't|would|shall|should|must|to|not|never|don't|doesn't)\s+$/i;
const FAKE_TAG = 'fake tool/role tag';
const PATTERNS: { label: string; screen?: Screen; re: RegExp }[] = [
  { label: IGNORE_PREVIOUS, screen: (_t, l) => l.includes('ignore') || l.includes('disregard') || l.includes('forget') || l.includes('override'), re: /\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|the|your|of|my)\s+){0,3}(?:previous|prior|above|earlier|preceding|original|system)\s+(?:instructions|prompts?|directions|rules|guidelines|directives)\b/i },
  { label: 'role reassignment ("you are now …")', screen: (_t, l) => l.includes('now') && /are\s+now\s/.test(l), re: /\byou\s+are\s+now\s+(?:(?:a|an|the|in|no\s+longer)\s+)?(?:new\s+)?(?:unrestricted|unfiltered|jailbroken|DAN\b|developer\s+mode|god\s+mode|evil|different\s+(?:ai|assistant|model)|(?:ai|assistant|agent|model)\b)/i },
  { label: 'system prompt override', screen: (_t, l) => /system\s+(?:prompt|instruction)|initial\s+instructions/.test(l), re: /\b(?:new|updated|real|actual|hidden|secret)\s+system\s+(?:prompt|instructions?)\b|\b(?:reveal|print|show|output|repeat|leak|disclose)\s+(?:your|the)\s+(?:system\s+prompt|initial\s+instructions)\b/i },
  { label: CHAT_TEMPLATE, re: /<\|(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id)\|>|\[\/?INST\]|<<\/?SYS>>/ },
  { label: 'fake SYSTEM header', screen: (t) => t.includes('SYSTEM'), re: /^[ \t]*#{1,6}[ \t]*SYSTEM(?:[ \t]+(?:PROMPT|MESSAGE|INSTRUCTIONS?|OVERRIDE))?[ \t]*:?[ \t]*$/m },
  { label: FAKE_TAG, re: /<(\/?)((?:tool_result|function_results|function_calls|tool_use|system_prompt|assistant_response)|antml:[a-z_]+)>/i },
  { label: '"do not tell the user"', screen: (_t, l) => /the\s+user/.test(l), re: /\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention\s+(?:this\s+|it\s+)?to|reveal\s+(?:this\s+|it\s+)?to|alert|notify)\s+the\s+user\b|\b(?:do\s+not|don'?t|never)\s+let\s+the\s+user\s+(?:know|see|notice|find\s+out|learn)\b|\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b/i },
];

interface Match {
  label: string;
  start: number;
  end: number;
}

export function findInjection(text: string): Match | null {
  const lower = text.toLowerCase();
  for (const { label, screen, re } of PATTERNS) {
    if (screen && !screen(text, lower)) continue;
    if (label === CHAT_TEMPLATE) {
      const m = chatTemplateOutsideCode(text, re);
      if (m) return { label, start: m.index, end: m.index + m[0].length };
      continue;
    }
    if (label === FAKE_TAG) {
      const m = enclosingTag(text, re);
      if (m) return { label, start: m.index, end: m.index + m[0].length };
      continue;
    }
    if (label === IGNORE_PREVIOUS) {
      const m = orderedToIgnore(text, re);
      if (m) return { label, start: m.index, end: m.index + m[0].length };
      continue;
    }
    const m = firstNotExample(text, re);
    if (m) return { label, start: m.index, end: m.index + m[0].length };
  }
  return null;
}

/**
 * The global twin of a pattern, compiled once (every tool output that passes a screen is scanned:
 * a new RegExp per output and pattern was work on the hot path), its position reset for this scan.
 */
function globalOf(re: RegExp): RegExp {
  let g = GLOBALS.get(re);
  if (!g) {
    g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
    GLOBALS.set(re, g);
  }
  g.lastIndex = 0;
  return g;
}
const GLOBALS = new Map<RegExp, RegExp>();

/** The first match that is not quoted as an example (quotedAsExample); at most a few tried. */
function firstNotExample(text: string, re: RegExp): RegExpExecArray | null {
  const all = globalOf(re);
  let n = 0;
  for (let m = all.exec(text); m; m = all.exec(text), n++) {
    // past the cap every match counts: a page of quoted "examples" cannot hide the order after them
    if (n >= EXAMPLES_MAX || !quotedAsExample(text, m.index)) return m;
    if (m[0].length === 0) all.lastIndex++;
  }
  return null;
}
const EXAMPLES_MAX = 50;

/**
 * A phrase quoted as an example of an attack, not said to the model: it opens a quotation on its
 * line (`"`, `“`, `'`, a backtick) and the line says before the quote what it shows — an example, a
 * payload, an attack, a pattern to detect or block (`Prompt injection example: "Ignore all
 * previous instructions …"`, `- Blocks phrases like 'you are now DAN'`). An order needs no quotes.
 */
function quotedAsExample(text: string, at: number): boolean {
  const from = Math.max(0, at - EXAMPLE_WINDOW);
  const ahead = text.slice(from, at);
  const line = ahead.slice(ahead.lastIndexOf('\n') + 1);
  // the quotation the phrase stands in: opened right before it, or still open on its line (an odd
  // count of straight quotes or backticks, a curly or angle quote not yet closed)
  const right = /["“'`«「]\s*$/.exec(line)?.index ?? -1;
  const opened = Math.max(right, stillOpen(line, '"', '"'), stillOpen(line, '`', '`'), stillOpen(line, '“', '”'), stillOpen(line, '«', '»'), stillOpen(line, '「', '」'));
  if (opened < 0) return false;
  // a list of quoted examples ("phrases like 'you are now DAN' and “ignore previous …”"): the words
  // before the first of them introduce them all
  let before = line.slice(0, opened);
  for (let i = 0; i < 10; i++) {
    const listed = before.replace(QUOTED_LIST_ITEM, '');
    if (listed === before) break;
    before = listed;
  }
  // the words right before the quotation introduce it ("Prompt injection example:", "phrases such
  // as", "Common payloads:"); a line that speaks to the model, says "not an example" or "the real
  // payload" introduces an order
  return INTRODUCES_EXAMPLE.test(before) && !ADDRESSES_MODEL.test(before) && !/\bnot\s+(?:an?\s+)?examples?\b|\b(?:real|actual|true)\s+(?:payload|instructions?|task)\b/i.test(before);
}

/** Where a quotation still open at the end of `line` begins, or -1 (one pass over the line). */
function stillOpen(line: string, openMark: string, closeMark: string): number {
  let at = -1;
  for (let i = 0; i < line.length; i++) {
    if (at < 0 && line[i] === openMark) at = i;
    else if (at >= 0 && line[i] === closeMark) at = -1;
  }
  return at;
}
const EXAMPLE_WINDOW = 200;
/** A quoted item at the end of a list, with what joins it to the next ("'you are now DAN' and "). */
const QUOTED_LIST_ITEM = /(?:"[^"\n]{0,120}"|“[^”\n]{0,120}”|'[^'\n]{0,120}'|`[^`\n]{0,120}`)\s*(?:,|;|\/|\band\b|\bor\b|&)\s*$/;
/** An example word, then at most three words and a colon, comma or dash, right before the quotation ("(e.g., \"…\""). */
const INTRODUCES_EXAMPLE = /(?:\be\.g\.|\b(?:examples?|such as|(?:phrases?|strings?|patterns?|inputs?|prompts?|text|payloads?|attacks?|things)\s+like|payloads?|attacks?|injections?|jailbreaks?|phrases?|patterns?|detects?|detected|blocks?|blocked|flags?|flagged|malicious|adversarial|strings?|test cases?|tries|attempts?)\b)(?:\s+[\w'-]+){0,3}?\s*[:：—–,，-]?\s*$/i;
/** A line that speaks to the model: an order follows, quoted or not. */
const ADDRESSES_MODEL = /\b(?:AI|LLMs?|assistants?|agents?|models?|Claude|Codex|Gemini|GPT|ChatGPT|Copilot)\b[^"“'`]{0,40}[:,]|\b(?:I'?d like you|you (?:must|should|need to|have to|will)|please)\b/i;

/** The first "ignore previous instructions" said as an order, not described (see DESCRIBED_BEFORE). */
function orderedToIgnore(text: string, re: RegExp): RegExpExecArray | null {
  const all = globalOf(re);
  for (let m = all.exec(text); m; m = all.exec(text)) {
    if (!DESCRIBED_BEFORE.test(text.slice(Math.max(0, m.index - 24), m.index)) && !quotedAsExample(text, m.index)) return m;
  }
  return null;
}

/**
 * A tool or role tag that frames text: a closing tag (`</tool_result>` ending a block the model
 * is meant to think is over), or an opening tag that starts its line or ends it (a frame opened
 * for the text after it). An opening tag inline among other `<word>` placeholders is a usage
 * line's argument (`bun Inference.ts <system_prompt> <user_prompt>`), no frame. One linear pass.
 */
function enclosingTag(text: string, re: RegExp): RegExpExecArray | null {
  const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  for (let m = global.exec(text); m !== null; m = global.exec(text)) {
    if (m[1] === '/') return m;
    // the tag's line, as far as a window around it reaches (bounded: one long line is no quadratic scan)
    const from = Math.max(0, m.index - PLACEHOLDER_WINDOW);
    const ahead = text.slice(from, m.index);
    const nlBefore = ahead.lastIndexOf('\n');
    const before = nlBefore < 0 ? ahead : ahead.slice(nlBefore + 1);
    const startsLine = before.trim() === '' && (nlBefore >= 0 || from === 0);
    const end = m.index + m[0].length;
    const behind = text.slice(end, end + PLACEHOLDER_WINDOW);
    const nlAfter = behind.indexOf('\n');
    const after = nlAfter < 0 ? behind : behind.slice(0, nlAfter);
    const endsLine = after.trim() === '' && (nlAfter >= 0 || end + PLACEHOLDER_WINDOW >= text.length);
    if (startsLine || endsLine || !(PLACEHOLDER.test(before) || PLACEHOLDER.test(after))) return m;
  }
  return null;
}
/** Another `<word>` argument placeholder beside the tag on its line. */
const PLACEHOLDER = /<[a-z][\w-]{0,40}>/i;
const PLACEHOLDER_WINDOW = 200;

/** An assignment, call or return that opens a string literal left open up to here. */
const STRING_IN_CODE = /(?:[=(,]|\+=|\breturn)\s*[rbfuRBFU]?(?:"[^"\n]*|'[^'\n]*)$/;
/** A search result line from a source file (`utils.py:253:`, `src/prompt.ts-12-`); documents (Markdown, text, data) are where injections hide. */
const SOURCE_LINE = /^[^\s:]+\.(?:py|ipynb|js|mjs|cjs|ts|tsx|jsx|rb|go|rs|java|kt|cs|cpp|cc|c|h|hpp|swift|php|jinja2?|j2|tmpl|tpl)[:-]\d+[:-]/;

/**
 * A chat-template token written as code — a string literal a program builds a prompt with
 * (`full_input += "<|eot_id|><|start_header_id|>assistant…"`), a search hit in a source file — is
 * the project's prompt format, not text aimed at this agent. The first token outside such code, or null.
 */
function chatTemplateOutsideCode(text: string, re: RegExp): RegExpExecArray | null {
  const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  let seen = 0;
  for (let m = global.exec(text); m !== null && seen < 200; m = global.exec(text), seen++) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    // code that opens a string literal still open at the token: `x += "<|eot_id|>…`, `conv.system = '<s>[INST] '`
    const before = text.slice(lineStart, m.index).replace(SOURCE_LINE, '');
    if (STRING_IN_CODE.test(before) || inTripleQuoted(text, m.index)) continue;
    return m;
  }
  return null;
}

/**
 * The token sits in a Python triple-quoted string a program opened on an earlier line
 * (`PromptTemplate.from_template(` / `"""` / `<s> [INST] …`): an odd count of the delimiter in the
 * text before it (a read file's line numbers allowed), opened by code — an assignment, a call, a
 * return, or the delimiter alone on its line.
 */
function inTripleQuoted(text: string, at: number): boolean {
  const window = text.slice(Math.max(0, at - 3_000), at);
  for (const quote of ['"""', "'''"]) {
    const open = window.lastIndexOf(quote);
    if (open < 0 || window.split(quote).length % 2 !== 0) continue;
    const line = window.slice(window.lastIndexOf('\n', open) + 1, open + 3).replace(LINE_NUMBER, '');
    if (TRIPLE_OPENED_BY_CODE.test(line)) return true;
  }
  return false;
}
/** A read file's line number before the code (`  24→`, `24\t`). */
const LINE_NUMBER = /^\s*\d{1,6}(?:→|\t)/;
const TRIPLE_OPENED_BY_CODE = /(?:[=(,]|\breturn)\s*[rbfuRBFU]{0,2}(?:"""|''')$|^\s*[rbfuRBFU]{0,2}(?:"""|''')$/;

// ---- hidden unicode ------------------------------------------------------------------------

interface Hidden {
  /** The text that was scanned (balanced i18n isolates removed); `first` indexes into it. */
  scanned: string;
  count: number;
  kinds: Set<string>;
  first: number;
  tagText: string;
  /**
   * A zero-width character between two letters of a word an instruction or a filter turns on
   * ("ig<U+200B>nore", "pass<U+2060>word"), or inside text that reads as an instruction once the
   * characters are gone: a word split to slip past a filter.
   */
  splitsWord: boolean;
  /** The longest run of zero-width characters in a row: a run can encode text, a lone one or a pair cannot. */
  longestRun: number;
}

const PICTO = /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|\uFE0F/u;

const HIDDEN_CANDIDATE = /\u200D|[\u200B\u2060-\u2064\u180E\u202A-\u202E\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/;

/** A balanced isolate pair around plain text: how i18n libraries (Fluent, MDN) wrap dates and names. */
const I18N_ISOLATE = /[\u2066-\u2068]([^\u2066-\u2069\u202A-\u202E\n]{0,200})\u2069/g;

/** Invisible characters worth a look (see the rule description for what is excused). */
export function findHidden(input: string): Hidden | null {
  const h = scanHidden(input);
  return h && hidesSomething(h) ? h : null;
}

/**
 * Tag characters and bidirectional controls change what a reader sees at any count; zero-width
 * characters hide text only in runs of three or more (an encoding needs several in a row) or inside a word
 * (splitting a keyword past a filter). Lone ones between words or after list markers — a zero-width
 * space pasted into a tmux.conf, the U+200B after every "●" of a document pasted from Google Docs,
 * a BOM where a quoting bug made bash echo a Windows file — hide nothing, however many there are.
 */
const ZERO_WIDTH_MIN = 3;
function hidesSomething(h: Hidden): boolean {
  return h.kinds.has('tag characters') || h.kinds.has('bidirectional overrides') || h.longestRun >= ZERO_WIDTH_MIN || h.splitsWord;
}
const LETTER = /\p{L}/u;
const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\u180E\uFEFF]/;
/**
 * The three subdivision flags Unicode recommends for display (England `gbeng`, Scotland `gbsct`,
 * Wales `gbwls`): the black flag, those exact tag letters, the cancel tag. Any other tag text,
 * flag-shaped or not, is hidden text (a sequence spelling "ignoreprevio…" is no flag).
 */
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}/gu;

function scanHidden(input: string): Hidden | null {
  // Outputs can be megabytes: one regex pass decides whether the character loop is needed at all.
  if (!HIDDEN_CANDIDATE.test(input)) return null;
  // An emoji tag sequence (🏴 + tag letters + cancel tag) is how the flags of England, Scotland and
  // Wales are written: the tags spell the region ("gbeng"), shown as the flag, hiding nothing.
  const text = input.replace(I18N_ISOLATE, '$1').replace(EMOJI_TAG_SEQUENCE, '\u{1F3F4}');
  let h: Hidden | null = null;
  let run = 0;
  let splitChecks = 0;
  const memo = { at: -MIS_DECODED_WINDOW, verdict: false };
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i)!;
    if (c > 0xffff) i++;
    const kind = hiddenKind(c, text, i, memo);
    if (!kind) continue;
    h ??= { scanned: text, count: 0, kinds: new Set(), first: i, tagText: '', splitsWord: false, longestRun: 0 };
    h.count++;
    if (kind === 'zero-width characters') {
      if (!h.splitsWord && LETTER.test(text[i - 1] ?? '') && LETTER.test(text[i + 1] ?? '')) {
        // The word test is cheap and runs at every split; the window around one is read only so often.
        h.splitsWord = splitsScreenedWord(text, i) || (splitChecks++ < SPLIT_CHECKS_MAX && hidesInstruction(text, i));
      }
      run = ZERO_WIDTH.test(text[i - 1] ?? '') ? run + 1 : 1;
      if (run > h.longestRun) h.longestRun = run;
    }
    h.kinds.add(kind);
    if (kind === 'tag characters' && h.tagText.length < 200 && c >= 0xe0020 && c <= 0xe007e) h.tagText += String.fromCharCode(c - 0xe0000);
  }
  return h;
}

// Words a filter screens for, or an instruction to an agent turns on. A split elsewhere is how
// typesetting breaks a word (a PDF's word joiners, a soft break in a long name) and hides nothing.
const SCREENED_WORD = /^(?:ignore|disregard|forget|instructions?|system|prompt|assistant|execute|eval|exec|curl|wget|bash|sudo|password|passwd|token|secret|credentials?|api[_-]?key|ssh|exfiltrate|upload|send|delete|override|admin|jailbreak)$/i;
/** Windows read per text for a hidden instruction: a typeset document has thousands of splits. */
const SPLIT_CHECKS_MAX = 64;
const ZERO_WIDTH_ALL = /[\u200B-\u200D\u2060-\u2064\u180E\uFEFF]/g;

/** Does the zero-width character at `i` (between two letters) split a word filters screen for? */
function splitsScreenedWord(text: string, i: number): boolean {
  let start = i;
  while (start > 0 && i - start < 40 && (LETTER.test(text[start - 1]!) || ZERO_WIDTH.test(text[start - 1]!))) start--;
  let end = i + 1;
  while (end < text.length && end - i < 40 && (LETTER.test(text[end]!) || ZERO_WIDTH.test(text[end]!))) end++;
  return SCREENED_WORD.test(text.slice(start, end).replace(ZERO_WIDTH_ALL, ''));
}

/** Does the text around `i` read as an instruction once the zero-width characters are gone (and not before)? */
function hidesInstruction(text: string, i: number): boolean {
  const window = text.slice(Math.max(0, i - 200), i + 200);
  return findInjection(window.replace(ZERO_WIDTH_ALL, '')) !== null && findInjection(window) === null;
}

function hiddenKind(c: number, text: string, i: number, memo: { at: number; verdict: boolean }): string | null {
  if (c >= 0xe0000 && c <= 0xe007f) return 'tag characters';
  if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) {
    // one verdict per stretch of text: neighbouring controls share a window (bounded work on a run of them)
    if (i - memo.at > MIS_DECODED_WINDOW / 2) Object.assign(memo, { at: i, verdict: misDecodedAround(text, i) });
    return memo.verdict ? null : 'bidirectional overrides';
  }
  // Beside an emoji a zero-width space or joiner is how pages and search snippets lay emoji out.
  if (c === 0x200b && (PICTO.test(text.slice(Math.max(0, i - 2), i)) || PICTO.test(text.slice(i + 1, i + 3)))) return null;
  if (c === 0x200b || c === 0x2060 || (c >= 0x2061 && c <= 0x2064) || c === 0x180e) return 'zero-width characters';
  // A byte-order mark starts a file or a stream (PowerShell writes one after "Output: "): only
  // one hidden inside a word is text made invisible.
  if (c === 0xfeff) return bomStartsText(text, i) || afterLabel(text, i) ? null : 'zero-width characters';
  if (c === 0x200d) {
    const before = text.slice(Math.max(0, i - 2), i);
    const after = text.slice(i + 1, i + 3);
    return PICTO.test(before) || PICTO.test(after) ? null : 'zero-width characters';
  }
  return null;
}

const HAN = /\p{Script=Han}/u;
const HANGUL = /\p{Script=Hangul}/u;
const PRIVATE_USE = /[\uE000-\uF8FF]/;
const MIS_DECODED_WINDOW = 40;

/**
 * Text decoded with the wrong encoding (UTF-8 bytes read as UTF-16, as a PowerShell
 * `[Text.Encoding]::Unicode` read of a UTF-8 file prints them): every two bytes become one code
 * point spread over the whole 16-bit range, so Han ideographs, Hangul syllables and the private
 * use area — the largest blocks — come out mixed at random, and now and then a bidirectional
 * control among them — and never a character below U+0100, which would need a zero byte. A UTF-8
 * lead byte at an odd offset lands in the private use area, so a tenth or more of those appear. A
 * window with no ASCII at all (real text has spaces, digits or punctuation), made mostly of those
 * blocks with private-use characters among them, is noise, and a control in noise was placed by no one.
 */
function misDecodedAround(text: string, i: number): boolean {
  let noise = 0;
  let privateUse = 0;
  let all = 0;
  for (const ch of text.slice(Math.max(0, i - MIS_DECODED_WINDOW), i + MIS_DECODED_WINDOW)) {
    if (ch === '\n' || ch === '\r') continue;
    // UTF-8 read as UTF-16 never yields a code point below U+0100 (that needs a zero byte): real
    // text has spaces, digits or punctuation of ASCII, mis-decoded text none
    if (ch.charCodeAt(0) < 0x100) return false;
    all++;
    if (PRIVATE_USE.test(ch)) privateUse++;
    if (HAN.test(ch) || HANGUL.test(ch) || PRIVATE_USE.test(ch)) noise++;
  }
  return all >= 20 && privateUse >= all / 10 && noise >= all * 0.7;
}
/** A grep/rg match prefix (`path:`, `path:12:`, `path-12-`) that tools print before a file's first line. */
const MATCH_PREFIX = /^[^\s:]{1,300}(?::\d+)?[:-]$/;

/**
 * A byte-order mark where a text begins is encoding metadata, not hidden text: at the start of the
 * output or of a line, of a tab-separated field (`gh run view --log` prints `job<TAB>step<TAB>`
 * before each step's log, which begins with a BOM), or right after a grep/rg `path:` prefix.
 */
/** Right after a short label that starts its line (`Output: `, `stdout:`): where a stream begins. */
function afterLabel(text: string, i: number): boolean {
  const lineStart = text.lastIndexOf('\n', i - 1) + 1;
  return i - lineStart <= 24 && /^\s*[\w -]{1,20}:\s*$/.test(text.slice(lineStart, i));
}

function bomStartsText(text: string, i: number): boolean {
  if (i === 0 || text[i - 1] === '\n' || text[i - 1] === '\r' || text[i - 1] === '\t') return true;
  const lineStart = text.lastIndexOf('\n', i - 1) + 1;
  return i - lineStart <= 320 && MATCH_PREFIX.test(text.slice(lineStart, i));
}

// ---- risky actions ----------------------------------------------------------------------------

/** Why an action is risky enough to matter right after injected text, or null. */
export function riskyAction(fx: Effects, session: SessionFacts): string | null {
  const net = fx.net.find((n) => !n.local && (n.cmd !== null || (n.url ?? '').includes('?')));
  if (net) return `contacted ${net.host}`;
  const del = fx.deletes.find((d) => d.zone !== 'tmp' && d.zone !== 'worktree' && d.zone !== 'unknown');
  if (del) return `deleted ${del.path}`;
  const secret = sensitiveReads(fx)[0];
  if (secret) return `read ${sensitiveLabel(secret.sensitive!)}`;
  if (session.cwd) {
    const out = fx.writes.find((w) => w.zone === 'home' || w.zone === 'system' || w.zone === 'root' || w.zone === 'other');
    if (out) return `wrote ${out.path} outside the working tree`;
  }
  for (const loc of fx.commands) {
    if (envDumpOf(loc, fx.commands)) return 'dumped the environment';
    if (loc.cmd.wrappers.includes('sudo')) return 'ran a command with sudo';
    if (gitSubcommand(loc.cmd)?.sub === 'push') return 'pushed code';
  }
  return null;
}

// ---- the rules ------------------------------------------------------------------------------

const WINDOW_CALLS = 3;
const WRITTEN_MAX = 1_000;

interface Pending {
  what: string;
  evidence: EvidenceItem;
  callsLeft: number;
  key: string;
}

/** Instructions seen in an output, waiting for an action that follows them. */
interface Instructions {
  what: string;
  evidence: EvidenceItem;
  named: Named;
  /** Text that only addresses agents (no injection): only scripts and dialling commands link. */
  strict: boolean;
  key: string;
  /** Tool calls still watched: instructions followed much later are not tied to the passage. */
  callsLeft: number;
}

const INSTRUCTIONS_MAX = 10;
const INSTRUCTION_WINDOW = 2_000;
const INSTRUCTION_CALLS = 100;

export const INJECTION_RULES: Rule[] = [
  {
    metas: [injectionText, hiddenUnicode, riskyAfterInjection, instructionFollowed],
    create(ctx) {
      // What the agent did after the injected text must have taken effect: a download that could
      // not resolve its host fetched nothing (issue 25, effects). Refused or failed: an attempt.
      const outcomes = new Outcomes(ctx, [injectionText, hiddenUnicode, riskyAfterInjection, instructionFollowed]);
      const report: Reporter = (event, fx, draft) => outcomes.report(event, fx.net.length > 0 ? 'network' : 'run', draft);
      const written = new Set<string>();
      /** Files the agent wrote whole (a write tool's new file or rewrite): every line of them is its own. */
      const wroteWhole = new Set<string>();
      // injection-like phrases the agent itself wrote (test fixtures for a prompt-injection filter, a script that prints them)
      const authored = new Set<string>();
      let pending: Pending | null = null;
      let instructions: Instructions[] = [];
      const contacted = new Set<string>();
      let lastPrompt = '';
      return {
        onEvent(event, facts) {
          outcomes.onEvent(event);
          if (event.kind === 'prompt' && !event.synthetic) lastPrompt = event.text.slice(0, 10_000).toLowerCase();
          if (event.kind === 'tool_call') {
            const fx = effectsOf(event, facts, ctx.session);
            const risky = pending ? checkAction(ctx, report, event, facts, fx, pending) : false;
            if (pending) pending = pending.callsLeft <= 1 ? null : { ...pending, callsLeft: pending.callsLeft - 1 };
            if (!risky && instructions.length > 0) instructions = checkFollowed(report, event, facts, fx, instructions, lastPrompt);
            for (const w of fx.writes) addCapped(written, w.abs, WRITTEN_MAX);
            // a file written whole is the agent's once the write took effect (its result, below); a
            // command that writes it after (`curl … >> CHANGELOG.md`) puts text of others into it
            if (event.input.type === 'command') for (const w of fx.writes) wroteWhole.delete(w.abs);
            for (const n of fx.net) addCapped(contacted, n.host, WRITTEN_MAX);
            // only text that went into files: an echo's words come back in its own output (ownWords)
            if (fx.writes.length > 0) for (const phrase of phrasesIn(authoredText(event))) addCapped(authored, phrase, WRITTEN_MAX);
            return;
          }
          if (event.kind !== 'tool_result') return;
          const scan = shouldScan(event, facts, written, wroteWhole, ctx.session);
          if (facts.call?.input.type === 'file_write' && !event.denied && !event.isError) for (const w of effectsOf(facts.call, facts, ctx.session).writes) addCapped(wroteWhole, w.abs, WRITTEN_MAX);
          if (!scan) return;
          // (no phrase of the agent's own yet, the usual case: both choices are empty, the call is not read)
          const found = scanOutput(ctx, event, facts, authored.size > 0 && (runsOwnCode(facts.call, written) || echoesChange(facts.call)) ? authored : NONE_AUTHORED);
          if (found) {
            pending = found.pending ?? pending;
            if (found.instructions) {
              // The page's own host, and hosts the session used before it, are no instruction to follow.
              const named = found.instructions.named;
              named.hosts = named.hosts.filter((h) => !contacted.has(h));
              if (!isEmpty(named)) pushCapped(instructions, found.instructions, INSTRUCTIONS_MAX);
            }
          }
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
  {
    metas: [agentConfigEdit],
    create(ctx) {
      // Any request in force, not only the last prompt: "write an AGENTS.md" in the opening brief
      // covers the file however many prompts later it is written (issue 25: the user's words).
      const requests = requestsOf(ctx.session);
      // Once the user asked for an instruction file, follow-up edits of it ("tweak the above") are theirs too.
      const requested = new Set<string>();
      // A change needs the write to have happened: a write the harness refused changed nothing.
      const outcomes = new Outcomes(ctx, [agentConfigEdit]);
      const created = new CreatedPaths(ctx.session);
      const moves = new MovedPaths();
      // instruction files whose own text, as the session read it, orders that they be kept up to date
      const upkeep = new SelfUpkeep();
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          const fx = effectsOf(event, facts, ctx.session);
          upkeep.onEvent(event, fx);
          if (event.kind === 'tool_call') for (const loc of fx.commands) created.onCommand(loc);
          if (event.kind === 'tool_call') moves.onCall(event.callId, fx.commands, ctx.session);
          if (event.kind === 'tool_result') moves.onResult(event);
          for (const w of fx.writes) {
            // Hook scripts are code the harness runs where settings register it (permissions
            // reports the registration), not text that instructs the model.
            if (!isAgentInstructionFile(w.abs) || isAgentSettingsFile(w.abs) || isAgentHookPath(w.abs)) continue;
            const plain = !findInjection(w.added) && !findHidden(w.added);
            // a file of a kind the request asked to make, new and holding nothing instruction-like
            const kind = plain && (w.kind === 'create' || w.kind === 'write') ? KIND_ASKED.find((k) => k.path.test(w.abs)) : undefined;
            const servers = /"hooks"\s*:|\[hooks/.test(w.added) ? [] : mcpServersAdded(w.added, w.removed ?? '');
            const asked = requested.has(w.abs) || whoAsked(requests.for(event), (t) => requestNamesFile(t, w.path) || namesFile(t, w.path) || (isMemoryFile(w.abs) && ASKS_TO_REMEMBER.test(t)) || (plain && !ORDER_LINE.test(w.added) && projectMemoryFile(w) && (ASKS_SESSION_MEMORY.test(t) || carriesOverInCjk(t))) || (kind !== undefined && kind.words.test(t)) || asksForServers(t, servers) || (plain && asksAgentSetup(t, w.abs)) || (plain && asksToCarryOver(t, w)) || (plain && asksOfAllAgents(t, w.abs))) !== null;
            if (asked) addCapped(requested, w.abs, WRITTEN_MAX);
            // Claude Code's auto-memory is the harness's own feature for notes to later sessions:
            // a note is context, unless what it says reads like an injected instruction.
            const memory = !asked && plain && isMemoryFile(w.abs);
            // A template the session cloned for new work (`git clone …template my-app`) brings its
            // own AGENTS.md or CLAUDE.md: rewriting those for the new project is setting it up, not
            // changing what earlier sessions relied on. Under the clone, or where a capture names
            // the file without its folder after a clone (a terminal shows `Write(AGENTS.md)`).
            const scaffold = !asked && !memory && plain && (created.inClone(w.abs) || (created.cloned && w.zone === 'unknown' && !w.path.includes('/')));
            // `sed -i 's|build_qemu\.sh|scripts/build_qemu.sh|g' setup.sh CLAUDE.md docs/…`: a name
            // replaced by another across several files, the instruction file one of them — the
            // references follow a rename or a move; nothing new was written in.
            // `git mv plugins/entire/skills skills`, then `@./plugins/entire/skills/x.md` → `@./skills/x.md`
            // in the instruction file: the same kind of change, one reference following the move
            const renamed = !asked && !memory && !scaffold && plain && w.cmd !== undefined && renamesReferences(w.cmd);
            const moved = !asked && !memory && !scaffold && !renamed && plain && w.kind === 'edit' ? moves.followed(w.removed ?? '', w.added) : null;
            // "Always update CLAUDE.md after completing a task" in that very file, read in this session:
            // the user's standing order for it (only for text with nothing instruction-like in it)
            const ordered = !asked && !memory && !scaffold && !renamed && moved === null && plain && !ORDER_LINE.test(w.added) && upkeep.orders(w.abs);
            const quiet = asked || memory || scaffold || renamed || moved !== null || ordered;
            const draft: FindingDraft = {
              rule: agentConfigEdit.id,
              severity: quiet ? 'info' : 'warning',
              title: asked ? 'Agent instruction file modified (as requested)' : memory ? 'Agent memory note written' : scaffold ? 'Instruction file of a cloned template rewritten' : renamed ? 'Names in an instruction file replaced across files' : moved ? 'Reference in an instruction file follows a move' : ordered ? 'Instruction file kept up to date, as it orders' : undefined,
              detail: `${w.kind === 'create' ? 'Created' : 'Changed'} ${safe(w.path, facts, QUOTE_MAX)}, which instructs agents in later sessions${asked ? '; the user asked for it' : memory ? ', through the agent\'s own memory feature; the note holds no instruction-like text' : scaffold ? ', in a project this session cloned from a template and is setting up; the text holds nothing instruction-like' : renamed ? ': one name replaced by another in it and in other files alike (references following a rename or a move), no new text' : moved ? `: its references to ${safe(moved[0], facts, 80)} now name ${safe(moved[1], facts, 80)}, where the session moved it, and nothing else changed` : ordered ? ': the file itself, as the session read it, orders that it be kept up to date, and the new text holds nothing instruction-like' : ''}.`,
              evidence: [evidence(event, w.cmd?.text ?? describeCall(fx.call!) + (w.added ? `: ${w.added}` : ''), facts)],
              key: quiet ? `${w.abs} (info)` : w.abs,
              // Codex's default sandbox writes the workspace without asking: skipped approvals let nothing through here
              ...(ctx.session.agent === 'codex' && w.zone === 'worktree' ? { sandboxAllows: true as const } : {}),
              // the unasked changes of the session's instruction files are one finding: several files
              // rewritten in one turn are one step, and one file edited turn after turn is one target
              ...(quiet ? {} : { cause: { id: 'instruction-files', summary: 'Instruction files that agents read in later sessions were changed, unasked (each change is in the evidence).' } }),
            };
            outcomes.report(event, 'write', draft, w.abs);
          }
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
];

/**
 * Instruction files whose own text orders their upkeep ("Always update CLAUDE.md after completing
 * a task", "Keep this file up to date"), learned from what a read of that very file returned: the
 * order names the file itself (by its name, or "this file"). Another file's order to edit it is
 * not the same: that is how an injected text would reach the user's global instructions.
 */
class SelfUpkeep {
  private readonly reads = new Map<string, string>();
  private readonly ordering = new Set<string>();

  onEvent(event: NormEvent, fx: Effects): void {
    if (event.kind === 'tool_call') {
      const read = fx.reads.length === 1 && isAgentInstructionFile(fx.reads[0]!.abs) ? fx.reads[0]!.abs : null;
      if (read && this.reads.size < MOVES_MAX) this.reads.set(event.callId, read);
      return;
    }
    if (event.kind !== 'tool_result') return;
    const abs = this.reads.get(event.callId);
    this.reads.delete(event.callId);
    if (!abs || event.isError || event.denied || this.ordering.size >= MOVES_MAX) return;
    const name = escapeRegExp(abs.replace(/^.*[\\/]/, ''));
    const order = new RegExp(String.raw`(?<!\b(?:never|not|don'?t|do\s+not|no\s+need\s+to)\s+(?:always\s+|please\s+)?)\b(?:always\s+|please\s+)?(?:update|maintain|keep)\s+(?:this\s+file|${name})\b(?:\s+(?:up[\s-]to[\s-]date|current|updated)\b|[^.\n]{0,40}\b(?:after|when|whenever|each|every|as\s+you)\b)`, 'i');
    if (order.test(event.output.slice(0, 100_000))) this.ordering.add(abs);
  }

  orders(abs: string): boolean {
    return this.ordering.has(abs);
  }
}

/**
 * Paths the session moved or renamed inside the project (`mv a b`, `git mv a b`: both relative, both
 * in the working tree where the command ran), as the commands wrote them; a move counts once its
 * call succeeded (not refused, failed or a dry run).
 */
class MovedPaths {
  private readonly pairs: Array<[string, string]> = [];
  private readonly pending = new Map<string, Array<[string, string]>>();

  onCall(callId: string, commands: readonly Located[], session: SessionFacts): void {
    const found: Array<[string, string]> = [];
    for (const { cmd, dir } of commands) {
      const git = cmd.name === 'git' && cmd.args[0] === 'mv';
      const args = git ? cmd.args.slice(1) : cmd.name === 'mv' ? cmd.args : null;
      // git mv's -n is a dry run; mv's -n only declines to overwrite, and the move happens
      if (!args || args.some((a) => (git && /^-[a-zA-Z]*n|^--dry-run/.test(a)) || /^-[a-zA-Z]*t|^--target-directory/.test(a))) continue;
      const operands = args.filter((a) => !a.startsWith('-'));
      if (operands.length !== 2 || operands.some((o) => /^(?:[/~$%]|[A-Za-z]:)/.test(o) || locate(o, dir, session).zone !== 'worktree')) continue;
      const [from, to] = operands.map(asReference) as [string, string];
      if (from.length >= 3 && to !== '' && from !== to) found.push([from, to]);
    }
    if (found.length > 0) setCapped(this.pending, callId, found, MOVES_MAX);
  }

  onResult(event: ToolResultEvent): void {
    const found = this.pending.get(event.callId);
    this.pending.delete(event.callId);
    if (found && !event.isError && !event.denied && this.pairs.length < MOVES_MAX) this.pairs.push(...found);
  }

  /** The move whose new place the edit's only change points references to, or null when the edit changed anything else. */
  followed(removed: string, added: string): [string, string] | null {
    if (!removed.trim() || !added.trim() || removed === added) return null;
    return this.pairs.find(([from, to]) => removed.includes(from) && removed.split(from).join(to) === added) ?? null;
  }
}
const MOVES_MAX = 500;

/** A path as text refers to it: no leading `./`, no trailing slash. */
function asReference(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/+$/, '');
}

/**
 * "claude mcp add sorftime -- npx mcp-remote https://mcp.sorftime.com/mcp": a request that speaks of
 * MCP and names every server added (the servers' own lines are checked by serverVouched).
 */
function asksForServers(request: string, servers: readonly { name: string; block: string }[]): boolean {
  if (servers.length === 0) return false;
  const lower = request.toLowerCase();
  const mcp = /\bmcp\b/i.test(request);
  // …or a server whose name of several words the request says as words ("make the syntehtic log
  // generator available globally" for synthetic-log-generator): that server, asked for by name
  // …or, without the word "MCP", a request to add or connect a server it names, whose package or
  // host it names too ("add context7 to claude: npx -y @upstash/context7-mcp"): addsNamed
  return servers.every((s) => ((mcp || addsNamed(request, s.name)) && new RegExp(`(?:^|[^\\w-])${s.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^\\w-])`).test(lower) && serverVouched(lower, s.block)) || (s.name.split(/[-_.]/).filter(Boolean).length >= 2 && namesFile(request, s.name)));
}

/**
 * A sentence that asks to add the server it names: an adding verb a few words before the name
 * ("add context7 to claude", "connect docs: https://…"), or in another language in the same
 * sentence; not held back ("don't add docs back"), not a removal ("remove docs …, then install the deps").
 */
function addsNamed(request: string, name: string): boolean {
  const n = escapeRegExp(name);
  const near = new RegExp(`\\b(?:add|install|set ?up|configure|connect|register|enable|hook up|integrate)\\s+(?:[^\\s.!?]+\\s+){0,3}?${n}(?![\\w-])`, 'i');
  return request.slice(0, 10_000).split(/(?<=[.!?。！？])\s+|\n+|[;；]/).some((s) => {
    if (/\b(?:don'?t|do not|never|not|no longer|remove|delete|uninstall|drop)\b|不要|别|删除|삭제|削除/i.test(s)) return false;
    return near.test(s) || (FOREIGN_ADD.test(s) && new RegExp(`(?<![\\w-])${n}(?![\\w-])`, 'i').test(s));
  });
}
const FOREIGN_ADD = /添加|安装|配置|接入|추가|설치|追加|インストール|agrega|añade|instala|ajoute|installe|добав|установ|подключ/i;

/** What a server runs is what the request said: the host of its URL, or a package or program other than a shell named in the request. */
function serverVouched(request: string, block: string): boolean {
  const host = /"(?:url|httpUrl|serverUrl)"\s*:\s*"https?:\/\/([^/"?:\s]+)/i.exec(block)?.[1]?.toLowerCase();
  if (host) return request.includes(host);
  const command = /"command"\s*:\s*"([^"]+)"/.exec(block)?.[1]?.toLowerCase().replace(/^.*[\\/]/, '') ?? '';
  if (/^(?:bash|sh|zsh|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)$/.test(command)) return false;
  const words = [...block.matchAll(/"([@\w./:-]{3,120})"/g)].map((m) => m[1]!.toLowerCase()).filter((w) => !/^(?:command|args|env|type|stdio|http|sse|url|-y|--yes)$/.test(w));
  return words.some((w) => w.length >= 4 && request.includes(w));
}

/** A name or path: no spaces, only the characters file names are made of, a dot escaped at most (`run_e2e\.sh`). */
const NAME_LIKE = /^(?:[\w./-]|\\\.){2,120}$/;

/**
 * `sed -i` whose every script is a substitution of one name by another (`s|hybrid_qemu|QEMU|g`,
 * `s/run_e2e\.sh/scripts\/run_e2e.sh/g`), over two files or more: a reference renamed wherever it
 * appears. A substitution that writes words, spaces or several lines is an edit, not a rename.
 */
export function renamesReferences(cmd: SimpleCommand): boolean {
  if (cmd.name !== 'sed' || !cmd.args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return false;
  // -n prints nothing back (the file is emptied), -f reads a script we cannot see
  if (cmd.args.some((a) => /^-[a-zA-Z]*[nf]/.test(a) || a.startsWith('--expression=') || a.startsWith('--file') || a === '--quiet' || a === '--silent')) return false;
  const scripts: string[] = [];
  const files = new Set<string>();
  for (let i = 0; i < cmd.args.length; i++) {
    const a = cmd.args[i];
    if (a === '-e' || a === '--expression') scripts.push(cmd.args[++i] ?? '');
    else if (a.startsWith('-')) continue;
    else if (scripts.length === 0 && !cmd.args.slice(0, i).some((x) => x === '-e' || x === '--expression')) scripts.push(a);
    else if (!a.startsWith('/dev/')) files.add(a);
  }
  if (files.size < 2 || scripts.length === 0) return false;
  return scripts.every((script) => script.split(/;\s*/).filter((x) => x.trim() !== '').every(isNameSubstitution));
}

function isNameSubstitution(script: string): boolean {
  const m = /^\s*s(.)/.exec(script);
  if (!m || /[\w\s\\]/.test(m[1])) return false;
  // split on the delimiter where it is not escaped (`s/run_e2e\.sh/scripts\/run_e2e.sh/g`)
  const d = m[1];
  const parts = script.trim().slice(2).split(new RegExp(`(?<!\\\\)${d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  if (parts.length !== 3 || !/^g?$/.test(parts[2])) return false;
  const unescape = (x: string) => x.split(`\\${d}`).join(d);
  return NAME_LIKE.test(unescape(parts[0])) && NAME_LIKE.test(unescape(parts[1]));
}

/**
 * Instruction files that are one of many of a kind, and the words of a request for that kind:
 * "save prompts for many subagents" asks for the files in `.claude/agents/`, "make a slash command"
 * for `.claude/commands/` (in English and a few other
 * languages; the kind's own word, not a file name, is what people say).
 */
/** A verb that makes something: "create", "add", "save", "write", "make", "set up", "define". */
const MAKE = String.raw`\b(?:create|add|save|write|make|set\s+up|define|build)\b`;
const KIND_ASKED: ReadonlyArray<{ path: RegExp; words: RegExp }> = [
  { path: /(?:^|\/)\.claude\/agents\/[^/]+\.md$/, words: new RegExp(String.raw`${MAKE}[^.\n]{0,40}\bsub-?agents?\b|\bsub-?agents?\b[^\n]{0,60}?\b(?:save|write|create|define)\w*\s+(?:their\s+|the\s+)?prompts?\b|(?:创建|保存|新建)[^。\n]{0,10}子代理|サブエージェント[^。\n]{0,10}(?:作成|保存)`, 'i') },
  { path: /(?:^|\/)\.(?:claude|gemini)\/commands\/[^/]+\.(?:md|toml)$/, words: new RegExp(String.raw`${MAKE}[^.\n]{0,40}\b(?:slash[- ]commands?|custom commands?)\b|${MAKE}[^.\n]{0,40}\bcommands?\s+(?:that\s+)?(?:i|we)\s+can\s+(?:call|run|invoke|type|use)\b|(?:创建|新建)[^。\n]{0,10}斜杠命令|スラッシュコマンド[^。\n]{0,10}作成`, 'i') },
];

/**
 * "Import this project for use with Codex", "set the repo up for Claude Code": a request to make a
 * project ready for an agent asks for that agent's instruction file (AGENTS.md for Codex, CLAUDE.md
 * for Claude Code, GEMINI.md for Gemini CLI), the one thing that setup consists of.
 */
const AGENT_SETUP = /\b(?:set\s*(?:it\s+|this\s+|the\s+\w+\s+)?up|setup|import|configure|prepare|adapt|migrate|onboard|init(?:iali[sz]e)?)\b[^.\n]{0,80}?\b(?:for|with|to|into)\s+(?:use\s+(?:with|by|in)\s+)?(codex|claude(?:\s+code)?|gemini(?:\s+cli)?)\b/i;
const AGENT_FILE: Record<string, RegExp> = { codex: /(?:^|\/)AGENTS\.md$/i, claude: /(?:^|\/)CLAUDE\.md$/i, gemini: /(?:^|\/)GEMINI\.md$/i };
function asksAgentSetup(request: string, abs: string): boolean {
  const m = AGENT_SETUP.exec(request.slice(0, 10_000));
  if (!m) return false;
  // "don't set this up for codex": a refusal in the same sentence asks for nothing
  const from = Math.max(request.lastIndexOf('.', m.index), request.lastIndexOf('\n', m.index), 0);
  if (/\b(?:don'?t|do not|never|no need to|without)\b/i.test(request.slice(from, m.index + m[0].length))) return false;
  const agent = m[1]!.toLowerCase().split(/\s+/)[0]!;
  return AGENT_FILE[agent]?.test(abs) === true;
}

// ---- did the request name the instruction file? ----------------------------------------------

// How people (and speech-to-text) spell the instruction files when they ask for an edit:
// "CloudMD", "Claude MD", "claude.md", "update your gemini md", "add this to agents.md". Loose
// spellings count only together with "md"; the correct name also counts with a word for a file
// ("the claude file", "gemini instructions"). Names not listed here must be given exactly.
interface FileName {
  /** The name as spelled correctly (regex). */
  name: string;
  /** Also accepted when followed by "md" (regex). */
  misspelt?: string;
  /** The file is a .md file: "md" may follow the name. */
  md: boolean;
}
const FILE_NAMES: Record<string, FileName> = {
  claude: { name: 'claude', misspelt: 'cloud|claud|clawd|clade|cluade|calude', md: true },
  'claude.local': { name: 'claude[\\s._-]?local', misspelt: '(?:cloud|claud)[\\s._-]?local', md: true },
  agents: { name: 'agents?', misspelt: 'agence|agens', md: true },
  agent: { name: 'agents?', md: true },
  gemini: { name: 'gemini', misspelt: 'gemeni|gemni|gemin[iy]?|jemini', md: true },
  'copilot-instructions': { name: 'copilot[\\s._-]?instructions?', md: true },
  cursorrules: { name: 'cursor[\\s._-]?rules', md: false },
  windsurfrules: { name: 'windsurf[\\s._-]?rules', md: false },
  clinerules: { name: 'cline[\\s._-]?rules', md: false },
  mcp: { name: 'mcp', md: false },
};
const FILE_WORD = "['’]?s?[\\s._-]?(?:file|instructions?|config|rules|memory|guidelines)\\b";
// Whatever the file, a request that says which kind of file it is asks for it too, and so does one
// that asks for a rule every later session keeps ("save it as a root rule for all AI sessions",
// "write this as a systematic rule"): only an instruction file carries one there.
const GENERIC_REQUEST = /\b(?:instructions?|memory|rules)\s+file\b|\bagent(?:['’]s)?[\s_-]+(?:context|file|instructions)\b|update-agent-context|\b(?:to|in|into)\s+your\s+memory\b|\b(?:update|amend|adjust)\s+(?:your|yuor|yoru|yorur|yur|youre|ur|the|our)\s+memory\b(?![\s-]+(?:limits?|usage|leaks?|size|footprint|allocation|pressure|requests?|reservations?|settings?|config\w*|cache\w*|store|module|threshold|view|bank|model|pool|map|layer|service|db|database)\b)|(?:^|\W)\/(?:init|memory)\b|\byour\s+(?:own\s+)?(?:rules|instructions|principles|guidelines|ground\s+rules)\b|你的(?:铁律|规则|规矩|原则|准则|指令|守则)|あなたの(?:ルール|指示|原則)|너의\s*(?:규칙|지침|원칙)|당신의\s*(?:규칙|지침|원칙)|\brules?\s+for\s+(?:all|every|each|future|later)\s+(?:(?:ai|claude|codex|gemini|agent|new|other|future|later|of\s+(?:the|my|your))\s+){0,2}(?:sessions?|chats?|conversations?)\b|\brules?\s+for\s+(?:all\s+)?(?:future|later|new)\s+(?:ai\s+)?agents?\b/i;
/** A request for every Markdown file of the project ("update any md files", "all the markdown docs"). */
const ANY_MARKDOWN = /\b(?:any|all|every|each)\s+(?:of\s+)?(?:the\s+|our\s+|relevant\s+)?(?:\.?md|markdown)\s+(?:files?|docs?|documents?)\b/i;
/** A standing rule: a rule every later session keeps. */
const STANDING = '(?:root|global|system[\\s-]?wi(?:de|se)|syste?m?atic|systmatic|permanent|standing)';
/**
 * Asked to keep something as a standing rule: saved or written "as" / "into" such a rule ("save it
 * as root rule", "write this as systmatic rule", "into system wise rules"), or such a rule with
 * the agent or its sessions in the same sentence. "A global rule in the nginx config" or "the
 * :root rule in globals.css" is a rule of the code.
 */
const SAVED_AS_RULE = new RegExp(`\\b(?:save|write|keep|add|make|put|record|store|turn)\\b[^.?!\\n]{0,60}?\\b(?:as|into)\\s+(?:an?\\s+|the\\s+)?${STANDING}\\s+rules?\\b`, 'i');
const SAVED_AS_A_RULE = /\b(?:save|write|keep|remember|make|record|store)\b[^.?!\n]{0,40}?\bas\s+(?:an?\s+|your\s+)?rules?\b(?!\s*(?:in|to|of)\s)/i;
const STANDING_RULE = new RegExp(`(?<![:\\w-])${STANDING}\\s+rules?\\b`, 'i');
const AGENT_WORD = /\b(?:ai|claude|codex|gemini|agents?|llm)\b|\b(?:ai|claude|codex|gemini|agent|future|later|all)\s+(?:sessions?|chats?)\b/i;

function asksForStandingRule(text: string): boolean {
  return sentencesAsking(text).flatMap((t) => t.split(/[.?!。！？\n]+/)).some((s) => SAVED_AS_RULE.test(s) || (SAVED_AS_A_RULE.test(s) && AGENT_WORD.test(s)) || (STANDING_RULE.test(s) && AGENT_WORD.test(s)));
}

/**
 * Whether a prompt asks for this instruction file: its exact name anywhere, the name spelled
 * loosely (any case, space/dot/dash between parts, ".md" optional, common misspellings with
 * "md"), or a plain "instructions file" / "memory" / `/init` request.
 */
export function requestNamesFile(prompt: string, path: string): boolean {
  if (!prompt) return false;
  const text = prompt.length > 10_000 ? prompt.slice(0, 10_000) : prompt;
  const base = basename(path).toLowerCase();
  if (text.toLowerCase().includes(base)) return true;
  if (GENERIC_REQUEST.test(text) || asksForStandingRule(text)) return true;
  // "update any md files on changes": every Markdown file, the instruction files among them
  if (base.endsWith('.md') && sentencesAsking(text).some((s) => ANY_MARKDOWN.test(s))) return true;
  const stem = /^\.?(.+?)(?:\.md|\.json)?$/.exec(base)?.[1] ?? base;
  const f = FILE_NAMES[stem];
  if (!f) return false;
  const md = f.md ? '[\\s._-]?md\\b' : '';
  const spelled = f.misspelt ? `${f.name}|${f.misspelt}` : f.name;
  const patterns = [`\\b(?:${spelled})${md}`, `\\b(?:${f.name})${FILE_WORD}`];
  // A name that is no common word ("cursor rules", "mcp") names the file on its own.
  if (!f.md) patterns.push(`\\b(?:${f.name})\\b`);
  return new RegExp(patterns.join('|'), 'i').test(text);
}

/**
 * "Can this conversation continue in tcxQTMRT?", "지금 대화내용, tcxQTMRT에서 이어지도록": a request
 * that this conversation's context carry over into a folder it names asks for the note an agent
 * reads when it starts there — a new instruction file in that folder (its name a whole path
 * segment in the request), holding no order (always, never, without asking, force, skip). A plain
 * "let's continue where we left off" resumes work: it asks for no note.
 */
const CARRY_OVER = /\b(?:continue|carry(?:ing)?\s+(?:it\s+)?over|pick(?:s|ed)?\s+up|resume|hand\s+(?:it\s+)?over)\b[^.?!\n]{0,40}\b(?:this|our|the\s+current)\s+(?:conversation|context|chat)\b|\b(?:this|our|the\s+current)\s+(?:conversation|context|chat)\b[^.?!\n]{0,40}\b(?:continue[sd]?|carr(?:y|ied)\s+over|pick(?:ed)?\s+up|resumed?)\b|(?:지금|이)\s*(?:대화|맥락)[^.?!\n]{0,30}이어|(?:这次|当前|这个)(?:对话|会话|上下文)[^。？！\n]{0,20}(?:继续|延续|接着)|(?:この|今の)(?:会話|文脈)[^。？！\n]{0,20}(?:続け|引き継)/i;
/** A line of a note that orders the agent rather than tells it where things stand. */
const ORDER_LINE = /\b(?:always|never|must|without\s+(?:asking|confirmation|approval|checking)|no\s+need\s+to\s+(?:ask|check|confirm|wait)|(?:don'?t|do\s+not)\s+(?:ask|wait|check|confirm)|skip|bypass|ignore|auto-?approve)\b|--force\b|--no-verify\b|\bforce[- ]push\b|\b(?:npm|pnpm|yarn|cargo)\s+publish\b|\bdeploy\b|\bpush\s+to\s+(?:main|master|production)\b/i;

/**
 * "make every agent read context/memos/", "各エージェントのタスク項目を洗い出し…", "全エージェントが読み込む
 * ように": a request about all (or each) of the user's agents is a request to change their
 * definition files (`.claude/agents/*.md`, `.codex/agents/*`, `.gemini/agents/*`), not the
 * project's instruction files.
 */
function asksOfAllAgents(request: string, abs: string): boolean {
  if (!AGENT_DEFINITION.test(abs)) return false;
  return sentencesAsking(request).flatMap((t) => t.split(/(?<=[.!?。！？])\s*|\n+/)).some((s) => ALL_AGENTS.test(s) && CHANGE_ORDER.test(s) && !/\?\s*$|？\s*$/.test(s) && !/\b(?:don'?t|do not|never|no need to|without)\b|不要|别|しないで/i.test(s));
}
const AGENT_DEFINITION = /[\\/]\.(?:claude|codex|gemini)[\\/]agents[\\/][^\\/]+$/;
// the agents as a whole (not "each agent class in src/agents/": code)
const ALL_AGENTS = /\b(?:all|every|each)\s+(?:of\s+(?:the|my|our)\s+)?(?:(?:sub-?)?agents?|team\s+members)\b(?!\s+(?:class|classes|file|files|module|modules|type|types|test|tests)\b)|(?:全|各|すべての|全部の)エージェント|所有(?:的)?(?:智能体|agent)|每个(?:智能体|agent)|모든\s*에이전트|각\s*에이전트/i;
// an order that changes how they work: make them do something, update them, have them read …
const CHANGE_ORDER = /\b(?:make|update|change|configure|set\s+up|ensure|teach|require|instruct)\s+(?:(?:all|every|each)\s+(?:of\s+(?:the|my|our)\s+)?(?:sub-?)?agents?|them)\b|\b(?:should|must|need\s+to)\s+(?:always\s+)?(?:read|load|use|follow|include|check|consult|reference|start|run|write|report|know)\b|ように(?:して|する|設定)|させて|反映|让(?:所有|每个)|要求|하도록|반영/i;

function asksToCarryOver(request: string, w: FileOp): boolean {
  if (w.kind === 'edit' || ORDER_LINE.test(w.added)) return false;
  const text = request.length > 10_000 ? request.slice(0, 10_000) : request;
  if (!CARRY_OVER.test(text)) return false;
  const dir = w.abs.replace(/\\/g, '/').replace(/\/[^/]*$/, '');
  const folder = dir.slice(dir.lastIndexOf('/') + 1);
  return folder.length >= 4 && new RegExp(`(?<![\\w.-])${escapeRegExp(folder)}(?![\\w-])`, 'i').test(text);
}

/**
 * A request to make memory that carries over to the user's later sessions with the agent ("create
 * some memory here so when we come back to a session we start from where we left off", "keep a
 * memory between our sessions"): the agents keep such memory in the project's instruction file,
 * so writing it there is what was asked. An app's feature ("persist the cart across sessions",
 * "remember where the user left off") makes no memory of the agent's.
 */
const ASKS_SESSION_MEMORY = /\b(?:create|make|add|keep|save|set\s+up|build|have|write(?:\s+down)?|store)\s+(?:(?:some|a|an|your|the|our|project|session)\s+){0,2}(?:memory|memories)\b[^.?!\n]{0,100}\b(?:(?:we|i|you)\s+(?:come\s+back|return|start\s+(?:a\s+)?new\s+(?:session|conversation|chat)|pick\s+up)|(?:next|new|later|future)\s+(?:session|conversation|chat)s?|(?:between|across)\s+(?:our\s+)?(?:sessions|conversations|chats)|(?:where|what)\s+(?:we|i|you)\s+left\s+off)\b/i;
/**
 * "내일 이어서 할수있게 … 작업내용 상세히 정리하고 세션 유지해서", "明日続けられるように作業内容をまとめて",
 * "把工作进度记录下来，明天继续": in Korean, Japanese or Chinese, a line that asks to carry the work over
 * to a later session and to write the work down (the work's own noun beside a word for recording
 * it — "정리해줘" alone is tidying code). Line by line, each test linear.
 */
function carriesOverInCjk(request: string): boolean {
  // (not held back — "不要记录", "記録しないで", "기록하지 마" —, and not into another file named on the line)
  return request.slice(0, 10_000).split('\n').some((line) => !/不要|别|しないで|하지\s*마|않|[\w.-]+\/[\w./-]*\.md\b/.test(line) && CJK_CARRY.some(([later, noted]) => later.test(line) && noted.test(line)));
}
const CJK_CARRY: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/(?:내일|다음에|나중에|다음\s*세션)[^.\n]{0,30}(?:이어서|계속)|세션\s*유지/, /(?:작업|진행|세션)\s*(?:내용|상황|사항)?[^\n]{0,20}(?:정리|기록|저장|메모)/],
  [/(?:明日|次回)[^。\n]{0,20}続け|続きから|セッションを(?:維持|保持)/, /(?:作業|進捗|セッション)(?:内容|状況)?[^\n]{0,15}(?:まとめ|記録|保存|メモ)/],
  [/(?:明天|下次)[^。\n]{0,10}(?:继续|接着)|保持会话/, /(?:工作|进度|进展|会话)(?:内容|情况)?[^\n]{0,10}(?:总结|记录|保存|整理)|(?:总结|记录|保存|整理)[^\n]{0,10}(?:工作|进度|进展)/],
];

/**
 * The project's own memory file: CLAUDE.md, AGENTS.md or GEMINI.md in the working tree (or, where
 * a capture names no folder, one written by its bare name) — not another project's, nor the global one.
 */
function projectMemoryFile(w: FileOp): boolean {
  return MEMORY_FILE_NAME.test(w.abs) && (w.zone === 'worktree' || (w.zone === 'unknown' && !/[\\/]/.test(w.path)));
}
/** The agents' own memory files: what they read at the start of every session. */
const MEMORY_FILE_NAME = /(?:^|[\\/])(?:CLAUDE(?:\.local)?|AGENTS|GEMINI)\.md$/i;
/** Claude Code's per-project memory (`~/.claude/projects/<p>/memory/`): "remember …" asks for it. */
const ASKS_TO_REMEMBER = /\b(remember|memori[sz]e|keep in mind for (later|next time)|save (this|that) for (later|next time))\b/i;
function isMemoryFile(abs: string): boolean {
  return /\/\.claude\/projects\/[^/]+\/memory\//.test(abs);
}

/**
 * A search over several files prints each match behind its file's name (`~/.codex/models_cache.json:12:…`):
 * a match in the harness's own data or an instruction file is the harness speaking, as a read of
 * that file would be (shouldScan).
 */
function inOwnFile(text: string, at: number, session: SessionFacts): boolean {
  const line = text.slice(text.lastIndexOf('\n', at) + 1, at);
  const file = /^((?:[A-Za-z]:)?[^\s:]{1,400}):(?:\d+[:-])?/.exec(line)?.[1];
  // the harness's own data under home only (a models cache, transcripts): an AGENTS.md anywhere is anyone's
  return file !== undefined && file.includes('/') && isAgentOwnData(file, session.home);
}

/**
 * A program's own usage text (`serena --help` lists "print-system-prompt  Print the system prompt"):
 * it documents the program's commands to whoever runs it, it instructs no model. Hidden characters
 * there are still looked for.
 */
function helpText(call: ToolCallEvent | undefined, session: SessionFacts, output: string): boolean {
  if (!call || call.input.type !== 'command' || !USAGE_TEXT.test(output.slice(0, 4_000))) return false;
  const commands = effectsOf(call, { secrets: [], shell: undefined }, session).commands;
  // an interpreter given code to run (`python3 -c "…" --help`) runs it: its output is that code's
  return commands.length > 0 && commands.every((l) => (asksForInfo(l.cmd) && !INLINE_CODE.test(l.cmd.text)) || (/^(?:head|tail|less|more|cat|grep|rg)$/.test(l.cmd.name) && l.cmd.pipeIndex > 0));
}
/** What usage text looks like near its start. */
const USAGE_TEXT = /^\s*(?:usage|options|commands|subcommands|arguments)\s*:/im;
const INLINE_CODE = /(?:^|\s)(?:python[\d.]*|node|deno|bun|ruby|perl|php|sh|bash|zsh)\s+(?:\S+\s+)*?-(?:c|e|m|-eval)\b/;

/** A search over files (rg, grep, ag, a search tool), whose output prints each match behind its file. */
function searches(call: ToolCallEvent | undefined): boolean {
  if (!call) return false;
  if (call.input.type === 'search') return true;
  return call.input.type === 'command' && /^\s*(?:rg|grep|egrep|fgrep|ag|ack|git\s+grep)\b/.test(call.input.command);
}

/** Skip outputs that would only echo the agent's own words: its files, instruction files, its search term. */
function shouldScan(event: ToolResultEvent, facts: EventFacts, written: Set<string>, wroteWhole: Set<string>, session: SessionFacts): boolean {
  if (!event.output || event.denied) return false;
  const call = facts.call;
  if (!call) return true;
  const fx = effectsOf(call, { secrets: [], shell: undefined }, session);
  // the agent's own files, instruction files, and the harness's own data (a models cache holds the
  // model's base instructions: "never tell the user to save this file" is the harness speaking)
  if (fx.reads.length > 0 && fx.reads.every((r) => written.has(r.abs) || isAgentInstructionFile(r.abs) || isAgentOwnData(r.abs, session.home))) return false;
  // …and an edit tool's echo of the file it changed (Claude Code shows a `cat -n` snippet), when the
  // file is one of those: `~/.claude.json` holds Claude Code's own changelog ("override system prompt")
  if (call.input.type !== 'command' && fx.reads.length === 0 && fx.writes.length > 0 && fx.writes.every((w) => isAgentInstructionFile(w.abs) || isAgentOwnData(w.abs, session.home))) return false;
  // …and an edit tool's echo of a file the agent wrote whole earlier: all of it is the agent's own
  // (the capture may have folded that write's text, so its phrases are not all in `authored`)
  if (echoesChange(call) && fx.writes.length > 0 && fx.writes.every((w) => wroteWhole.has(w.abs))) return false;
  return true;
}

/**
 * An edit or write tool's result: it echoes the change (a diff, a snippet of the file around it), so
 * the phrases the agent itself wrote into files come back in it (a Modelfile's chat template, a
 * stray tool tag it wrote and later took out); anything else in it is the file's own.
 */
function echoesChange(call: EventFacts['call']): boolean {
  const type = call?.input.type;
  return type === 'file_edit' || type === 'file_write' || type === 'patch';
}

/** What a call wrote in its own words: a file's new text, an edit's replacements, a patch's added lines, a command (its heredocs and strings). */
function authoredText(call: ToolCallEvent): string {
  const i = call.input;
  const text = i.type === 'file_write' ? i.content : i.type === 'file_edit' ? i.edits.map((e) => e.newText).join('\n') : i.type === 'patch' ? i.files.map((f) => f.added).join('\n') : i.type === 'command' ? i.command : '';
  return text.length > AUTHORED_SCAN_MAX ? text.slice(0, AUTHORED_SCAN_MAX) : text;
}
const AUTHORED_SCAN_MAX = 200_000;
const AUTHORED_PHRASES_MAX = 20;

/**
 * The injection-like phrases in a text, in one spelling (lower case, single blanks). findInjection
 * gives the first pattern's match, wherever it is: the text before and after it is searched again.
 */
function phrasesIn(text: string): string[] {
  const out: string[] = [];
  const parts = [text];
  while (parts.length > 0 && out.length < AUTHORED_PHRASES_MAX) {
    const part = parts.pop()!;
    const m = findInjection(part);
    if (!m) continue;
    out.push(spelling(part.slice(m.start, m.end)));
    parts.push(part.slice(0, m.start), part.slice(m.end));
  }
  return out;
}
const NONE_AUTHORED: ReadonlySet<string> = new Set();

/** The first injection phrase in an output that is not one the agent wrote (in text order), or null. */
function firstForeign(text: string, authored: ReadonlySet<string>): ReturnType<typeof findInjection> {
  const first = findInjection(text);
  if (!first || authored.size === 0 || !authored.has(spelling(text.slice(first.start, first.end)))) return first;
  // the first pattern's match was the agent's own: look before and after it for any other
  const parts: Array<{ from: number; to: number }> = [{ from: 0, to: first.start }, { from: first.end, to: text.length }];
  let best: NonNullable<ReturnType<typeof findInjection>> | null = null;
  for (let n = 0; parts.length > 0 && n < AUTHORED_PHRASES_MAX * 4; n++) {
    const { from, to } = parts.pop()!;
    const m = findInjection(text.slice(from, to));
    if (!m) continue;
    const hit = { ...m, start: m.start + from, end: m.end + from };
    if (!authored.has(spelling(text.slice(hit.start, hit.end)))) {
      if (!best || hit.start < best.start) best = hit;
      continue;
    }
    parts.push({ from, to: hit.start }, { from: hit.end, to });
  }
  return best;
}

/** Test runners: what they print comes from the project's tests, the agent's fixtures among them. */
const TEST_RUNNER = /(?:^|[\s;&|(])(?:pytest|py\.test|jest|vitest|mocha|go\s+test|cargo\s+test|bun\s+test|deno\s+test|node\s+--test|npm\s+(?:run\s+)?test|pnpm\s+(?:run\s+)?test|yarn\s+(?:run\s+)?test|python3?\s+-m\s+(?:pytest|unittest)|rspec|phpunit)\b/;
/** The repository's view of the session's own changes: `git diff`, `git show`, `git log -p`. */
const OWN_CHANGES_VIEW = /(?:^|[\s;&|(])git\s+(?:-C\s+\S+\s+)?(?:diff|show|log\s+(?:[^|;&]*\s)?-p)\b/;
/** Fetchers and services: what they print comes from elsewhere, whoever wrote the command. */
const FETCHES = /(?:^|[\s;&|(])(?:curl|wget|gh|glab|http|httpie|xh|aria2c|lynx|w3m)\b|https?:\/\//;

/**
 * Whether a call's output comes from code the session itself wrote: a command that runs or reads a
 * file the agent wrote (`sh test_deployment.sh`), or the project's test runner; never a fetch, a
 * web page or a tool of another service. Only there do phrases the agent wrote come back as its own.
 */
function runsOwnCode(call: ToolCallEvent | undefined, written: ReadonlySet<string>): boolean {
  if (!call || call.input.type !== 'command') return false;
  const line = call.input.command;
  if (line.length > 10_000 || FETCHES.test(line)) return false;
  if (TEST_RUNNER.test(line) || OWN_CHANGES_VIEW.test(line)) return true;
  for (const path of written) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    // the file by its name, or a module by its stem (`python -c "import guard"` for guard.py)
    const stem = name.replace(/\.(?:py|js|mjs|cjs|ts|rb)$/, '');
    // (the import pattern is built only for a stem the line holds: a match holds it)
    if ((name.length >= 4 && line.includes(name)) || (stem !== name && stem.length >= 4 && line.includes(stem) && new RegExp(`\\b(?:import\\s+|from\\s+|require\\(['"][./]*)${escapeRegExp(stem)}\\b`).test(line))) return true;
  }
  return false;
}
const spelling = (phrase: string) => phrase.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * A call that only runs the project's test runner (after a `cd`, piped into stages that pass its
 * output on) and fetches nothing: what it prints is the project's tests' own. Another step of the
 * call (`cat notes.md; npm test`, `npm install && npm test`) may have printed it.
 */
function printedByTests(call: ToolCallEvent | undefined): boolean {
  if (!call || call.input.type !== 'command') return false;
  const line = call.input.command;
  if (line.length > 2_000 || FETCHES.test(line)) return false;
  const steps = line.split(/&&|\|\||;|\n/).map((st) => st.trim()).filter((st) => st !== '' && !/^cd\s/.test(st));
  if (steps.length !== 1) return false;
  const [first, ...stages] = steps[0]!.split('|');
  // the runner is the step's program (after assignments: `CI=1 npm test`), not a word further on
  const runner = TEST_RUNNER.exec(` ${first!.replace(/^\s*(?:[A-Za-z_]\w*=\S*\s+)+/, '').trimStart().replace(/^(?:npx|bunx|pnpm\s+exec|uv\s+run|poetry\s+run)\s+(?:-\S+\s+)*/, '')}`);
  return runner?.index === 0 && stages.every((st) => /^\s*(?:tail|head|cat|less|more|tee|grep)\b/.test(st));
}

function scanOutput(ctx: RuleContext, event: ToolResultEvent, facts: EventFacts, authored: ReadonlySet<string>): { pending: Pending | null; instructions: Instructions | null } | null {
  const text = event.output;
  const inj = firstForeign(text, authored);
  const hidden = findHidden(text);
  // Nothing found, the usual case: the quoted call is not worth building.
  if (!inj && !hidden) return readsContent(facts.call) ? addressed(event, facts) : null;
  const source = facts.call ? `the output of \`${safe(describeCall(facts.call), facts, QUOTE_MAX)}\`` : 'a tool output';
  let found: Pending | null = null;
  if (inj && !ownWords(facts.call, text.slice(inj.start, inj.end), inj.label) && !(searches(facts.call) && inOwnFile(text, inj.start, ctx.session)) && !helpText(facts.call, ctx.session, text)) {
    const ev = { index: event.index, excerpt: safe(around(text, inj.start, inj.end), facts) };
    ctx.report({ rule: injectionText.id, detail: `${inj.label} found in ${source}.`, evidence: [ev] });
    found = { what: `${inj.label} in ${source}`, evidence: ev, callsLeft: WINDOW_CALLS, key: String(event.index) };
  }
  if (hidden) {
    const decoded = hidden.tagText ? ` Hidden text: "${safe(hidden.tagText, facts, 120)}".` : '';
    const ev = { index: event.index, excerpt: safe(visible(around(hidden.scanned, hidden.first, hidden.first + 1)), facts) };
    // The project's test run printing its own fixtures (a test of bidi or zero-width handling):
    // test data, unless it spells out hidden text (tag characters) — that is a message whoever prints it.
    const testData = !hidden.tagText && !hidden.splitsWord && hidden.longestRun < ZERO_WIDTH_MIN && printedByTests(facts.call);
    ctx.report(testData
      ? { rule: hiddenUnicode.id, severity: 'info', title: "Invisible characters printed by the project's tests", detail: `${hidden.count} invisible character(s) (${[...hidden.kinds].join(', ')}) in ${source}: the project's test run printed them (its fixtures), and they spell out no hidden text.`, evidence: [ev], key: 'tests' }
      : { rule: hiddenUnicode.id, detail: `${hidden.count} invisible character(s) (${[...hidden.kinds].join(', ')}) in ${source}.${decoded}`, evidence: [ev] });
    if (!testData) found ??= { what: `hidden Unicode in ${source}`, evidence: ev, callsLeft: WINDOW_CALLS, key: String(event.index) };
  }
  if (!found) return null;
  // What the injected passage names: the text around the phrase, or the decoded hidden text.
  const at = inj ? inj.start : hidden!.first;
  const passage = inj ? text.slice(Math.max(0, at - INSTRUCTION_WINDOW), inj.end + INSTRUCTION_WINDOW) : `${hidden!.tagText}\n${hidden!.scanned.slice(Math.max(0, at - INSTRUCTION_WINDOW), at + INSTRUCTION_WINDOW)}`;
  const named = namedIn(passage);
  const instructions = isEmpty(named) ? null : { what: found.what, evidence: found.evidence, named, strict: false, key: found.key, callsLeft: INSTRUCTION_CALLS };
  return { pending: found, instructions };
}

/**
 * Whether a matched phrase is the agent's own words coming back: its search term or command (the
 * phrase's first two words in the call), the prompt it gave a subagent, or a subagent's report
 * telling the lead what not to tell the user (a subagent is the agent's own model relaying its
 * brief; the pages it read are in its own transcript).
 */
function ownWords(call: EventFacts['call'], phrase: string, label: string): boolean {
  if (!call) return false;
  const head = phrase.toLowerCase().split(/\s+/).slice(0, 2).join(' ');
  if (describeCall(call).toLowerCase().includes(head)) return true;
  if (call.input.type !== 'subagent') return false;
  return label === '"do not tell the user"' || call.input.prompt.toLowerCase().includes(head);
}

const DOCUMENT = /(?:^|\/)(?:README|CONTRIBUTING|INSTALL|SETUP|USAGE)[^/]*$|\.(?:md|mdx|markdown|txt|rst|adoc|html?)$/i;

/** Outputs that show a document (a fetched page, a README or doc file read or printed): where notes to agents live. */
function readsContent(call: EventFacts['call']): boolean {
  if (!call) return false;
  const i = call.input;
  if (i.type === 'web_fetch' || i.type === 'mcp') return true;
  if (i.type === 'file_read') return DOCUMENT.test(i.path);
  return i.type === 'command' && (/\b(?:curl|wget)\b/.test(i.command) || (/\b(?:cat|head|less|more|sed|bat|type|Get-Content)\b/.test(i.command) && /(?:README|CONTRIBUTING|INSTALL|SETUP|USAGE)|\.(?:md|mdx|markdown|txt|rst|adoc|html?)\b/i.test(i.command)));
}

const ADDRESSED_SCAN_MAX = 200_000;
// The framing that turns an install hint into an order: a "required verification" or a "security
// policy" step a reader must run before going on. A README's "run `curl … | sh` to install pnpm"
// has none of it and stays ordinary guidance.
const COERCION = /\b(?:required|requires?|must|mandatory|security\s+polic(?:y|ies)|important|before\s+(?:you|modifying|running|continuing|proceeding|using)|verif(?:y|ication))\b/i;

function coercedRemotePipe(text: string): number {
  // every pipe in the document, not only the first (a harmless installer in step 1 must not hide a coerced one later)
  const pipes = new RegExp(REMOTE_PIPE.source, 'g');
  let seen = 0;
  for (let m = pipes.exec(text); m !== null && seen < PIPES_MAX; m = pipes.exec(text), seen++) {
    if (COERCION.test(stepAround(text, m.index))) return m.index;
  }
  return -1;
}

const PIPES_MAX = 20;
const BLANK_LINE = /\n[ \t]*\n/g;
const FENCE_OPEN = /^\s*(?:```|~~~)[\w-]*\s*$/;
const HEADING = /(?:^|\n)#{1,6}[ \t][^\n]*\n(?![\s\S]*\n#{1,6}[ \t])/;
const BACK_REFERENCE = /^\s*(?:the\s+(?:command|step|script|line)s?\s+above|(?:this|that|these|those)\s+(?:command|step|script|line)s?\b)/i;

/**
 * The step of a document that holds the pipe: its paragraph (to the blank lines around it, 400
 * characters at most each way), with the lead-in above when the pipe opens a code block ("the
 * maintainers require running:" then the fence), the heading of its section, and a paragraph
 * right after that points back at it ("The command above is mandatory"). The framing must be the
 * pipe's own: in a numbered guide "2. Install required packages" is another step's word.
 */
function stepAround(text: string, at: number): string {
  const from = Math.max(0, at - 400);
  const before = text.slice(from, at);
  const blanks = [...before.matchAll(BLANK_LINE)].map((m) => m.index + m[0].length);
  let start = blanks.length > 0 ? blanks[blanks.length - 1] : 0;
  // the paragraph is only a fence's opening: its lead-in is the paragraph before (or the text's start)
  if (FENCE_OPEN.test(before.slice(start))) start = blanks.length > 1 ? blanks[blanks.length - 2] : 0;
  const heading = HEADING.exec(before.slice(0, start))?.[0] ?? '';
  const after = text.slice(at, at + 800);
  const breaks = [...after.matchAll(BLANK_LINE)];
  const end = breaks.length > 0 ? breaks[0].index : Math.min(after.length, 400);
  const next = breaks.length > 0 ? after.slice(breaks[0].index + breaks[0][0].length, breaks[1]?.index ?? after.length) : '';
  return heading + before.slice(start) + after.slice(0, end) + (BACK_REFERENCE.test(next) ? `\n${next}` : '');
}

const REMOTE_PIPE = /\b(?:curl|wget)\b[^\n|`]{0,300}https?:\/\/[^\s|`]+[^\n|`]{0,100}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b/;

/** Text that speaks to AI agents and names a script or host: kept, to see whether the agent obeys. */
function addressed(event: ToolResultEvent, facts: EventFacts): { pending: null; instructions: Instructions | null } | null {
  const text = event.output.length > ADDRESSED_SCAN_MAX ? event.output.slice(0, ADDRESSED_SCAN_MAX) : event.output;
  const toAgents = addressedToAgents(text);
  // A document that orders its reader to pipe a remote script into a shell (`curl … | sh` as a
  // "required verification step") is the classic vector whatever it addresses: following it runs
  // code from a host the document chose.
  const at = toAgents >= 0 ? toAgents : coercedRemotePipe(text);
  if (at < 0) return null;
  const named = namedIn(text.slice(Math.max(0, at - 200), at + INSTRUCTION_WINDOW));
  if (named.scripts.length === 0 && named.commands.length === 0) return null;
  const source = facts.call ? `the output of \`${safe(describeCall(facts.call), facts, QUOTE_MAX)}\`` : 'a tool output';
  const ev = { index: event.index, excerpt: safe(around(text, at, at + 40), facts) };
  const what = toAgents >= 0 ? `instructions addressed to AI agents in ${source}` : `a document ordering its reader to pipe a remote script into a shell (${source})`;
  return { pending: null, instructions: { what, evidence: ev, named, strict: true, key: String(event.index), callsLeft: INSTRUCTION_CALLS } };
}

/** Reports actions linked to earlier instructions; each instruction passage is reported once. */
function checkFollowed(report: Reporter, event: NormEvent & { kind: 'tool_call' }, facts: EventFacts, fx: Effects, list: Instructions[], lastPrompt: string): Instructions[] {
  const raw = event.input.type === 'command' ? event.input.command : event.input.type === 'web_fetch' ? event.input.url : '';
  if (fx.net.length === 0 && fx.commands.length === 0) return list;
  const left: Instructions[] = [];
  for (const ins of list) {
    const link = followedLink(ins.named, fx, raw, ins.strict);
    // The user named it: following the user, not the page.
    if (!link || userNamed(lastPrompt, fx, link)) {
      if (ins.callsLeft > 1) left.push({ ...ins, callsLeft: ins.callsLeft - 1 });
      continue;
    }
    report(event, fx, {
      rule: instructionFollowed.id,
      detail: `After ${ins.what}, the agent ${link}.`,
      evidence: [ins.evidence, evidence(event, describeCall(event), facts)],
      key: ins.key,
      choice: true,
    });
  }
  return left;
}

function userNamed(prompt: string, fx: Effects, link: string): boolean {
  if (!prompt) return false;
  if (fx.net.some((n) => prompt.includes(n.host))) return true;
  const quoted = /`([^`]+)`|(\S+)$/.exec(link);
  const what = (quoted?.[1] ?? quoted?.[2] ?? '').toLowerCase();
  return what.length >= 6 && prompt.includes(what);
}

/** Shows invisible characters as <U+XXXX> so the excerpt explains itself. */
function visible(text: string): string {
  return text.replace(/[\u200B-\u200D\u2060-\u2064\u180E\u202A-\u202E\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/gu, (ch) => `<U+${ch.codePointAt(0)!.toString(16).toUpperCase()}>`);
}

/** Reports a draft about what a call did, once its result shows whether it took effect. */
type Reporter = (event: NormEvent & { kind: 'tool_call' }, fx: Effects, draft: FindingDraft) => void;

/** Reports a risky action right after injected text; true when it did. */
function checkAction(ctx: RuleContext, report: Reporter, event: NormEvent & { kind: 'tool_call' }, facts: EventFacts, fx: Effects, p: Pending): boolean {
  const why = riskyAction(fx, ctx.session);
  if (!why) return false;
  report(event, fx, {
    rule: riskyAfterInjection.id,
    detail: `Right after ${p.what}, the agent ${why}.`,
    evidence: [p.evidence, evidence(event, describeCall(event), facts)],
    key: p.key,
  });
  return true;
}
