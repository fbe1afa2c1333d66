// Detection of the agents' terminal output from the first lines alone. Each dialect counts its
// own markers; a marker seen once in prose (a "⏺" quoted in a README, a "✦" in a bullet list)
// is not enough — it takes the agent's banner or several of its tool lines. Scores stay below
// the JSON formats' certainty (these are heuristics) and well above plain text's fallback.
import type { DetectSample, Detection } from '../../ingest/types.ts';
import { clean, head } from './text.ts';
import { CLAUDE_TOOLS, RECORD, RESULT } from './claude-tui.ts';
import { CODEX_BANNER } from './codex-exec.ts';
import { CODEX_TUI_BANNER, CODEX_TUI_TOOL } from './codex-tui.ts';
import { GEMINI_COMPACT_TOOL, GEMINI_TOOL_LINE, unindentBox } from './gemini-tui.ts';

const TIMESTAMP = /^\[\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?\]\s?/;

export function detectTerminal(sample: DetectSample): Detection | null {
  const json = sample.values.filter((v) => v !== null && typeof v === 'object').length;
  if (sample.lines.length > 0 && json * 2 > sample.lines.length) return null;
  const lines = sample.lines.map((l) => head(clean(l)));
  const found = [claudeScore(lines), geminiScore(lines), codexScore(lines), codexTuiScore(lines)]
    .filter((d): d is Detection => d !== null)
    .sort((a, b) => b.score - a.score);
  return found[0] ?? null;
}

function claudeScore(lines: string[]): Detection | null {
  let welcome = false;
  let tools = 0;
  let results = 0;
  let prompts = 0;
  for (const l of lines) {
    if (/Welcome to Claude Code|Claude Code v\d/.test(l)) welcome = true;
    else if (RESULT.test(l)) results++;
    else if (/^[>❯]\s\S/.test(l)) prompts++;
    else {
      const r = RECORD.exec(l);
      if (r && isClaudeTool(r[1])) tools++;
    }
  }
  const score = welcome && tools + results + prompts > 0 ? 0.85 : tools >= 2 && results >= 1 ? 0.7 : tools >= 1 && results >= 1 ? 0.55 : 0;
  return score > 0 ? { format: 'claude-code-tui', score } : null;
}

function isClaudeTool(text: string): boolean {
  const m = /^([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)?)\(/.exec(text);
  return (m !== null && CLAUDE_TOOLS.has(m[1])) || /^[\w.-]+ - [\w.-]+ \(MCP\)\(/.test(text);
}

/** The start-up banner: ANSI-art logo, then "Gemini CLI v0.34.0-nightly…" on the same line. */
export const GEMINI_BANNER = /^[\s▝▜▄▗▟▀▘▙▛▌▐█░▒▓]*Gemini CLI v\d+\.\d+/;

function geminiScore(lines: string[]): Detection | null {
  let tools = 0;
  let said = 0;
  let borders = 0;
  let footer = false;
  let banner = false;
  let ui = 0;
  // Lines indented by the two-column gutter under a "✦" reply, before anything else breaks the run.
  let gutter = 0;
  let inReply = false;
  let afterBand = false;
  for (const line of lines) {
    // 0.4x: the person's message in a band of half blocks, tools on one line each outside boxes.
    const band = afterBand;
    afterBand = /^▄{8,}$/.test(line);
    if (band && /^ >\s?\S/.test(line)) said++;
    if (GEMINI_COMPACT_TOOL.test(line)) {
      tools++;
      continue;
    }
    const l = unindentBox(line);
    if (l.startsWith('│')) {
      const inner = l.slice(1).replace(/│\s*$/, '').trim();
      if (GEMINI_TOOL_LINE.test(inner) || /^[✔✓x✗✘✖\-o⊷?]\s+[\w.-]+ \([\w.-]+ MCP Server\)/.test(inner)) tools++;
    } else if (/^[╭╰]─+[╮╯\uFFFD]?$/.test(l)) borders++;
    else if (/^✦\s\S/.test(l)) {
      said++;
      inReply = true;
      continue;
    } else if (/\(\d{1,3}% context left\)/.test(l)) footer = true;
    else if (GEMINI_BANNER.test(l)) banner = true;
    else if (/^\s*>\s+Type your message or @path\/to\/file|^\s*\S.*\s{2,}(?:no sandbox|sandbox-exec|docker)\b|^Tips for getting started:$/.test(l)) ui++;
    if (inReply && /^ {2,}\S/.test(l)) gutter++;
    else inReply = false;
  }
  let score = tools >= 1 && (said >= 1 || footer || banner) ? 0.8 : tools >= 2 || (tools >= 1 && borders >= 2) ? 0.65 : said >= 2 && footer ? 0.5 : 0;
  // The banner names the program; with its screen furniture around it, unmistakably a capture.
  if (banner) score = Math.max(score, ui > 0 || said > 0 || footer ? 0.8 : 0.6);
  // A capture that starts mid-reply: "✦ text" and a long run of lines in the reply's gutter.
  if (said >= 1 && gutter >= 8) score = Math.max(score, 0.55);
  return score > 0 ? { format: 'gemini-cli-tui', score } : null;
}

function codexScore(lines: string[]): Detection | null {
  let banner = false;
  let header = 0;
  const sections = new Set<string>();
  for (const raw of lines) {
    const l = raw.replace(TIMESTAMP, '');
    if (CODEX_BANNER.test(l)) banner = true;
    else if (/^(?:workdir|model|provider|approval|sandbox|reasoning effort|session id): \S/.test(l) || /^-{8,}$/.test(l)) header++;
    else if (/^(?:user|User instructions:|thinking|codex|exec|tokens used(?::? [\d,]+)?)$/.test(l)) sections.add(l.split(' ')[0]);
    else if (/^exec \S/.test(l) || /\s(?:succeeded|exited -?\d+) in [\dhms. ]+:$/.test(l)) sections.add('exec');
  }
  const score = banner && header >= 2 ? 0.85 : banner ? 0.6 : header >= 3 && sections.size >= 2 ? 0.6 : sections.size >= 3 && sections.has('exec') ? 0.5 : 0;
  return score > 0 ? { format: 'codex-exec-text', score } : null;
}

/**
 * The interactive Codex TUI: its header box ("│ >_ OpenAI Codex (v0.46.0)"), or its cells —
 * "• Ran …" / "• Explored" / "• Edited …" titles with their "  └ " bodies, "› " messages and
 * "─ Worked for 1m 02s ─" rules (the body's mark joined onto the title line where a formatter
 * re-wrapped the capture). A "•" bullet list in prose has no "└" under its items.
 */
function codexTuiScore(lines: string[]): Detection | null {
  let banner = false;
  let tools = 0;
  let bodies = 0;
  let turns = 0;
  let statuses = 0;
  let labels = 0;
  for (const l of lines) {
    if (CODEX_TUI_BANNER.test(l) || /^>_ You are using OpenAI Codex in \S/.test(l)) banner = true;
    else if (CODEX_TUI_TOOL.test(l) || /^(?:⚡ Ran command|📋 Updated to do list|✏\uFE0F? Applying patch)/u.test(l)) {
      tools++;
      // a capture a text formatter re-wrapped: the cell's body joined onto its title line
      if (/ [└↳⎿] \S/.test(l)) bodies++;
    }
    // (at the margin too: a capture that lost its indentation)
    else if (/^(?: {2})?[└↳⎿] \S/.test(l)) bodies++;
    else if (/^(?:user|codex|thinking)$/.test(l)) labels++;
    else if (/^(?:✓|✗ \(-?\d+\)) • [\d.]+(?:ms|s|m)\b/.test(l)) statuses++; // the transcript view's "$ cmd" … "✓ • 1.2s"
    else if (/^› \S/.test(l) || /^─ Worked for [\dhms ]+ ─/.test(l) || /^■ Conversation interrupted/.test(l) || /^Token usage: total=[\d,]+ input=/.test(l)) turns++;
  }
  const score = banner ? (tools + bodies + turns > 0 ? 0.85 : 0.6)
    : tools >= 2 && bodies >= 1 ? 0.7
      : (tools >= 1 && bodies >= 1 && (turns >= 1 || labels >= 1)) || (statuses >= 1 && turns >= 1) ? 0.65
        : statuses >= 2 ? 0.6
          : 0;
  return score > 0 ? { format: 'codex-tui', score } : null;
}
