// What the user asked for — the consent side of a finding. A rule that sees the agent do
// something notable asks here whether the request behind it covers the act: the command dictated
// word for word, the file or path named (spelled loosely, as speech-to-text writes it: "CloudMD"
// for CLAUDE.md), the host a transfer went to, the tool whose official installer ran. The
// request is the user's last prompts or, inside a subagent, the prompt its lead agent gave it.
// Matching is by normalised letters and by sound (Double Metaphone keys plus a small edit
// distance), never by spelling alone, and always needs positive evidence in the request text.
import { memoized } from '../bounded.ts';
import { doubleMetaphone } from 'double-metaphone';
import type { NormEvent, ToolInput } from '../model/events.ts';
import { editDistance } from './supply-chain.ts';
import { basename, capitalise, escapeRegExp } from './util.ts';
import { classifyPath, guessHome } from '../paths.ts';
import { recalledUserMessages } from './recalled-requests.ts';
import { PROMPT_UNRECORDED } from '../model/runs.ts';

/** Who asked: the person at the keyboard, or the lead agent that launched a subagent. */
export type Asker = 'user' | 'lead-agent';

export interface Request {
  text: string;
  by: Asker;
  /** A proposal of the agent's that the user agreed to ("1", "yes"), not the user's own words. */
  agreed?: boolean;
  /** For the user's own words: the agent's message they answered (what the user had been told). */
  after?: string;
  /** A document the user handed over (a plan, a brief): what it names is asked for; its wording is not the user's. */
  document?: boolean;
}

// Scope is what the user named at any point of the session, not only in the last message (issue
// 25: "the user's words set the scope"): the last three prompts are kept whole, earlier ones (up
// to 30 in all) by their first 2,000 characters, where what a request names is usually said.
const PROMPTS_KEPT = 30;
const DECLINES_KEPT = 10;
/** The agent's messages of one turn kept to find where it located a place the user described. */
const TURN_MAX = 4_000;
/** A request that names a kind of place (a folder, a project) it wants something put in. */
const PLACE_NOUN = /\b(?:folders?|director(?:y|ies)|dir|projects?|repo(?:sitory)?|workspace|ordner|carpeta|dossier|pasta|cartella)\b|โฟลเดอร์|โปรเจกต์|文件夹|目录|项目|フォルダ|プロジェクト|폴더|프로젝트/i;
/** A request to put something somewhere: save, copy, move, put, export, store, write … into. */
const PUTTING = /\b(?:save|copy|move|put|export|store|write|place|dump|archive)\b|บันทึก|คัดลอก|ย้าย|保存|复制|拷贝|移动|放到|导出|保存して|コピー|저장|복사|옮기|guardar|copiar|mover|speichern|kopieren|enregistrer|copier/i;
/** A line that says where something is ("the project is at …", "lives in …", "อยู่ที่", "位于"). */
const LOCATING = /\b(?:is|are|lives?|sits?|located|found(?:\s+it)?)\s+(?:at|in|under)\b|\bfound\b[^\n]{0,40}\bat\b|อยู่ที่|位于|在于|にあります|にある|에\s*있|se\s+encuentra|est[áa]\s+en|befindet\s+sich|liegt\s+(?:in|unter)|se\s+trouve/i;
/** Words of a request too common to tie it to a path. */
const LOCATING_WORDS_IGNORED = new Set(['folder', 'folders', 'directory', 'project', 'projects', 'repo', 'repository', 'workspace', 'file', 'files', 'save', 'copy', 'move', 'into', 'this', 'that', 'there', 'here', 'with', 'from', 'home', 'users', 'user', 'docs', 'session', 'the']);
const PROMPTS_WHOLE = 3;
const PROMPT_MAX = 10_000;
/** A prompt or a task a lead agent gave: often a whole brief (a task file with its file lists and definition of done), read whole to here. */
const BRIEF_MAX = 40_000;
const EARLIER_PROMPT_MAX = 2_000;
/** How much of the agent's message a prompt answered is kept beside it (its end: where the question is). */
const ANSWERED_MAX = 4_000;
const SUBAGENTS_MAX = 200;
const ANSWERS_MAX = 1_000;

/** A file or folder name as a request writes it: a dot or slash inside a word (`CLAUDE.md`, `src/app`, `~/.zshrc`). */
const NAMED_PATH = /(?<![\w~.-])[\w~.-]{0,200}[\w~](?:[./][\w.-]{1,200})+\/?/g;
const NAMES_KEPT_MAX = 2_000;

/**
 * An earlier prompt as it is kept once newer ones came: its start, where the request is, and the
 * files and folders the rest names (a long plan lists `CLAUDE.md` under "Files Modified" at its
 * end), so a name the user wrote stays named however long the prompt was.
 */
function earlierText(text: string): string {
  if (text.length <= EARLIER_PROMPT_MAX) return text;
  const names = new Set<string>();
  let length = 0;
  for (const m of text.slice(EARLIER_PROMPT_MAX).matchAll(NAMED_PATH)) {
    if (names.has(m[0])) continue;
    length += m[0].length + 1;
    if (length > NAMES_KEPT_MAX) break;
    names.add(m[0]);
  }
  return `${text.slice(0, EARLIER_PROMPT_MAX)}\n${[...names].join('\n')}`;
}

/**
 * The one request log of an analysis (keyed by its session facts): every rule reads the same
 * requests, and each event updates them once, by whichever rule sees the event first — the rules
 * all feed their log before they judge the event, so each sees the same requests it would with a
 * log of its own.
 */
const SHARED = new WeakMap<object, RequestLog>();

// "✔ You approved codex to run sudo apt-get update this time" (also "every time this session",
// "and applied the execpolicy amendment"): the prompt showed the command, the user said yes.
const APPROVED_AT_PROMPT = /You approved \w+ to run (.+)$/;
const APPROVAL_SUFFIX = / (?:this time|every time this session|and applied the execpolicy amendment)$/;
const APPROVED_MAX = 200;

/** Claude Code's record of a slash command the user typed. */
const SLASH_COMMAND = /<command-name>\/[\w:.-]+<\/command-name>/;
/** Handed-over documents taken in per session: a brief, its plan, a few uploads. */
const HANDED_MAX = 8;
/** How much of a handed-over document is read as the request: a brief's file list is often past its first pages. */
const DOCUMENT_MAX = 40_000;
/** Files people write instructions in: prose documents, not code or data. */
const DOCUMENT = /\.(?:md|markdown|mdx|txt|rst|adoc|org)$/;
/** A shell command that only shows one file whole or in part (`cat plan.md`, `sed -n '1,200p' plan.md`). */
const SHOWS_ONE_FILE = /^\s*(?:cat|nl(?:\s+-ba)?|head(?:\s+-n\s*\d+|\s+-\d+)?|sed\s+-n\s+['"]?\d+(?:,\d+)?p['"]?|Get-Content(?:\s+-Raw)?|type)\s+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s;&|<>'"]+))\s*$/;

/** The file a call reads to show it (the read tool, or a shell command that only prints it), or null. */
function documentRead(input: ToolInput): string | null {
  if (input.type === 'file_read') return input.path;
  if (input.type !== 'command') return null;
  const m = SHOWS_ONE_FILE.exec(input.command);
  return m ? (m[1] ?? m[2] ?? m[3] ?? null) : null;
}

function normalSpace(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

export function requestsOf(session: object): RequestLog {
  let log = SHARED.get(session);
  if (!log) {
    log = new RequestLog();
    SHARED.set(session, log);
  }
  return log;
}

/**
 * The requests in force, per thread: the user's last prompts for the main thread (a request
 * often spans "add X to CLAUDE.md" then "go ahead"), and for a subagent the prompt its Task call
 * gave it. Bounded: 30 prompts (the last three whole) and the prompts of at most 200 subagents.
 */
/** An order to carry out instructions shown just before: "follow the onboarding instructions", "do what it says", "complete those steps". */
const FOLLOWS_SHOWN = /\b(?:follow|do|complete|apply|carry\s+out|go\s+through|run\s+through|execute)\b[^.\n]{0,40}\b(?:instructions?|steps?|tasks?|what\s+it\s+says|onboarding|guide|checklist)\b/i;

export class RequestLog {
  /** The event this log last took in: the rules sharing it each pass it on, it counts once. */
  private last: NormEvent | null = null;
  /** The user's kept prompts, and the proposals they agreed to, oldest first. */
  private readonly prompts: Request[] = [];
  /** Task prompts by description, until the subagent's start event links them to its id. */
  private readonly byDescription = new Map<string, string>();
  private readonly byAgent = new Map<string, string>();
  private lastTask: string | null = null;
  /** The agent's last message or plan since the user last spoke. */
  private proposal = '';
  /** The agent's last plan, however many turns ago ("Now implement the plan" after a detour). */
  private plan = '';
  /** The call that put the last plan to the user for approval, until its answer comes. */
  private planCall: string | null = null;
  /** A question the agent put to the user through a tool, until its answer comes. */
  private question: { callId: string; text: string } | null = null;
  /** Claude Code's AskUserQuestion call (its options and their descriptions), until its answer comes. */
  private askedQuestion: { callId: string; args: unknown } | null = null;
  /**
   * Answers about the requests in force (per file, per path), forgotten when they change. Shared
   * by every rule of the analysis: a key names its question (`path:`, `cmd:`, `place:` …), so two
   * rules may share one only when they ask the same thing.
   */
  private readonly answers = new Map<string, Asker | null>();
  /** Commands the user approved at the harness's prompt, which showed them whole (Codex TUI "✔ You approved codex to run …"). */
  private readonly approved = new Set<string>();
  /** Reads of a document the user handed over (named in a prompt), by call id, until their results come. */
  private readonly handing = new Set<string>();
  /** How many handed-over documents were taken in (bounded: they are requests too). */
  private handed = 0;
  /** The user's last prompt invoked a slash command: its body comes next, injected. */
  private commandBody = false;
  /** What the user's own shell command printed (Claude Code's `!cmd`, `<bash-stdout>`), until the user speaks next. */
  private shownByUser = '';
  /** The agent's messages since the user's last prompt (the turn so far), the latest kept. */
  private turn = '';
  /** The user's last prompt, as typed. */
  private lastPrompt = '';
  /** The agent's questions the user answered no to, with the answer (the latest kept): they grant nothing. */
  private readonly declines: string[] = [];

  /** A message of the user's reached the agent without reaching the log (PROMPT_UNRECORDED), and the user has not spoken since. */
  private unreadSince = false;

  /** Whether what was asked before `event` is not all in the log: the main thread's work after an unrecorded message, until the user speaks again. */
  unread(event: NormEvent): boolean {
    return this.unreadSince && event.agentId === undefined;
  }

  onEvent(event: NormEvent): void {
    if (event === this.last) return;
    this.last = event;
    if (event.kind === 'system' && event.subtype === PROMPT_UNRECORDED && event.agentId === undefined) {
      this.unreadSince = true;
      return;
    }
    if (event.kind === 'prompt' && !event.synthetic && event.agentId === undefined) this.unreadSince = false;
    if (event.kind === 'system' && event.subtype === 'approval') {
      const m = APPROVED_AT_PROMPT.exec(event.text.length > 4_000 ? '' : event.text.trim());
      const command = m ? m[1].replace(APPROVAL_SUFFIX, '') : '';
      if (command && this.approved.size < APPROVED_MAX) this.approved.add(normalSpace(command));
      return;
    }
    // A log that begins with a compaction summary (a session continued in a new file): the user's
    // messages it recalls are the requests behind the work that follows, as prompts of this file
    // would be. Mid-file, the prompts it summarises are in the file already.
    if (event.kind === 'compaction' && event.agentId === undefined && event.summary && this.prompts.length === 0) {
      for (const message of recalledUserMessages(event.summary)) this.keep(message, false);
      this.answers.clear();
      return;
    }
    if (event.agentId === undefined && event.kind === 'message') this.turn = `${this.turn}\n${event.text.slice(0, TURN_MAX)}`.slice(-TURN_MAX);
    if (event.agentId === undefined && (event.kind === 'message' || (event.kind === 'tool_call' && isPlanApproval(event)))) {
      // What the agent proposed last: a plan, or a question with its answer options.
      this.proposal = (event.kind === 'message' ? event.text : planText(event)).slice(-PROMPT_MAX);
      if (event.kind === 'tool_call' || PLAN_MESSAGE.test(this.proposal.slice(0, 2_000))) this.plan = this.proposal;
      if (event.kind === 'tool_call') this.planCall = event.callId;
      return;
    }
    // The user approved the plan at the harness's own prompt (Claude Code: "User has approved your
    // plan"): the plan is a request the user agreed to, as a "yes" typed after it would be.
    if (event.kind === 'tool_result' && event.callId === this.planCall && !event.denied && !event.isError && PLAN_APPROVED.test(event.output.slice(0, 200))) {
      this.keep(this.plan, true);
      this.planCall = null;
      this.answers.clear();
      return;
    }
    // The user's choice at the agent's own question (Claude Code's AskUserQuestion: "…"="Restore
    // from HEAD"): the question and the option picked are a request the user agreed to.
    if (event.kind === 'tool_result' && event.agentId === undefined && !event.denied && ANSWERED.test(event.output.slice(0, 60))) {
      // an answer that says no ("="No", "="Không, đừng cài") agrees to nothing; the option picked
      // brings its description, which says what it does ("Remove ~/.gradle/caches …")
      const answer = event.output.slice(0, PROMPT_MAX);
      const picked = this.askedQuestion?.callId === event.callId ? pickedOptions(this.askedQuestion.args, answer) : '';
      if (!ANSWER_DECLINES.test(answer)) this.keep(picked ? `${answer}\n${picked}` : answer, true);
      else this.decline(answer);
      this.askedQuestion = null;
      this.answers.clear();
      return;
    }
    if (event.kind === 'tool_call' && event.agentId === undefined && event.name === 'AskUserQuestion' && event.input.type === 'other') {
      this.askedQuestion = { callId: event.callId, args: event.input.args };
      return;
    }
    // Gemini CLI's ask_user: the question is in the call, the answer (`{"answers":{"0":"Yes"}}`)
    // in its result. A question answered with anything but a no is agreed to, with the answer.
    if (event.kind === 'tool_call' && event.agentId === undefined && ASK_TOOL.test(event.name) && event.input.type === 'other') {
      this.question = { callId: event.callId, text: JSON.stringify(event.input.args ?? '').slice(0, PROMPT_MAX) };
      return;
    }
    // A document the user handed over ("/implement specs/plan.md", "follow docs/BRIEF.md", an
    // uploaded brief): what it names is what the user asked for, as a plan they approved is.
    if (event.kind === 'tool_call' && event.agentId === undefined && this.handed < HANDED_MAX && this.handing.size < HANDED_MAX) {
      const path = documentRead(event.input);
      if (path !== null && this.namedByUser(path)) this.handing.add(event.callId);
    }
    if (event.kind === 'tool_result' && this.handing.delete(event.callId)) {
      if (!event.denied && !event.isError && event.output.trim() !== '') {
        this.handed++;
        this.keep(event.output.slice(0, DOCUMENT_MAX), true, '', true);
        this.answers.clear();
      }
      return;
    }
    if (event.kind === 'tool_result' && this.question?.callId === event.callId) {
      const answer = event.output.slice(0, 2_000);
      if (!event.denied && !event.isError && answer.trim() !== '' && !DECLINES.test(answer)) this.keep(`${this.question.text}\n${answer}`, true);
      else if (!event.denied && !event.isError && answer.trim() !== '') this.decline(`${this.question.text}\n${answer}`);
      this.question = null;
      this.answers.clear();
      return;
    }
    // The body of a slash command the user just invoked (Claude Code expands `/project-reader:read`
    // from the user's own or installed command file into the next, injected prompt): the user
    // chose to run those instructions, so what they name is asked for, as a handed-over document's.
    if (event.kind === 'prompt' && event.synthetic && event.agentId === undefined && this.commandBody) {
      this.commandBody = false;
      this.keep(event.text.slice(0, DOCUMENT_MAX), true, '', true);
      this.answers.clear();
      return;
    }
    if (event.kind !== 'prompt') this.commandBody = false;
    if (event.kind === 'system' && event.subtype === 'local_command' && event.agentId === undefined && event.text.trimStart().startsWith('<bash-stdout>')) {
      this.shownByUser = event.text.slice(0, DOCUMENT_MAX);
      return;
    }
    if (event.kind === 'prompt' && !event.synthetic && event.agentId === undefined) {
      this.commandBody = SLASH_COMMAND.test(event.text.slice(0, 500));
      // "Follow the beads onboarding instructions" right after the user's own `!bd onboard`: the
      // user chose those instructions, so what they name is asked for, as a handed-over document's
      if (this.shownByUser !== '' && orderSentences(event.text.slice(0, PROMPT_MAX)).some((st) => FOLLOWS_SHOWN.test(st))) this.keep(this.shownByUser, true, '', true);
      this.shownByUser = '';
      // "Yes", "go ahead", "option 2", "vas-y": the user agreed to what the agent proposed, so the
      // proposal speaks for the user too (issue 25: scope the user agreed to when the agent asked).
      const reply = event.text.trim();
      const agreed = this.proposal !== '' && (AGREES.test(reply) || AGREES.test(reply.replace(POLITE, '')) || AGREES_ALL.test(reply)) && !HOLDS_BACK.test(reply) && !REFUSED_PICK.test(reply) && !asksBack(event.text) && event.text.length <= 200;
      // "option 2", "方案 2": the user picked one of the options, so only that option is agreed to
      if (agreed) this.keep(pickedOption(this.proposal, reply) ?? this.proposal, true);
      // "yes, sync them, just don't remove them": agreed to all of the proposal but what is held back
      else if (this.proposal !== '' && event.text.length <= 300 && AGREES.test(reply) && !REFUSED_PICK.test(reply) && !asksBack(event.text)) {
        // (an option the reply picks first: "option 1, don't push" agrees to option 1 only)
        const rest = proposalHeldBackFrom(pickedOption(this.proposal, reply) ?? this.proposal, reply);
        if (rest !== null) this.keep(rest, true);
      }
      // "Implement the plan": the plan agreed to, even with other turns since it was written.
      if (this.plan && GO_WITH_PLAN.test(event.text) && event.text.length <= 300 && !(agreed && this.plan === this.proposal)) this.keep(this.plan, true);
      const answered = this.proposal.slice(-ANSWERED_MAX);
      this.proposal = '';
      this.turn = '';
      this.lastPrompt = event.text.slice(0, PROMPT_MAX);
      this.keep(event.text.slice(0, BRIEF_MAX), false, answered);
      const older = this.prompts.length - PROMPTS_WHOLE - 1;
      if (older >= 0) {
        const kept = this.prompts[older];
        this.prompts[older] = { ...kept, text: earlierText(kept.text), ...(kept.after ? { after: kept.after.slice(-EARLIER_PROMPT_MAX) } : {}) };
      }
      this.answers.clear();
    } else if (event.kind === 'tool_call' && event.input.type === 'subagent' && event.agentId === undefined) {
      const text = event.input.prompt.slice(0, BRIEF_MAX);
      this.lastTask = text;
      remember(this.byDescription, event.input.description, text);
    } else if (event.kind === 'prompt' && event.agentId !== undefined && !this.byAgent.has(event.agentId)) {
      // A subagent's first prompt is the task its lead gave it: in a subagent's own transcript
      // (Claude Code's agent-*.jsonl) the lead's Task call is not in the file.
      remember(this.byAgent, event.agentId, event.text.slice(0, BRIEF_MAX));
    } else if (event.kind === 'subagent_start' && event.description) {
      const text = this.byDescription.get(event.description);
      if (text) remember(this.byAgent, event.subagentId, text);
    }
  }

  /** Whether one of the user's own prompts names this document by its file name (`plan.md`, written out). */
  private namedByUser(path: string): boolean {
    const base = basename(path).toLowerCase();
    if (base.length < 6 || !DOCUMENT.test(base)) return false;
    return this.prompts.some((p) => !p.agreed && p.by === 'user' && p.text.toLowerCase().includes(base));
  }

  private decline(text: string): void {
    this.declines.push(text.slice(0, ANSWERED_MAX));
    if (this.declines.length > DECLINES_KEPT) this.declines.shift();
  }

  /** What the user turned down when the agent asked (never a request: for rules that ask whether a step was refused). */
  declined(): readonly string[] {
    return this.declines;
  }

  private keep(text: string, agreed: boolean, after = '', document = false): void {
    this.prompts.push(document ? { text, by: 'user', agreed: true, document: true } : agreed ? { text, by: 'user', agreed: true } : after ? { text, by: 'user', after } : { text, by: 'user' });
    while (this.prompts.length > PROMPTS_KEPT) this.prompts.shift();
  }

  /**
   * whoAsked(for(event), test), remembered under `key` for main-thread events until the requests
   * change: a session writes the same paths again and again.
   */
  asked(event: NormEvent, key: string, test: (text: string) => boolean): Asker | null {
    if (event.agentId !== undefined) return whoAsked(this.for(event), test);
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const answer = whoAsked(this.for(event), test);
    if (this.answers.size >= ANSWERS_MAX) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(key, answer);
    return answer;
  }

  /** Whether the user approved this very command line at the harness's prompt. */
  approvedAtPrompt(command: string): boolean {
    return this.approved.size > 0 && this.approved.has(normalSpace(command));
  }

  /**
   * The user asked for something to be put into a place they described rather than wrote out
   * ("save this session into the folder of the next.js project": a putting verb and a kind of
   * place), and the agent, in this turn, before the write, said where that place is ("the Next.js
   * project is at **d:\\todo-next**") in one line that names a folder holding the path and a word
   * of the user's that the path holds too: the path is the place asked for, as the agent located
   * it. Never a dot-folder under it (.git, .env files, an agent's settings). Main thread only.
   */
  locatedForUser(event: NormEvent, abs: string, home: string | null): boolean {
    if (event.agentId !== undefined || this.turn === '' || !PLACE_NOUN.test(this.lastPrompt) || !PUTTING.test(this.lastPrompt)) return false;
    // never into a dot-folder under the place (.git, .env files, an agent's settings)
    if (/\/\.[^/]+(?:\/|$)/.test(abs.replace(/\\/g, '/').slice(-200))) return false;
    const asked = new Set(words(this.lastPrompt).filter((w) => w.length >= 4 && !LOCATING_WORDS_IGNORED.has(w)));
    const inPath = words(abs).filter((w) => asked.has(w));
    if (inPath.length === 0) return false;
    // a folder holding the path, said to be where the described place is ("… is at d:\\todo-next")
    const folders = placesHolding(abs, home).slice(1);
    return this.turn.split('\n').some((line) => LOCATING.test(line) && words(line).some((w) => inPath.includes(w)) && folders.some((p) => namesPath(line, p, home)));
  }

  /** The user's requests (the main thread's). */
  userRequests(): readonly Request[] {
    return this.prompts;
  }

  /** The requests that stand behind this event: the user's, and for a subagent its lead's. */
  for(event: NormEvent): readonly Request[] {
    if (event.agentId === undefined) return this.prompts;
    const lead = this.byAgent.get(event.agentId) ?? this.lastTask;
    return lead ? [...this.prompts, { text: lead, by: 'lead-agent' }] : this.prompts;
  }
}

/**
 * A blanket grant in the user's own words ("you are authorized to do any operations", "do whatever
 * it takes", "you have full access to this server"): consent to setup work nobody itemised. It
 * lowers what it covers one step, never to silence for a critical (issue 25, item 5).
 */
const BLANKET_GRANT = /\byou(?:'re| are)? (?:fully |hereby )?(?:authori[sz]ed|allowed|permitted|free|cleared) to (?:do|perform|run|make|take) (?:any|all|anything|whatever)\b|\byou (?:may|can) do (?:anything|whatever|all of it)\b|\bdo (?:whatever|anything) (?:you need|it takes|is (?:needed|necessary|required))\b|\b(?:full|complete|blanket) (?:permission|authori[sz]ation|control|access)\b|\byou have (?:full|root|sudo|admin) (?:access|rights|permissions?)\b|\bfeel free to (?:do|change|install|run) (?:anything|whatever)\b/i;

/**
 * The same grants in the other languages people write to agents in: full rights or access ("там
 * полные права", "acceso total", "tous les droits", "volle Rechte", "完全权限", "全権限", "모든
 * 권한") and "do whatever it takes" ("делай что нужно", "haz lo que haga falta", "随便改").
 */
const BLANKET_GRANT_INTL = /полн(?:ые|ыми) права|полный доступ|(?:делай|можешь делать) (?:всё|все|что (?:нужно|угодно|хочешь))|\b(?:acceso|permisos?|acesso|permiss[aã]o|permiss[õo]es) (?:total(?:es)?|complet[oa]s?)\b|\bhaz lo que (?:sea|necesites|haga falta)\b|\bfa[çc]a o que (?:for|precisar)\b|\b(?:accès (?:complet|total)|tous les droits|fais ce qu'il faut|tu peux tout faire)\b|\b(?:volle[nr]? (?:Rechte|Zugriff|Berechtigungen)|vollen? Zugriff|mach,? was (?:nötig|notwendig) ist|du darfst alles)\b|完全权限|全部权限|所有权限|完全访问|随便(?:改|做|弄)|全権限|フルアクセス|何でも(?:して|やって)(?:いい|OK|構わない)|모든 권한|전체 권한|마음대로 (?:해|하세요)/i;

/** The user's own words (not an agreed proposal) that grant blanket permission, or null. */
export function blanketGrant(requests: readonly Request[]): string | null {
  return grantIn(requests, BLANKET_GRANT) ?? grantIn(requests, BLANKET_GRANT_INTL);
}

/**
 * The user's own words asking for wholesale removal — "remove everything including docker",
 * "wipe the whole server" — or null. Only "everything" or a whole machine counts: "remove all the
 * console.logs" names what to remove and grants nothing else.
 */
export function removalGrant(requests: readonly Request[]): string | null {
  return grantIn(requests, REMOVAL_GRANT);
}

/**
 * The user's newest own words that order an act (`order`: "no push everything i'll make my
 * repo private") in answer to a message of the agent's that named what was at stake (`named`: the
 * files it flagged): informed consent, quoted as the sentence that holds the order; null otherwise.
 * The user knew, so the finding is one step lower — never silent: what went out still has to be undone.
 */
export function orderedAfterWarning(requests: readonly Request[], order: RegExp, named: (said: string) => boolean): string | null {
  // The user's newest order of this kind: a later "yes" to something else neither adds nor takes it back.
  const last = [...requests].reverse().find((r) => r.by === 'user' && !r.agreed && order.test(r.text));
  if (!last?.after || !named(last.after)) return null;
  const m = order.exec(last.text);
  if (!m) return null;
  const from = Math.max(last.text.lastIndexOf('\n', m.index), ...['.', '!', '?', ';'].map((p) => last.text.lastIndexOf(p, m.index))) + 1;
  return last.text.slice(from, m.index + 80).split(/[.;!?\n]/)[0].trim();
}

/**
 * The user's own words that name a file and waive its security in the same message — "put all
 * the creds in .env, don't worry about security", "creds in .env; it's a demo VPS, security is
 * fine" — quoted, or null. The user knew what the file holds and where it was going: a finding
 * about it is one step lower, never silent.
 */
export function riskAccepted(requests: readonly Request[], names: (said: string) => boolean): string | null {
  for (const r of [...requests].reverse()) {
    if (r.by !== 'user' || r.agreed || !names(r.text) || WAIVER_UNDONE.test(r.text)) continue;
    const m = RISK_WAIVED.exec(r.text);
    if (m) return r.text.slice(m.index, m.index + 80).split(/[.;!?\n]/)[0].trim();
  }
  return null;
}

/** The same message forbids the act or says the values are real: "NEVER commit .env", "it has the real prod keys though". */
const WAIVER_UNDONE = /\b(?:never|don'?t|do not|not|no)\b[^.\n]{0,30}\b(?:commit|push|add|include|upload|share|check in)\b|\b(?:real|prod(?:uction)?|live)\b[^.\n]{0,20}\b(?:keys?|creds?|credentials|secrets?|passwords?|tokens?)\b|никогда не|не коммить|не пуш/i;

const RISK_WAIVED = /\b(?:don'?t|do not|no need to|never mind) (?:worry|care) about (?:the )?security\b|\bsecurity (?:is|isn'?t) (?:fine|ok(?:ay)?|not (?:an issue|a concern|important))\b|\b(?:it'?s|this is) (?:just |only )?(?:a )?(?:demo|dev|test|throwaway|sandbox) (?:server|vps|box|machine|environment|project|repo)\b|не ?парься (?:о|про) безопасност\w*|нормально по безопасности|(?:это|у нас) демо|\bno te preocupes por la seguridad\b|\bnão se preocupe com (?:a )?segurança\b|\bne t'inquiète pas (?:pour|de) la sécurité\b|\bkeine Sorgen (?:um|wegen) (?:die |der )?Sicherheit\b|不用(?:担心|管)安全|安全(?:没关系|无所谓)|セキュリティは(?:気にしないで|大丈夫)|보안은 신경 ?쓰지/i;

/** The first of the user's own requests (not an agreed proposal) that `grant` matches, quoted to the end of its clause. */
function grantIn(requests: readonly Request[], grant: RegExp): string | null {
  for (const r of requests) {
    if (r.by !== 'user' || r.agreed) continue;
    const m = grant.exec(r.text);
    if (m) return r.text.slice(m.index, m.index + 80).split(/[.;!?\n]/)[0];
  }
  return null;
}
// "Clean everything up" is tidying, not a request to delete: only verbs that mean removal count.
const REMOVAL_GRANT = /\b(?:remove|delete|wipe|purge|erase|nuke|uninstall)\s+(?:absolutely\s+|literally\s+)?(?:everything|all of (?:it|them)|the (?:whole|entire) (?:server|machine|system|vps|box|disk|drive|instance))\b(?!\s+up\b)|\bwipe (?:the |this )?(?:server|machine|vps|box|instance)\b/i;

/** Tools through which the agent asks the user (Gemini CLI's ask_user, Codex's request_user_input). */
const ASK_TOOL = /^(?:ask_user|request_user_input)$/;
/** The words an answer says no with, in the languages of AGREES. */
const NO_WORDS = String.raw`no|nope|cancel|don'?t|do not|não|nao|nein|non|không|đừng|不|いいえ|아니`;
/** A Gemini ask_user answer that is a no (`{"answers":{"0":"No"}}`). */
const DECLINES = new RegExp(String.raw`"(?:${NO_WORDS})"`, 'i');

/** Claude Code's record of a plan approved at its prompt (ExitPlanMode's result). */
const PLAN_APPROVED = /^\s*User has approved your plan\b/;

/** An AskUserQuestion answer (`"question"="answer"`) that begins with a no. */
const ANSWER_DECLINES = new RegExp(String.raw`="\s*(?:${NO_WORDS})(?![a-z])`, 'i');

/** Claude Code's record of the user's answers to AskUserQuestion. */
const ANSWERED = /^User has answered your questions?:/;

/**
 * The options of an AskUserQuestion call that the answer picked, with their descriptions: the
 * option whose label is the answer, or whose label the answer begins with, or that begins with
 * the answer's first two words ("Sim, limpar e se houver…" picks "Sim, limpar cache do Gradle").
 */
function pickedOptions(args: unknown, answer: string): string {
  const questions = (args as { questions?: unknown } | null)?.questions;
  if (!Array.isArray(questions)) return '';
  // each question's own answer: `"question"="answer"` pairs in the result
  const answers = new Map([...answer.matchAll(/"([^"]{1,600})"\s*=\s*"([^"]{1,400})"/g)].map((m) => [m[1]!.trim(), m[2]!.trim().toLowerCase()]));
  const out: string[] = [];
  for (const q of questions.slice(0, 10)) {
    const options = (q as { options?: unknown } | null)?.options;
    const text = (q as { question?: unknown } | null)?.question;
    const own = typeof text === 'string' ? answers.get(text.trim()) : undefined;
    if (!Array.isArray(options) || own === undefined) continue;
    const chosen = [own];
    for (const o of options.slice(0, 20)) {
      const label = typeof (o as { label?: unknown }).label === 'string' ? ((o as { label: string }).label).trim().toLowerCase() : '';
      const description = typeof (o as { description?: unknown }).description === 'string' ? (o as { description: string }).description : '';
      if (label.length < 2) continue;
      const lead = (a: string) => a.split(/\s+/).slice(0, 2).join(' ');
      if (chosen.some((a) => a === label || a.startsWith(label) || (lead(a).length >= 4 && label.startsWith(lead(a))))) out.push(`${label}: ${description}`.slice(0, 1_000));
    }
  }
  return out.join('\n');
}

/** A message that presents itself as the plan ("Below is a decision-complete plan", "## Plan"). */
const PLAN_MESSAGE = /^#{1,3}\s*(?:implementation\s+)?plan\b|\b(?:here(?:'s| is)|below is)\s+(?:the|a|my)\s+(?:[\w-]+\s+){0,3}plan\b/im;
/** The user's go-ahead for a plan in words of their own. */
const GO_WITH_PLAN = /\b(?:implement|execute|carry\s+out|go\s+(?:ahead\s+)?with|proceed\s+with|start\s+(?:on|with)|follow|apply|build)\s+(?:the|this|that|your|our)\s+plan\b/i;

/**
 * A reply that ends in a question ("ok?", "yes, but why?", "sure, can you explain first?") asks
 * back; it agrees to nothing yet. An English reply whose clauses are orders ("yes please save it to
 * a file and write the next step?") is not a question for its question mark: one asks with a
 * question word or an auxiliary at the start of a clause. Other languages keep the mark alone.
 */
/** A pick that refuses or asks about the option ("方案2不行", "方案 2 有风险吗", "option 2 won't work"). */
const REFUSED_PICK = /不行|不要|不好|不用|不对|吗|嗎|かな|ですか|ません|ないで|\b(?:won'?t|doesn'?t|not|no good|risky\?)\b/i;
const OPTION_PICK = /^(option|方案|选项|選項|オプション|案|옵션|opci[oó]n|op[cç][aã]o)\s*(\d{1,2})\b/i;

/**
 * The text of the option a reply picked ("方案 2" → the proposal's "方案 2：…" paragraph up to the
 * next option), or null when the reply picks none or the proposal does not label its options so.
 */
function pickedOption(proposal: string, reply: string): string | null {
  const pick = OPTION_PICK.exec(reply);
  if (!pick) return null;
  const [, label, number] = pick;
  const heads = [...proposal.matchAll(new RegExp(String.raw`(?:^|\n)[\s#*>-]*(?:${escapeRegExp(label)}\s*(\d{1,2})|(\d{1,2})[.)])`, 'gi'))];
  const at = heads.findIndex((h) => (h[1] ?? h[2]) === number);
  if (at < 0) return null;
  return proposal.slice(heads[at]!.index, heads[at + 1]?.index ?? proposal.length);
}

function asksBack(reply: string): boolean {
  // Greek writes its question mark as a semicolon (";" or U+037E)
  if (/[\u0370-\u03ff][^;;]*[;;]\s*$/.test(reply)) return true;
  if (!/[?？]\s*$/.test(reply)) return false;
  if (/[^\x00-\x7f]/.test(reply) || reply.trim().split(/\s+/).length <= 3) return true;
  // the last clause checks or limits ("…, right?", "only the dev one?", "or just dev first?", "it will not delete anything?")
  const last = reply.slice(Math.max(...[',', ';', ':', '.', '!'].map((p) => reply.lastIndexOf(p, reply.length - 2))) + 1);
  return QUESTION_CLAUSE.test(reply) || TAG_OR_LIMIT.test(last);
}
const TAG_OR_LIMIT = /\b(?:right|correct|really|ok|okay|yes|no|yeah)\s*[?？]\s*$|\b(?:or|only|just|not|never)\b|n't\b/i;
const QUESTION_CLAUSE = /(?:^|[,;:.!]\s*|\b(?:and|but|or|so|also|then|yes|ok(?:ay)?|sure|yeah)\s+)(?:what|why|how|which|where|when|who|whom|whose|is|are|am|was|were|do|does|did|can|could|would|should|will|shall|have|has|had|may|might|must|isn'?t|aren'?t|won'?t|don'?t|doesn'?t|didn'?t|wouldn'?t|shouldn'?t|couldn'?t)\b/i;

// Yes in the languages users write to agents in (issue 25, item 5: "in any language"): English,
// French, Spanish, Portuguese, Italian, German, Russian, Chinese, Japanese, Korean.
const AGREES = /^(?:y(?:es|ep|eah|up)?|ok(?:ay)?|sure|(?:i\s+)?agree(?:d)?|i\s+approve|go(?: ahead| for it| on)?|do it|proceed|approved?|lgtm|sounds good|please do(?!\s+n(?:o|')t)|perfect|great|continue|let'?s do it|option \d|(?:方案|选项|選項|オプション|案|옵션|opci[oó]n|op[cç][aã]o)\s*\d|\d\b|oui|vas-?y|d'accord|fais[- ]le|applique|sí|si|claro|vale|dale|adelante|hazlo|sim|pode(?: sim| fazer| seguir| continuar|(?=[.!]*$))|manda(?: ver| bala)|faça(?: isso)?(?=[.!]*$)|isso mesmo|beleza|certo|va bene|procedi|fallo|ja|genau|klar|gerne|weiter|да|давай|хорошо|ок|はい|お願い|進めて|いいよ|네|예|좋아|진행|好的?|是的?|可以|行|继续|同意|ναι|εντάξει|προχώρα|συνέχισε|κάν[εέ] το)(?:\b|[\s,.!:、，。！]|$)/i;

// "Do all of them", "Faça todas essas correções", "haz todas": the whole list the agent proposed,
// agreed to at once (issue 25, item 5), in the languages of AGREES.
/** A courtesy before the words that agree: "please go ahead & fix with cli command", "please, yes", "pls continue". */
const POLITE = /^(?:please|pls|kindly),?\s+/i;
/**
 * A reply that agrees and then holds something back ("ok, but do not change IAM", "please continue
 * investigating, but don't touch the role", "please go back and explain first"): not a yes to the proposal.
 */
const HOLDS_BACK = /\b(?:but|except|however)\b[^.!?]{0,80}\b(?:not|n't|never|no)\b|\b(?:do\s+not|don'?t|never)\s+(?:\w+\s+)?(?:change|touch|modify|push|commit|delete|remove|deploy|merge|run|apply|grant)\b|^(?:please\s+)?go\s+back\b/i;

/**
 * A yes that holds one act back ("yes i said to sync them, just don't remove them", "ok but never
 * push"): the proposal without its sentences that speak of that act, or null when what is held back
 * is not one act of a few words (a broad "don't change anything", a "but … not" clause) — then
 * nothing of the proposal is taken as agreed.
 */
function proposalHeldBackFrom(proposal: string, reply: string): string | null {
  const acts = [...reply.matchAll(HELD_BACK_ACT)].map((m) => m[1]!.toLowerCase());
  // ("don't delete anything" holds back more than one act of the proposal: HOLDS_BACK below keeps it)
  if (acts.length === 0 || /\b(?:but|except|however)\b[^.!?]{0,80}\b(?:not|n't|never|no)\b/i.test(reply.replace(HELD_BACK_ACT, ''))) return null;
  if (HOLDS_BACK.test(reply.replace(HELD_BACK_ACT, ''))) return null;
  const stems = acts.flatMap((a) => ACT_STEMS[a] ?? []);
  const kept = sentencesOf(proposal).filter((st) => !stems.some((stem) => new RegExp(`\\b${stem}`, 'i').test(st)));
  return kept.join('. ').trim() === '' ? null : kept.join('. ');
}
/** "don't remove", "do not push", "never merge": an act held back, one of a few that name one thing to leave undone. */
const HELD_BACK_ACT = /\b(?:do\s+not|don'?t|never)\s+(?:\w+\s+)?(push|commit|delete|remove|deploy|merge)\b(?!\s+(?:anything|everything|any\b|all\b|a\s+thing|stuff))/gi;
/** The words of each act held back, in the proposal's sentences that speak of it (verbs: "deletions" is a noun of what is seen). */
const REMOVAL_VERBS = ['delet(?:e|es|ed|ing)\\b', 'remov(?:e|es|ed|ing)\\b', 'rm\\b', 'eras(?:e|es|ed|ing)\\b', 'wip(?:e|es|ed|ing)\\b'];
const ACT_STEMS: Record<string, string[]> = { push: ['push', 'force'], commit: ['commit'], delete: REMOVAL_VERBS, remove: REMOVAL_VERBS, deploy: ['deploy', 'releas', 'publish'], merge: ['merg'] };

const AGREES_ALL = /^(?:please\s+)?(?:(?:remove|delete|rimuovi|elimina|cancella|remova|apaga|borra|supprime|lösche)\s+(?:also\s+|anche\s+|tamb[ée]m\s+|aussi\s+|auch\s+)?(?:them|those|these|the\s+others|the\s+rest|gli\s+altri|le\s+altre|tutt[ioe]|il\s+resto|os\s+outros|as\s+outras|los\s+otros|las\s+otras|les\s+autres|die\s+anderen)\b(?![^.\n]{0,30}\b(?:later|tomorrow|afterwards|next\s+time|not\s+yet|dopo|depois|luego|später)\b)|(?:do|fix|apply|implement)\s+(?:them\s+)?all\b|(?:do|fix|apply|implement)\s+(?:all\s+)?(?:of\s+)?(?:these|those|them)\b|fa[çc]a\s+tod[ao]s\b|corrija\s+tod[ao]s\b|pode\s+(?:fazer|corrigir|aplicar)\s+tod[ao]s\b|haz(?:las)?\s+tod[ao]s\b|aplica\s+tod[ao]s\b|corrige\s+tod[ao]s\b|fais\s+tout\b|applique\s+tout\b|corrige\s+tout\b|mach\s+alles\b|alle\s+umsetzen\b|сделай\s+вс[её]\b|全部(?:都)?(?:做|改|修|弄|处理|搞)|すべて(?:やって|直して|お願い)|모두\s*(?:해|수정|진행)|(?:να\s+)?(?:τα\s+)?(?:διορθώσεις|διόρθωσ[εέ]|κάνεις|κάν[εέ]|εφάρμοσ[εέ]|εφαρμόσεις)\s+(?:τα\s+)?(?:όλα|ολα)(?![Ά-ώ])|(?:set|do|make|build|implement|apply|carry)\s+(?:this|that|it)(?:\s+(?:up|out))?(?:\s+(?:now|please|then))?\s*[.!]*$)/i;

/** Claude Code's ExitPlanMode (the plan the user approves) and the like. */
function isPlanApproval(event: NormEvent & { kind: 'tool_call' }): boolean {
  return /^(?:ExitPlanMode|exit_plan_mode|update_plan)$/.test(event.name) && planText(event) !== '';
}

function planText(event: NormEvent): string {
  if (event.kind !== 'tool_call' || event.input.type !== 'other') return '';
  const args = event.input.args as { plan?: unknown } | null;
  return typeof args?.plan === 'string' ? args.plan : '';
}

function remember(map: Map<string, string>, key: string, value: string): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > SUBAGENTS_MAX) map.delete(map.keys().next().value as string);
}

/** The first request for which `test` holds (user requests first), or null. */
export function whoAsked(requests: readonly Request[], test: (text: string) => boolean): Asker | null {
  for (const r of requests) if (r.by === 'user' && test(r.text)) return 'user';
  for (const r of requests) if (r.by === 'lead-agent' && test(r.text)) return 'lead-agent';
  return null;
}

// ---- words ----------------------------------------------------------------------------------------

/** Lower-case letter/digit words, camelCase split ("FullSchema.ts" → full, schema, ts). */
export function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .match(/[a-z0-9]+/g) ?? [];
}

const wordsOf = new Map<string, string[]>();

/** words() of a request, kept for the few prompts in force (every file is checked against them). */
function requestWords(request: string): string[] {
  return memo(wordsOf, request, words);
}

/**
 * Letters grouped by how a word can start with the same sound (c/k/q, g/j, s/z/x, f/p(h), v/w,
 * vowels): a cheap first test before the edit distance and the sound keys.
 */
const ONSET_GROUPS: Record<string, string> = { e: 'a', i: 'a', o: 'a', u: 'a', y: 'a', c: 'k', q: 'k', j: 'g', z: 's', x: 's', p: 'f', w: 'v' };

function onset(word: string): string {
  const c = word.charAt(0);
  return ONSET_GROUPS[c] ?? c;
}

function sounds(letters: string): string[] {
  const [a, b] = doubleMetaphone(letters);
  return a === b ? [a] : [a, b];
}

/** Two spellings of one name: the same sound key and at most one edit in four letters. */
export function soundsAlike(heard: string, name: string): boolean {
  if (heard === name) return true;
  if (name.length < 5 || heard.length < 4) return false;
  if (onset(heard) !== onset(name)) return false;
  const max = Math.max(1, Math.floor(name.length / 4));
  if (Math.abs(heard.length - name.length) > max) return false;
  // The edit distance is the cheap test, the sound key the telling one: in that order.
  if (editDistance(heard, name, max) > max) return false;
  const keys = sounds(name);
  return sounds(heard).some((k) => k !== '' && keys.includes(k));
}

// ---- names and paths ---------------------------------------------------------------------------

/** Words after a bare name that say it is a file ("the agents file", "gemini instructions"). */
const FILE_WORDS = new Set(['file', 'files', 'instructions', 'instruction', 'config', 'configuration', 'rules', 'memory', 'guidelines', 'settings', 'script', 'doc', 'docs']);
/** Names that are everyday words or agent names: said alone they name no file. */
const NEEDS_CUE_MAX_LETTERS = 7;

interface Name {
  /** The stem's letters and digits ("fullschema", "claude"). */
  stem: string;
  /** The stem with its extension ("claudemd", "packagejson"). */
  full: string;
  ext: string;
  /** The stem's words, in order. */
  words: string[];
  /** Number of words in the stem: one-word names need a cue ("md", "file"). */
  parts: number;
}

function nameOf(path: string): Name | null {
  const base = basename(path).replace(/^\.+/, '');
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const stemWords = words(dot > 0 ? base.slice(0, dot) : base).filter((w) => !/^\d+$/.test(w));
  if (stemWords.length === 0) return null;
  const stem = stemWords.join('');
  return { stem, full: stem + ext.replace(/[^a-z0-9]/g, ''), ext, parts: stemWords.length, words: stemWords };
}

/**
 * A name of three words or more said as words ("the syntehtic log generator" for
 * synthetic-log-generator), each spelled near enough, in order, one left out of a longer name ("the
 * wazuh detection engineer" for wazuh-threat-detection-engineer.md): the user calling the thing by
 * the words that matter to them. Three words said at least.
 */
function mostWordsInOrder(heard: readonly string[], name: readonly string[]): boolean {
  if (name.length < 3) return false;
  for (let start = 0; start < heard.length; start++) {
    for (const first of [0, 1]) {
      let i = start;
      let k = first;
      let skipped = first;
      while (k < name.length && i < heard.length) {
        if (sameWord(heard[i]!, name[k]!)) {
          i++;
          k++;
        } else if (skipped === 0 && k > 0 && k + 1 < name.length && sameWord(heard[i]!, name[k + 1]!)) {
          skipped = 1;
          i++;
          k += 2;
        } else break;
      }
      const said = i - start;
      if (said >= 3 && said >= name.length - 1 && (k === name.length || (skipped === 0 && k === name.length - 1))) return true;
    }
  }
  return false;
}

function sameWord(heard: string, word: string): boolean {
  return heard === word || (word.length >= 5 && soundsAlike(heard, word));
}

/**
 * The request names the machine a command ran on over ssh: the host as written, as a whole name
 * (`cfa1`, `box.example.com`, `203.0.113.7` — not `cfa1-staging`, not `prod.evil.com` for
 * `prod.example.com`), and not in a "don't touch prod". A host that is a plain word (`web`,
 * `prod`) counts only where the text writes it as a host: after `ssh`, `@`, `host`, or in quotes.
 */
export function namesHost(request: string, host: string): boolean {
  const h = host.toLowerCase();
  if (h.length < 2 || /[^a-z0-9.:_-]/.test(h)) return false;
  const text = request.toLowerCase();
  const plainWord = /^[a-z]+$/.test(h);
  for (let at = text.indexOf(h); at !== -1; at = text.indexOf(h, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + h.length] ?? ' ';
    // a short name may stand for the full name the user wrote (`cfa1` for cfa1.example.com), never the reverse
    if (/[\p{L}\p{N}_.-]/u.test(before) || /[\p{L}\p{N}_-]/u.test(after) || (after === '.' && h.includes('.') && /[\p{L}\p{N}]/u.test(text[at + h.length + 1] ?? ''))) continue;
    const lead = text.slice(Math.max(0, at - 24), at);
    if (/\b(?:don'?t|do not|never|not|avoid|without)\b[^.\n]*$/.test(lead)) continue;
    if (plainWord && !/(?:\bssh\s+(?:-\S+\s+)*(?:\S+@)?|@|\bhost\s+|[`'"])$/.test(lead)) continue;
    return true;
  }
  return false;
}

/**
 * Does the request name this file? Its basename anywhere (any case); its name in loose spelling
 * — words run together or apart ("full schema" for 1700000000000-FullSchema.ts), misheard
 * ("CloudMD" for CLAUDE.md) — where a one-word name of up to seven letters also needs its
 * extension or a word for a file next to it ("the agents file", not "the agents").
 */
export function namesFile(request: string, path: string): boolean {
  if (!request) return false;
  const base = basename(path).toLowerCase();
  // ". env access": a dot typed apart from its name (a space after it, where no sentence ends) is a dotfile.
  const lower = request.toLowerCase().replace(/(^|\s)\.\s+(?=[a-z])/g, '$1.');
  if (base.length >= 3 && lower.includes(base)) return true;
  const name = nameOf(path);
  if (!name || name.stem.length < 3) return false;
  const heard = requestWords(request);
  if (mostWordsInOrder(heard, name.words)) return true;
  const cueNeeded = name.parts === 1 && name.stem.length <= NEEDS_CUE_MAX_LETTERS;
  const span = name.parts + 2;
  for (let i = 0; i < heard.length; i++) {
    let joined = '';
    for (let n = 1; n <= span && i + n <= heard.length; n++) {
      joined += heard[i + n - 1];
      if (joined.length > name.full.length + 3) break;
      if (name.ext && soundsAlike(joined, name.full)) return true;
      if (!soundsAlike(joined, name.stem)) continue;
      if (!cueNeeded) return true;
      const next = heard[i + n];
      if (next !== undefined && (FILE_WORDS.has(next) || next === name.ext)) return true;
    }
  }
  return false;
}

/** The path and up to three folders holding it, short of home and of a drive's or the system's root. */
function placesHolding(abs: string, home: string | null): string[] {
  const out = [abs];
  const stop = (home ?? '').replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
  let p = abs.replace(/\\/g, '/').replace(/\/+$/, '');
  for (let i = 0; i < 3; i++) {
    p = p.slice(0, p.lastIndexOf('/'));
    if (!/\/[^/]+$/.test(p) || /^[A-Za-z]:$/.test(p) || p.toLowerCase() === stop) break;
    out.push(p);
  }
  return out;
}

/**
 * Does the request name this path or a directory holding it (`~/.zshrc`, "put it in
 * ~/Documents/notes", `/etc/hosts`)? Directories count from two levels below / or home, so "~"
 * or "/etc" alone name nothing in particular; the file's own name counts when written out with
 * its dot or dash (".zshrc", "settings.json"), never by sound: outside the tree nothing loose.
 */
export function namesPath(request: string, abs: string, home: string | null): boolean {
  if (!request) return false;
  const text = slashed(request);
  const place = placeOf(abs, home);
  for (const f of place.forms) if (containsPath(text, f)) return true;
  if (place.dotPlace?.test(text.slice(0, 10_000))) return true;
  if (spokenName(abs, home)?.test(lowerOf(text).slice(0, 10_000))) return true;
  // Outside the tree a loose spelling excuses nothing: the file's own name, as written — also
  // without the order number a `conf.d`-style folder puts before it (`50unattended-upgrades`
  // is unattended-upgrades' file).
  if (place.base === null) return false;
  const unordered = place.base.replace(/^\d{1,3}[-_]?(?=[a-z])/, '');
  return containsPath(lowerOf(text), place.base) || (unordered !== place.base && unordered.length >= 6 && /[.-]/.test(unordered) && containsPath(lowerOf(text), unordered));
}

/**
 * The name people say for a file that has a well-known one: a dotfile right under home said without
 * its dot after "my"/"the"/"your" or before "file" ("add an alias to my zshrc", "the gitconfig
 * file"), a file right under /etc by its name and "file" or "entry" ("a hosts entry"). Null for any other path.
 */
function spokenName(abs: string, home: string | null): RegExp | null {
  // A system file right under /etc said by its name with a word for a file or an entry ("a hosts
  // entry", "the fstab file", "etc/hosts"); "the known hosts file" is ~/.ssh/known_hosts
  // (never a credential store: a spoken name is loose, a password file needs its path written)
  const system = /^\/etc\/([a-z][a-z0-9_-]{3,30})$/.exec(abs)?.[1];
  if (system && classifyPath(abs, { cwd: null, home }).sensitive !== null) return null;
  if (system) return memo(spokenOf, abs, () => new RegExp(`(?<!\\bknown[\\s_-]?)\\b${escapeRegExp(system)}s?\\s+(?:file|entry|entries|line)\\b|\\betc\\s*/?\\s*${escapeRegExp(system)}\\b`));
  const h = home?.replace(/\/+$/, '');
  if (!h || !abs.startsWith(`${h}/.`)) return null;
  const bare = abs.slice(h.length + 2);
  // only names no sentence uses as a word ("my zshrc", "the gitconfig", "my bash_profile", "the
  // tmux.conf"): "the profile page", "the login page" name no file
  if (bare.includes('/') || !/^[a-z][a-z0-9_.-]{3,30}$/.test(bare) || !DOTFILE_SHAPE.test(bare)) return null;
  const name = escapeRegExp(bare);
  return memo(spokenOf, bare, () => new RegExp(`\\b(?:my|the|your)\\s+${name}\\b(?![.\\w/-])|(?<![.\\w/-])${name}\\s+file\\b`));
}
const spokenOf = new Map<string, RegExp>();
/** A dotfile's name that is no English word: an rc file, a compound with `_`, a `git…`/`npm…` setting, a name with its extension. */
const DOTFILE_SHAPE = /^(?:[a-z]+rc|[a-z]+_[a-z_]+|(?:git|npm|yarn|docker|hg)[a-z]+|[a-z-]+\.(?:conf|toml|ya?ml|json|cfg|ini))$/;

// The same few requests are checked against every path a rule sees, and each path against every
// request in force: what is derived from each side alone is derived once (issue 30).
const DERIVED_MAX = 64;

function memo<V>(map: Map<string, V>, key: string, make: (key: string) => V, max = DERIVED_MAX): V {
  return memoized(map, key, make, max);
}

const slashedOf = new Map<string, string>();
const lowered = new Map<string, string>();
const saidOf = new Map<string, string[]>();

/** The request with Windows separators as slashes. */
function slashed(request: string): string {
  return request.includes('\\') ? memo(slashedOf, request, (r) => r.replace(/\\/g, '/')) : request;
}

function lowerOf(text: string): string {
  return memo(lowered, text, (t) => t.toLowerCase());
}

/** The request's words that may name a place: five letters or more, not a common path part. */
function said(request: string): string[] {
  return memo(saidOf, request, (r) => [...new Set([...words(r), ...loanwordsOf(r)].filter((w) => w.length >= 5 && !PLACE_WORDS_IGNORED.has(w)))]);
}

/**
 * The English words a request says in another script: project nouns users write as loanwords or
 * translations ("ダッシュボード", "대시보드", "仪表盘" for a folder named `…-dashboard`).
 */
function loanwordsOf(request: string): string[] {
  if (/^[\x00-\x7f]*$/.test(request.slice(0, 2_000))) return [];
  const text = request.slice(0, 10_000);
  return LOANWORDS.filter(([re]) => re.test(text)).map(([, en]) => en);
}
const LOANWORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/ダッシュボード|대시보드|仪表盘|仪表板|儀表板/, 'dashboard'],
  [/サーバー?|서버|服务器|伺服器/, 'server'],
  [/ウェブサイト|웹사이트|网站|網站/, 'website'],
  [/フロントエンド|프론트엔드|前端/, 'frontend'],
  [/バックエンド|백엔드|后端|後端/, 'backend'],
  [/ポートフォリオ|포트폴리오/, 'portfolio'],
  [/ランディングページ|랜딩\s*페이지|落地页/, 'landing'],
  [/データベース|데이터베이스|数据库|資料庫/, 'database'],
  [/スクリプト|스크립트|脚本/, 'script'],
];

interface Place {
  /** The path and the directories holding it that a request can name, in the order they are tried. */
  forms: string[];
  /** The file's own name when written out with a dot or dash (lower case), else null. */
  base: string | null;
  /** The distinctive parts of its folders' names (namesPlace), in order. */
  parts: string[];
  /** The file's name without its extension, as a title a request can give it ("路径中" of 路径中.md), or null. */
  title: string | null;
  /** A dot-folder of the user's own right under home holding the path, written after "in", "within", "into", "inside" or "under" (compiled once per path), or null. */
  dotPlace: RegExp | null;
}

const places = new Map<string, Place>();
/** The last two paths asked about: whoAsked tries one path (or a path and its folder) on every request in turn. */
const recent: { abs: string; home: string | null; place: Place }[] = [];

function placeOf(abs: string, home: string | null): Place {
  for (const r of recent) if (r.abs === abs && r.home === home) return r.place;
  const place = placeOfUncached(abs, home);
  if (recent.unshift({ abs, home, place }) > 2) recent.pop();
  return place;
}

function placeOfUncached(abs: string, home: string | null): Place {
  return memo(places, `${home ?? ''}\u0000${abs}`, () => {
    const forms: string[] = [];
    const dotPlaces: string[] = [];
    const withHome = (p: string): void => {
      forms.push(p);
      if (home && (p === home || p.startsWith(home + '/'))) {
        const rel = p.slice(home.length).replace(/^\//, '');
        forms.push(`~/${rel}`, `$HOME/${rel}`);
      }
    };
    const parts = abs.split('/').filter(Boolean);
    const homeDepth = home ? home.split('/').filter(Boolean).length : 0;
    for (let n = parts.length; n >= 2; n--) {
      const p = '/' + parts.slice(0, n).join('/');
      const depth = home && p.startsWith(home + '/') ? n - homeDepth : n;
      if (n < parts.length && depth < 2) {
        // a folder right under home written out whole ("放在这里/Users/me/project"): the user pointed at it;
        // a dot-folder there too when it is the user's own (`$HOME/.dotfiles/`), not a tool's state or keys
        if (depth === 1 && home && !parts[n - 1]!.startsWith('.')) forms.push(p);
        else if (depth === 1 && home && !TOOL_STATE_FOLDER.test(parts[n - 1]!)) {
          const rel = p.slice(home.length).replace(/^\//, '');
          dotPlaces.push(p, `~/${rel}`, `$HOME/${rel}`);
        }
        break;
      }
      withHome(p);
    }
    const base = basename(abs).toLowerCase();
    const placeParts: string[] = [];
    const rel = home && abs.startsWith(home + '/') ? abs.slice(home.length + 1) : abs;
    for (const dir of rel.split('/').slice(0, -1)) {
      if (dir.startsWith('.')) continue; // .git, .config: the tools' own folders name no place
      for (const part of dir.toLowerCase().split(/[-_.\s]+/)) {
        if (part.length < 5 || PLACE_WORDS_IGNORED.has(part)) continue;
        placeParts.push(part);
      }
    }
    const title = base.replace(/\.[a-z0-9]{1,5}$/, '');
    const titled = title !== base && (/[^\x00-\x7f]{2}/.test(title) ? title.length >= 2 : title.length >= 4);
    const dotPlace = dotPlaces.length === 0 ? null : new RegExp(`\\b(?:in|within|into|inside|under)\\s+(?:my\\s+|the\\s+)?(?:${dotPlaces.map(escapeRegExp).join('|')})(?![\\w.-])`, 'i');
    return { forms, dotPlace, base: base.length >= 4 && /[._-]/.test(base) ? base : null, parts: placeParts, title: titled ? title : null };
  });
}

/**
 * Dot-folders under home that hold tools' state, keys or configuration for everything: named as a
 * place, they bless nothing below them (`~/.config/` named is not `~/.config/autostart/x` asked for).
 */
const TOOL_STATE_FOLDER = /^\.(?:ssh|gnupg|aws|azure|gcloud|config|local|cache|kube|docker|claude|codex|gemini|cursor|vscode|npm|nvm|yarn|pnpm|cargo|rustup|go|m2|gradle|android|pki|password-store|mozilla|thunderbird|git|oci|terraform|bun|deno|pyenv|rbenv|conda|ipython|jupyter|vim|emacs|oh-my-zsh|zsh|bash|profile|Trash|vault|netrc|secrets?|ollama|cloudflared|bitcoin|ethereum|electrum|wallet|hammerspoon|keychain|kde|gnome|mail|thunderbird|ngrok|tailscale|wireguard|openvpn|minikube|helm|colima|lima|orbstack|rd|copilot|continue|aider|windsurf|zed|idea|java|dotnet|nuget|npmrc|pypirc|pip|poetry|uv|volta|asdf|mise|sdkman|nix|gem|bundle|composer|heroku|vercel|netlify|fly|supabase|firebase|stripe|op|1password|bw|doppler|infisical)(?:[-_.][\w.-]*)?$/i;

// Words for the agents' own session stores as people say them.
const STORE_WORDS = /\b(?:conversations?|transcripts?|chat (?:history|logs?)|session (?:logs?|history|files?)|past sessions|previous sessions)\b/i;
const AGENT_STORE_PATH = /\/\.(?:claude[^/]*\/projects|codex[^/]*\/(?:archived_)?sessions|gemini[^/]*\/tmp)(?:\/|$)/;
// Path parts too common to name a place on their own.
const PLACE_WORDS_IGNORED = new Set([
  'users', 'home', 'code', 'projects', 'project', 'documents', 'desktop', 'downloads', 'library', 'src', 'source', 'sources', 'repos', 'repository',
  'work', 'workspace', 'workspaces', 'files', 'config', 'configs', 'local', 'share', 'tmp', 'data', 'main', 'test', 'tests', 'hooks', 'scripts',
  'build', 'dist', 'assets', 'public', 'static', 'packages', 'modules', 'components', 'utils', 'vendor', 'settings', 'worktrees', 'backend',
  'frontend', 'server', 'client', 'templates', 'plugins', 'skills', 'commands', 'agents', 'cache', 'logs', 'images', 'styles', 'models', 'views',
]);

/**
 * Whether a request names the place a read goes to, loosely (for reads only, which change
 * nothing): the path itself (namesPath), one distinctive part of a folder name ("our backup" names
 * `~/Code/app-backup`; a typo within one edit), or, for the agents' own session stores,
 * "our conversations" / "the transcripts".
 */
export function namesPlace(request: string, abs: string, home: string | null): boolean {
  if (!request) return false;
  if (namesPath(request, abs, home)) return true;
  if (AGENT_STORE_PATH.test(abs) && STORE_WORDS.test(request)) return true;
  const place = placeOf(abs, home);
  if (place.title !== null && titlesFile(request, place.title)) return true;
  const heard = said(request);
  if (heard.length === 0) return false;
  for (const part of place.parts) {
    if (heard.includes(part) || heard.some((w) => soundsAlike(w, part))) return true;
  }
  return namesFolderPair(request, abs, home);
}

/**
 * The request gives a file its title after a word for a note or file ("save it as a note: Paths",
 * "a file called release-notes", "保存在ob的单独笔记：路径中", "ノート「パス」"): the file of that name is
 * the one asked for, wherever the user keeps such notes.
 */
function titlesFile(request: string, title: string): boolean {
  const text = lowerOf(request.length > 10_000 ? request.slice(0, 10_000) : request);
  for (let at = text.indexOf(title); at >= 0; at = text.indexOf(title, at + 1)) {
    const after = text[at + title.length];
    if (after !== undefined && /[\p{L}\p{N}_-]/u.test(after) && /[a-z0-9]/.test(title.slice(-1))) continue; // part of a longer word
    if (TITLE_CUE.test(text.slice(Math.max(0, at - 24), at))) return true;
  }
  return false;
}
const TITLE_CUE = /(?:\b(?:note|file|document|doc|page|memo)s?\s*(?:called|named|titled)?\s*[:：]?|\b(?:called|named|titled|as)|(?:笔记|筆記|文件|文档|檔案|ノート|メモ|파일|노트|메모|页面)\s*(?:叫|名为|名叫|为|は)?\s*[:：]?)\s*["'“‘「『《]?\s*$/u;

/**
 * A folder and its parent (dots dropped) both said in one sentence of the request: "put back my
 * keyd config into my config folder" names `~/.config/keyd/…`. Short or dotted names alone are too
 * common to name a place; the pair together is specific. Below home only, never home itself.
 */
function namesFolderPair(request: string, abs: string, home: string | null): boolean {
  // not inside a repository's .git (hooks run on every git command), nor folders of what runs on its own
  if (!home || !abs.startsWith(home + '/') || /\/\.git\/|\/(?:systemd|autostart|LaunchAgents)\//.test(abs)) return false;
  const dirs = abs.slice(home.length + 1).split('/').slice(0, -1).map((d) => d.replace(/^\./, '').toLowerCase());
  if (dirs.length < 2) return false;
  // the file's own folder and its parent, named together ("keyd config", "config/keyd", "keyd in config")
  const [parent, child] = [dirs[dirs.length - 2]!, dirs[dirs.length - 1]!];
  if (parent.length < 3 || child.length < 3 || parent === child || child === 'bin' || PLACE_WORDS_IGNORED.has(child) || parent === 'git' || child === 'git') return false;
  const [p, c] = [escapeRegExp(words(parent).join(' ')), escapeRegExp(words(child).join(' '))];
  const together = memo(folderPairs, `${p}\u0000${c}`, () => new RegExp(`(?:^| )(?:${c} (?:\\w+ )?(?:in|into|under|inside) (?:\\w+ )?${p}|${p} ${c}|${c} ${p})(?: |$)`));
  return memo(sentenceWordsOf, request, (r) => r.slice(0, 10_000).split(SENTENCE_END).map((t) => words(t).join(' '))).some((t) => together.test(t));
}
/** Per request, its sentences as words; per folder pair, its pattern (both derived once, issue 30). */
const sentenceWordsOf = new Map<string, string[]>();
const folderPairs = new Map<string, RegExp>();

/**
 * The folder holding `abs` (or a folder above it, below home) that the request names by its whole
 * name: written as that folder's own path (a path to a file in it does not name the folder), or
 * said as words after a naming word ("a repo called entire token costs benchmark tests" names
 * `…/entire-token-costs-benchmark-tests`), or as three words or more in order. Never a dot-folder
 * or anything under one (`~/.ssh`, `~/.config`), and never for a `.git` target. Null when none is.
 * Deletes are judged by it, so it is strict on purpose.
 */
export function namedFolder(request: string, abs: string, home: string | null): string | null {
  if (!request || /(?:^|\/)\.git(?:\/|$)/.test(abs)) return null;
  const parts = abs.split('/').filter(Boolean);
  const homeDepth = home ? home.split('/').filter(Boolean).length : 0;
  if (parts.slice(homeDepth).some((p) => p.startsWith('.') && p !== parts[parts.length - 1])) return null;
  const heard = ` ${words(request).join(' ')} `;
  for (let n = parts.length - 1; n > homeDepth; n--) {
    const dir = '/' + parts.slice(0, n).join('/');
    if (namesExactly(request, dir, home)) return dir;
    const name = parts[n - 1]!.toLowerCase().split(/[-_.\s]+/).filter(Boolean);
    if (name.length < 2 || name.every((w) => PLACE_WORDS_IGNORED.has(w))) continue;
    const said = name.join(' ');
    if (name.length >= 3 ? heard.includes(` ${said} `) : NAMING_WORD.test(heard) && new RegExp(`\\b(?:called|named|repo|repository|folder|directory) ${said} `).test(heard)) return dir;
  }
  return null;
}
const NAMING_WORD = /\b(?:called|named|repo|repository|folder|directory)\b/;

/**
 * A request to throw a repository's history away: "delete the git history", "remove .git and start
 * a clean repo", "apagar o histórico do Git", "删除 git 历史", not negated.
 */
export function asksToDeleteGitHistory(request: string): boolean {
  return request.slice(0, 10_000).replace(/[’‘]/g, "'").split(SENTENCE_END).some((s) => GIT_HISTORY_REMOVAL.test(s) && !REMOVAL_HELD_BACK.test(s));
}
const GIT_HISTORY_REMOVAL = /\b(?:delete|remove|wipe|nuke|drop|erase|apagar|excluir|remover|borrar|eliminar|supprimer|l[öo]schen)\b[^.\n]{0,40}(?:\bgit\s+history\b|\.git\b|hist[óo]rico\s+do\s+git|historial\s+de\s+git|historique\s+git|git-?(?:historie|verlauf))|(?:删除|清除|清空)[^。\n]{0,10}(?:git\s*历史|\.git)|\b(?:start\s+over|re-?init(?:iali[sz]e)?)\b[^.\n]{0,40}\b(?:repo|repository|git)\b|(?:apagar|remover)[^.\n]{0,60}reposit[óo]rio\s+limpo/i;

/**
 * A sentence of the request that asks to remove `abs` itself by its name and its parent's (dots
 * dropped): "删除目前claude下所有skills" (delete all the skills under claude) names `~/.claude/skills`,
 * "remove the old-api folder in projects" `~/projects/old-api`. Both names are needed, each of three
 * letters or more, with `removal` (the caller's words for deleting) in the same sentence, not negated.
 */
export function namesForRemoval(request: string, abs: string, removal: RegExp, home: string | null = null): boolean {
  if (removesProgram(request, abs, removal, home)) return true;
  if (writesOutForRemoval(request, abs, removal, home)) return true;
  if (listedForRemoval(request, abs, removal, home)) return true;
  const parts = abs.replace(/\/+$/, '').split('/').filter(Boolean);
  const homeDepth = home ? home.split('/').filter(Boolean).length : 2;
  // the parent below home: the user's own name (home's folder) names nothing
  if (parts.length - homeDepth < 2 || /(?:^|\/)\.git$/.test(abs)) return false;
  const [parent, base] = parts.slice(-2).map((p) => p.replace(/^\./, '').toLowerCase());
  if (!parent || !base || parent.length < 3 || base.length < 3) return false;
  const [b, p] = [words(base).join(' '), words(parent).join(' ')];
  // the two names together, the folder's own first or after "under/in": "claude skills", "skills under claude", "claude/skills"
  const together = new RegExp(`(?:^| )(?:${escapeRegExp(p)} ${escapeRegExp(b)}|${escapeRegExp(b)} (?:folder |directory |dir )?(?:under|in|inside|of) (?:the |my )?${escapeRegExp(p)})(?: |$)`);
  return request.slice(0, 10_000).replace(/[’‘]/g, "'").split(SENTENCE_END).some((sentence) => {
    if (!removal.test(sentence) || REMOVAL_HELD_BACK.test(sentence)) return false;
    // the folder is what goes, not the place something is removed from ("the pdf skill from my claude skills")
    const heard = words(sentence).join(' ');
    const m = together.exec(heard);
    return m !== null && !/(?:^| )(?:from|out of|inside|within)(?: the| my| our)?\s*$/.test(heard.slice(0, m.index + 1));
  });
}
/**
 * "remove the ~/old-project folder, I do not need it": a sentence that orders a removal and writes
 * this very path out (`~/x`, `$HOME/x`, the absolute path) — as what goes, not as the place
 * something is removed from ("remove the build files from ~/old-project"). Never a credential
 * folder, never home itself.
 */
function writesOutForRemoval(request: string, abs: string, removal: RegExp, home: string | null): boolean {
  const h = (home ?? '').replace(/\/+$/, '');
  if (!h || !abs.startsWith(`${h}/`) || classifyPath(abs, { cwd: null, home: h }).sensitive !== null) return false;
  const rel = abs.slice(h.length + 1).replace(/\/+$/, '');
  const forms = [`~/${rel}`, `$HOME/${rel}`, `${h}/${rel}`].map(escapeRegExp).join('|');
  const written = new RegExp(`(?<![\\w./~$-])(?:${forms})\\/?(?![\\w./-])`);
  return orderSentences(request).some((s) => {
    const m = written.exec(s);
    return m !== null && removalGoverns(s, m.index, removal);
  });
}

/**
 * The removal verb governs what stands at `at`: it is in the words right before it, with nothing
 * between that starts another act ("delete the build folder, then copy ~/x …") or makes the path a
 * place ("the logs inside my ~/x", "the build files from ~/x").
 */
function removalGoverns(text: string, at: number, removal: RegExp): boolean {
  const before = text.slice(Math.max(0, at - 60), at);
  const verb = [...before.matchAll(new RegExp(removal.source, 'gi'))].pop();
  if (!verb) return false;
  const between = before.slice((verb.index ?? 0) + verb[0].length);
  return !/[,;]|\b(?:then|and|also|to|copy|move|backup|back\s+up|keep)\b/i.test(between) && !AS_PLACE.test(before);
}

/**
 * A list the request gives of what to remove, naming the folder by its path below home as written
 * (`.gradle`, `.cache/puppeteer`, `~/.rvm`): an agent's table "Altre cartelle da rimuovere" the user
 * answered "ok" to. The line that names it belongs to the nearest heading above it (a line that
 * ends with ":" or starts with "#" or "**"), and that heading must say remove — a "to keep" or "to
 * check with you" section names folders that stay. Never a credential folder (`.ssh`, `.gnupg`).
 */
function listedForRemoval(request: string, abs: string, removal: RegExp, home: string | null): boolean {
  const h = (home ?? '').replace(/\/+$/, '');
  if (!h || !abs.startsWith(h + '/') || classifyPath(abs, { cwd: null, home: h }).sensitive !== null) return false;
  const rel = abs.slice(h.length + 1).replace(/\/+$/, '');
  if (rel === '' || rel.split('/').length > 3 || !removal.test(request)) return false;
  const lines = request.slice(0, 10_000).split('\n');
  const named = new RegExp(`(?:^|[\\s\`'"|(])(?:~\\/)?${escapeRegExp(rel)}\\/?(?=$|[\\s\`'"|),:;])`);
  // read forward once: the heading in force, reset by a paragraph of prose after a blank line
  let heading: 'remove' | 'other' = 'other';
  let blank = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') {
      blank = true;
      continue;
    }
    const item = LIST_ITEM.test(line);
    if (isListHeading(line)) {
      // a heading that orders or proposes removal ("Altre cartelle da rimuovere:", "Will delete:"), not one that holds it back
      // ("Do NOT delete:", "Before deleting anything, …"); a sub-heading that says neither keeps the one above
      if (KEEP_WORD.test(line) || REMOVAL_HELD_BACK.test(line) || NOT_AN_ORDER.test(line)) heading = 'other';
      else if (removal.test(line)) heading = 'remove';
    } else if (!item && blank) heading = 'other';
    blank = false;
    if (!named.test(line) || REMOVAL_HELD_BACK.test(line) || KEEP_WORD.test(line)) continue;
    // "Remove `.gradle` and `.vibe`": a line that says it itself, or a row of a list under a removal heading
    // (the path as what goes, not as the place something goes from: "remove the build files from ~/x")
    const at = named.exec(line)?.index ?? 0;
    if ((removal.test(line) && !NOT_AN_ORDER.test(line) && removalGoverns(line, at + 1, removal)) || (item && heading === 'remove')) return true;
  }
  return false;
}
/** Words before a path that make it the place something is removed from, not what is removed. */
const AS_PLACE = /\b(?:from|in|inside|within|out of|under|into)\s+(?:(?:the|my|our|your|this|that)\s+)?[\s`'"(]?$/i;
/** A heading over a list: a Markdown heading, a bold line, or a short line ending in ":" (tested on trimmed lines of bounded length). */
function isListHeading(line: string): boolean {
  if (line.length > 200) return false;
  return line.startsWith('#') || (line.startsWith('**') && /\*\*:?$/.test(line)) || /:\**$/.test(line);
}
/** A row of a list or table: `- x`, `* x`, `1. x`, `| x |`. */
const LIST_ITEM = /^(?:[-*•+]\s|\d{1,3}[.)]\s|\|)/;
/** Words that make a sentence about removing no order to remove: a condition or a time ("Before deleting anything, …", "If you remove …"). */
const NOT_AN_ORDER = /^(?:\W*)(?:before|after|if|when|unless|without|once)\b/i;
/** Words that keep a folder, in the languages agents write their lists in. */
const KEEP_WORD = /\b(?:keep|kept|tenere|mantenere|conservare|manter|mantener|conservar|behalten|garder|conserver|verificare|verify|check with you)\b|保留|残す|유지/i;

/** The user's words for deleting something, in the languages users write to agents in. */
export const REMOVAL_WORD = /\b(?:remove|removing|delete|deleting|purge|scrub|erase|strip|get rid of|take (?:it |them )?out|clean (?:it |them )?(?:out|up)|should(?:n't| not) (?:be|have been)|not be (?:placing|putting|committing|pushing)|rewrite)\b|删除|删掉|删|移除|去掉|消して|削除|삭제|remov|rimuov|cancella(?:re|te)?\b|elimin|quit[ae]|retir|supprim|entfern|lösch|\bapag(?:ar|ue|uem)\b|\bexclu(?:ir|a|am)\b/i;

/**
 * A file removed that bears the name of the program a sentence of the request asks to remove
 * ("rimuovi anche aider" → `/opt/homebrew/bin/aider`): the program's own file, by its whole name
 * of four letters or more (not a folder word every program has), the sentence not holding it back.
 */
/** Words of an order too common to tie it to the agent's sentence about a file. */
const REFERRAL_WORDS_IGNORED = new Set(['remove', 'delete', 'erase', 'drop', 'file', 'files', 'this', 'that', 'these', 'those', 'them', 'then', 'there', 'here', 'should', 'would', 'could', 'rest', 'work', 'works', 'please', 'just', 'also', 'with', 'from', 'into', 'your', 'still', 'everything', 'other', 'thing', 'things']);

/**
 * The user's order to remove something, in answer to the agent's message that named this very
 * file ("remove the screenshot" after "a screenshot (`20260411_grim.png`) is being symlinked"):
 * the sentence of that message that holds the file's name shares a word with the order. Only the
 * newest request, short, in the user's own words.
 */
export function removesWhatAgentNamed(requests: readonly Request[], abs: string): Asker | null {
  const path = abs.replace(/\\/g, '/');
  const base = basename(path);
  const folder = basename(path.slice(0, -base.length - 1));
  // never a file of a tool's state or keys folder (an ssh key, a cloud login)
  if (base.length < 6 || folder.length < 2 || path.split('/').some((part) => TOOL_STATE_FOLDER.test(part))) return null;
  const last = requests.at(-1);
  if (!last || last.by !== 'user' || last.agreed || last.document || !last.after || last.text.length > 400 || !REMOVAL_WORD.test(last.text)) return null;
  const ordered = new Set(words(last.text).filter((w) => w.length >= 4 && !REFERRAL_WORDS_IGNORED.has(w)));
  if (ordered.size === 0) return null;
  // the file's whole name as a word of the sentence, and its folder named in the message: the same file
  const named = new RegExp(`(?<![\\w.-])${escapeRegExp(base)}(?![\\w.-]*\\w)`);
  const inFolder = new RegExp(`(?<![\\w.-])${escapeRegExp(folder)}(?![\\w-])`);
  if (!inFolder.test(last.after)) return null;
  return sentencesOf(last.after).some((s) => named.test(s) && words(s).some((w) => ordered.has(w))) ? 'user' : null;
}

export function removesNamedProgram(request: string, abs: string): boolean {
  const base = abs.replace(/\/+$/, '').split('/').pop()?.toLowerCase().replace(/\.(?:exe|sh|py|js|app)$/, '') ?? '';
  if (base.length < 4 || !/^[a-z][a-z0-9_-]*$/.test(base) || GENERIC_DIR_WORDS.has(base)) return false;
  const named = new RegExp(`(?:^|[^\\p{L}\\p{N}_.-])${escapeRegExp(base)}(?![\\p{L}\\p{N}_-])`, 'iu');
  return request.slice(0, 10_000).split(SENTENCE_END).some((s) => PROGRAM_REMOVAL.test(s) && !REMOVAL_HELD_BACK.test(s) && named.test(s));
}
/**
 * The request asks, in one sentence that holds no negation, to install the program `name` ("install
 * hugo so we can build the site"), naming it as a word of its own.
 */
export function installsNamedProgram(request: string, name: string): boolean {
  if (name.length < 3 || !/^[a-z][a-z0-9_.-]*$/.test(name)) return false;
  const named = new RegExp(`(?:^|[^\\p{L}\\p{N}_.-])${escapeRegExp(name)}(?![\\p{L}\\p{N}_-])`, 'iu');
  return request.slice(0, 10_000).split(SENTENCE_END).some((s) => PROGRAM_INSTALL.test(s) && !REMOVAL_HELD_BACK.test(s) && named.test(s));
}
/** Words that install a program. */
const PROGRAM_INSTALL = /\b(?:install|set\s*up|setup|download)\b|安装|インストール|설치|instal[ae]r/i;

/** Words that remove a program (not "rewrite", "clean up" or "cancelled"). */
const PROGRAM_REMOVAL = /\b(?:remove|delete|uninstall|purge|get\s+rid\s+of)\b|rimuov|disinstall|desinstal|désinstall|elimin|entfern|deinstall|删除|卸载|移除|アンインストール|삭제/i;

/** Folder names every program has: they name no program ("remove the config" names no tool). */
const GENERIC_DIR_WORDS = new Set(['config', 'configs', 'cache', 'caches', 'data', 'share', 'local', 'library', 'application', 'support', 'preferences', 'desktop', 'plist', 'files', 'file', 'downloads', 'homebrew', 'tmp', 'temp', 'logs', 'state', 'bin', 'lib', 'src', 'build', 'dist', 'node', 'modules', 'app', 'apps', 'cli', 'tool', 'tools', 'home', 'user', 'users', 'projects', 'project', 'settings', 'zip']);
/** The user asks for a program to go whole: "remove the opencode cli completely", "uninstall opencode", "get rid of every trace of foo". */
const WHOLE_PROGRAM = /\buninstall\b|\b(?:completely|entirely|fully|every\s+trace|all\s+(?:of\s+)?(?:its|the)\s+(?:files|traces|data|config(?:uration)?s?))\b/i;
/** Where a program keeps its own files in home: its folder there is the program's, not the user's work. */
const PROGRAM_PLACE = /^(?:\.config|\.cache|\.local\/share|\.local\/state|library\/application support|library\/caches(?:\/homebrew(?:\/downloads)?)?|library\/preferences|library\/logs|appdata\/(?:local|roaming))$/;

/**
 * A removal that names a program to go whole ("remove the opencode cli completely, I installed it
 * with bun and brew") covers that program's own files wherever they lie: a path whose last part
 * names the program (`~/.config/opencode`, `~/.cache/opencode`, `ai.opencode.desktop.plist`,
 * `opencode--1.2.zip`). A name shorter than four letters or a folder word every program has
 * (config, cache, data) names nothing.
 */
function removesProgram(request: string, abs: string, removal: RegExp, home: string | null): boolean {
  const path = abs.replace(/\/+$/, '');
  const h = (home ?? guessHome(path) ?? '').replace(/\/+$/, '');
  if (!h || !path.startsWith(`${h}/`)) return false;
  const rel = path.slice(h.length + 1).toLowerCase();
  const at = rel.lastIndexOf('/');
  const [place, base] = at < 0 ? ['', rel] : [rel.slice(0, at), rel.slice(at + 1)];
  // the program's own places only: `~/.opencode`, `~/.config/opencode`, `~/Library/Caches/…` — not the user's folders, keys or checkouts
  if (!(place === '' ? base.startsWith('.') : PROGRAM_PLACE.test(place)) || classifyPath(path, { cwd: null, home: h }).sensitive !== null) return false;
  const names = base.split(/[^a-z0-9]+/).filter((w) => w.length >= 4 && !GENERIC_DIR_WORDS.has(w) && !/^\d+$/.test(w));
  if (names.length === 0) return false;
  return request.slice(0, 10_000).replace(/[’‘]/g, "'").split(SENTENCE_END).some((sentence) => {
    if (!removal.test(sentence) || REMOVAL_HELD_BACK.test(sentence) || !WHOLE_PROGRAM.test(sentence)) return false;
    const heard = new Set(words(sentence));
    return names.some((n) => heard.has(n));
  });
}

/**
 * How people name a kind of credential file rather than one file: "check the production env files",
 * "look at my ssh keys", "fix the AWS credentials", ".env 文件". Keyed by the sensitive-path kinds of
 * paths.ts. A kind of the project's own (env files) counts for the files in the working tree; one
 * kept in the home directory (keys, cloud logins) wherever it lies.
 */
const FILE_KINDS: Readonly<Record<string, { said: RegExp; inProject: boolean }>> = {
  // CJK nouns take their particles and plurals attached ("env파일들", "env文件里"): no boundary after them.
  'env-file': { said: /(?:^|[^\p{L}\p{N}_])(?:\.?env|dotenv)(?:\s*|-)(?:(?:files?|configs?|configuration|settings|vars|variables|templates?)(?![\p{L}\p{N}_])|文件|檔案|파일|ファイル)|\benvironment(?:al)?\s+(?:files?|config(?:uration)?s?|variables?\s+files?)\b|环境变量文件|環境変数(?:の)?ファイル/iu, inProject: true },
  ssh: { said: /\bssh\s*(?:keys?|config(?:uration)?|files?|folder|directory|setup|keypairs?)\b|\.ssh\b|\bid_(?:rsa|ed25519|ecdsa)\b/i, inProject: false },
  'private-key': { said: /\b(?:private|ssh|deploy|signing|tls|ssl)\s+keys?\b|\bkey\s*pairs?\b/i, inProject: false },
  'aws-credentials': { said: /\baws\s+(?:credentials?|creds|config(?:uration)?|profiles?|keys?|access\s+keys?)\b/i, inProject: false },
  'gcloud-credentials': { said: /\b(?:gcloud|google\s+cloud)\s+(?:credentials?|auth|login|config)\b|\bapplication[_ ]default[_ ]credentials\b|\bservice[- ]account\s+(?:keys?|json|file)\b/i, inProject: false },
  'kube-config': { said: /\bkube-?config\b|\bkubectl\s+(?:config|contexts?)\b|\bkubernetes\s+(?:config|credentials|contexts?)\b/i, inProject: false },
  'agent-credentials': { said: /\b(?:codex|claude|gemini)(?:\s+code|\s+cli)?\s+(?:auth|login|credentials?|tokens?|oauth)\b|\.codex\/auth\.json\b|\.claude\/\.credentials\.json\b|\boauth_creds\b/i, inProject: false },
  netrc: { said: /\bnetrc\b/i, inProject: false },
  npmrc: { said: /\b(?:npmrc|yarnrc)\b|\bnpm\s+(?:config|token|auth|registry\s+auth)\b/i, inProject: false },
  pypirc: { said: /\bpypirc\b|\bpypi\s+(?:token|config|credentials)\b/i, inProject: false },
  'docker-config': { said: /\bdocker\s+(?:config|credentials?|login|auth)\b/i, inProject: false },
  'git-credentials': { said: /\bgit\s+credentials?\b|\bcredential\s+helper\b/i, inProject: false },
  'shell-history': { said: /\b(?:shell|bash|zsh|fish|command|terminal)\s+history\b/i, inProject: false },
};

/**
 * Does a sentence of the request name the kind of credential file that `abs` is (its sensitive
 * kind, as paths.ts reads it), not negated? "Check docker dev.oidc and the production env files in
 * detail, then refactor them" asks for the project's env files to be read.
 */
export function namesFileKind(request: string, kind: string, inProject: boolean): boolean {
  const spec = Object.hasOwn(FILE_KINDS, kind) ? FILE_KINDS[kind] : undefined;
  if (!request || !spec) return false;
  if (spec.inProject && !inProject) return false;
  const asking = sentencesAsking(request);
  if (asking.some((s) => spec.said.test(s))) return true;
  if (!inProject || !PROJECT_CREDENTIAL_KINDS.has(kind) || !asking.some((s) => SECURITY_AUDIT.test(s))) return false;
  // an audit grants no read that another sentence of the request forbids
  return !request.slice(0, 10_000).split(SENTENCE_END).some((s) => KEEPS_FROM_READING.test(s) && CREDENTIAL_FILES.test(s));
}

/**
 * A security audit of the project (its secrets, credentials or configuration) asks for the
 * project's own credential files to be read: checking what they hold, and whether it leaked, is
 * the audit. Files outside the project are not part of it.
 */
const PROJECT_CREDENTIAL_KINDS = new Set(['env-file', 'private-key']);
const SECURITY_AUDIT = /\bsecurity\s+(?:audit|review|scan|check|assessment|hardening|sweep)s?\b|\baudit\s+(?:\w+\s+){0,3}?(?:security|secrets?|credentials?)\b|\b(?:check|scan|look|search|audit|find|review)\s+(?:\w+\s+){0,4}?(?:for\s+)?(?:any\s+)?(?:hard-?coded|leaked|exposed|committed)\s+(?:secrets?|credentials?|api\s+keys?|keys?|passwords?|tokens?)\b|\b(?:check|scan|look|search)\s+(?:\w+\s+){0,3}?for\s+(?:\w+\s+){0,2}?(?:secrets?|credentials?)\b|安全(?:审计|審計|审查|審查|检查|檢查)|(?:密钥|秘钥|凭据|密码)(?:泄露|泄漏)|セキュリティ(?:監査|チェック|レビュー)|보안\s*(?:점검|감사|검토)/i;
/**
 * A sentence that keeps the agent from reading credential files ("do not read the .env files",
 * "never open the key files"): no audit reaches them then. "Never commit secrets" or "do not change
 * the API keys" is about something else.
 */
const KEEPS_FROM_READING = /\b(?:don'?t|do not|never|avoid|no need to)\s+(?:\w+\s+){0,2}?(?:read(?:ing)?|open(?:ing)?|cat|print(?:ing)?|show(?:ing)?|look(?:ing)?\s+(?:at|in|into)|access(?:ing)?|display(?:ing)?|touch(?:ing)?)\b/i;
const CREDENTIAL_FILES = /\.env\b|\benv(?:ironment)?\s+files?\b|\b(?:key|credentials?|secrets?)\s+files?\b|\bprivate\s+keys?\b|\bid_(?:rsa|ed25519|ecdsa)\b/i;

/**
 * The request's sentences that ask for something, without those that keep the agent away from it
 * ("don't touch the env files", "never read .env"): a file or kind named there is not asked for.
 */
/** A request's sentences (up to its first 10,000 characters), split at `.`, `!`, `?`, `;` or a line break before a space. */
export function sentencesOf(request: string): string[] {
  return request.slice(0, 10_000).split(/[.!?;\n]+(?=\s|$)/);
}

/**
 * The sentences of a request that give an order: not a question ("should I …?", "would a force push
 * break …"), not a condition ("if …", "once …"), nothing held back in them ("don't", "never", "no",
 * "not", "keep", "leave", "except", "instead of", "a bad idea"), and no report of what already
 * happened ("yesterday", "failed", "you reset … and lost"). What a rule lowers "as requested" must
 * stand in one of these; anything else keeps the finding as it was.
 */
export function orderSentences(request: string): string[] {
  return request.slice(0, 10_000).replace(/[’‘]/g, "'").split(/(?<=[.!?])\s+|(?<=[。！？])\s*|\n+|;\s*/).filter((s) => {
    const t = s.trim();
    // (a reason given for the order is no holding back: "remove ~/x, I don't need it")
    const held = t.replace(/\b(?:i|we)\s+(?:do not|don'?t|no longer)\s+(?:need|use|want)\b/gi, '');
    return t !== '' && !/[?？]\s*$/.test(t) && !NOT_AN_ORDER_START.test(t) && !HELD_BACK_ANYWHERE.test(held) && !REPORTED.test(t);
  });
}
const NOT_AN_ORDER_START = /^(?:(?:should|shall|would|could|can|will|may|might)\s+(?!you\b|u\b)\w|(?:is|are|was|were|do|does|did|has|have|why|what|how|when|where|which|who|if|unless|once|whether)\b)/i;
const HELD_BACK_ANYWHERE = /\b(?:don'?t|do not|doesn'?t|never|no|not|without|instead of|rather than|avoid|except|keep|leave|shouldn'?t|can'?t|cannot|won'?t|bad idea|refuse)\b|不要|别|しないで|하지\s*마|않/i;
const REPORTED = /\b(?:yesterday|earlier|last\s+(?:time|week|night)|already|failed|broke|lost)\b/i;

export function sentencesAsking(request: string): string[] {
  const text = request.slice(0, 10_000).replace(/[’‘]/g, "'");
  // whole when nothing is kept away (a split would cut ". env access" at its dot)
  if (!KEPT_AWAY.test(text)) return [text];
  return text.split(SENTENCE_END).filter((s) => !KEPT_AWAY.test(s));
}
/**
 * Whether a sentence of the request that names `words` asks for something: a sentence that only
 * inquires ("what's going on with all those directories getting added to .gitconfig [safe]?",
 * "why is known_hosts changing") names the thing without asking for a change. A question that
 * asks ("can you fix the gitconfig?", "could you add it to known_hosts") still asks.
 */
export function namesInAsk(request: string, words: RegExp): boolean {
  if (!words.test(request)) return false;
  const text = request.slice(0, 10_000).replace(/[’‘]/g, "'");
  // "why does git config keep growing? fix it": an order that points back at what was asked about
  return REFERS_BACK.test(text) || text.split(/(?<=[.!?。！？])(?=\s|$)|\n+/).some((s) => words.test(s) && !inquiry(s));
}
/** A sentence that asks about something: it opens with a question word and ends with "?" or has no clause after a comma ("When you connect, add its key" is an order). */
function inquiry(sentence: string): boolean {
  const s = sentence.trim();
  if (!INQUIRY.test(s)) return false;
  // "when does the deploy add the key" asks even without its mark; "When you connect, add …" orders
  return s.endsWith('?') || /^(?:when|where)\s+(?:does|do|did|is|are|was|were|will|can|could|should|would)\b/i.test(s) || (!s.includes(',') && !/^(?:when|where)\b/i.test(s));
}
const INQUIRY = /^(?:what(?:'s|\s+is|\s+are|\s+was|\s+were)?|why|who|where|when|how\s+come|is\s+(?:it|this|that|there)|are\s+(?:these|those|there)|does|did|do\s+(?:you\s+know|we\s+know))\b/i;
const REFERS_BACK = /\b(?:fix|change|remove|clean(?:\s+up)?|delete|stop|revert|undo|reset|sort\s+out)\s+(?:it|this|that|them)\b/i;

const KEPT_AWAY = /\b(?:don'?t|do not|never|avoid|without|no need to)\s+(?:\w+\s+){0,2}?(?:read(?:ing)?|touch(?:ing)?|open(?:ing)?|print(?:ing)?|show(?:ing)?|look(?:ing)?|check(?:ing)?|edit(?:ing)?|chang(?:e|ing)|modify(?:ing)?|us(?:e|ing)|access(?:ing)?|cat|display(?:ing)?|commit(?:ting)?)\b|(?:不要|别|不用)(?:读|看|碰|动|打开|修改|改)|しないで|하지\s*마/i;

/** A sentence ends at its mark followed by a blank or the end (a path's dots do not end one). */
const SENTENCE_END = /[.!?。！？](?=\s|$)|\n+/;
/** Words that take the folder out of a removal, or negate it. */
const REMOVAL_HELD_BACK = /\b(?:don'?t|do not|never|not|except|keep|but not|other than|rest)\b|不要|别|除了|保留|しないで/i;

/** The request writes `dir` itself as a path (`~/work/api`, `/home/dev/work/api/`), not a path inside it. */
function namesExactly(request: string, dir: string, home: string | null): boolean {
  const text = slashed(request);
  const forms = [dir];
  if (home && dir.startsWith(home + '/')) forms.push(`~/${dir.slice(home.length + 1)}`, `$HOME/${dir.slice(home.length + 1)}`);
  return forms.some((f) => {
    for (let at = text.indexOf(f); at >= 0; at = text.indexOf(f, at + 1)) {
      const before = text[at - 1];
      const after = text.slice(at + f.length, at + f.length + 2);
      if ((before === undefined || !/[\w./~-]/.test(before)) && !/^\/?[\w.-]/.test(after)) return true;
    }
    return false;
  });
}

/** `text` mentions `p` as a whole path (not as the start of a longer one). */
function containsPath(text: string, p: string): boolean {
  let at = text.indexOf(p);
  while (at >= 0) {
    const after = text[at + p.length];
    if (after === undefined || !/[\w.-]/.test(after)) return true;
    at = text.indexOf(p, at + 1);
  }
  return false;
}

// ---- commands ------------------------------------------------------------------------------------

/** Quotes, backticks and whitespace runs do not change what a dictated command says. */
function normaliseCommand(text: string): string {
  return text.replace(/[‘’“”'"`]/g, '').replace(/\s+/g, ' ').trim().replace(/;$/, '').toLowerCase();
}

// The same few prompts are checked against every command a rule reports: normalise each once
// (as many as the other per-request memos keep: with 30 prompts in force, 16 entries were cycled
// through and never hit, issue 30).
const NORMALISED_MAX = DERIVED_MAX;
const normalised = new Map<string, string>();

// …and one command against each request in force in turn (whoAsked): the last one is kept.
let lastCommand: string | null = null;
let lastNormalised = '';

function normalisedCommand(command: string): string {
  if (command !== lastCommand) {
    lastNormalised = normaliseCommand(command);
    lastCommand = command;
  }
  return lastNormalised;
}

function normalisedRequest(request: string): string {
  return memo(normalised, request, normaliseCommand, NORMALISED_MAX);
}

/**
 * Did the request dictate this command word for word (quoting aside)? Commands of a single word
 * or under eight characters are too common to attribute.
 */
export function dictates(request: string, command: string): boolean {
  if (command.length < 8) return false;
  const c = normalisedCommand(command);
  if (c.length < 8 || !c.includes(' ')) return false;
  const r = normalisedRequest(request);
  const at = r.indexOf(c);
  if (at < 0) return false;
  const before = r[at - 1];
  const after = r[at + c.length];
  return (before === undefined || !/[\w-]/.test(before)) && (after === undefined || !/[\w/-]/.test(after));
}

// ---- transfers and installers ----------------------------------------------------------------------

const TRANSFER_VERB = /\b(upload|send|sent|push|copy|scp|rsync|sync|deploy|post|transfer|share|publish|put|back ?up|backup|move|serve|expose)\b/i;

/**
 * Did the request ask for this transfer? It names the destination host, or it asks to send,
 * upload, copy … and names the file that went.
 */
export function asksTransfer(request: string, hosts: string[], files: string[]): boolean {
  if (!request) return false;
  const lower = request.toLowerCase();
  // the host named in a sentence that does not hold the transfer back ("don't upload anything to myserver.com")
  const named = (h: string) => h.length >= 4 && !/^rclone remote$/.test(h) && lower.includes(h.toLowerCase()) && sentencesOf(lower).some((s) => s.includes(h.toLowerCase()) && !TRANSFER_HELD_BACK.test(s));
  if (hosts.some(named)) return true;
  // "How can you write the data you collected into my local drive?", "get the files out of this
  // VM": the user asked for the data to leave, and left the route to the agent.
  if (OUTWARD.test(request)) return true;
  if (!TRANSFER_VERB.test(request)) return false;
  return files.some((f) => !f.startsWith('(') && namesFile(request, f));
}

const TRANSFER_HELD_BACK = /\b(?:don'?t|do not|never|not|no)\b[^.!?\n]{0,30}\b(?:upload|send|copy|push|sync|transfer|deploy|put|scp|rsync|anything)\b|不要|别/i;

const OUTWARD = /\b(?:transmit|transfer|send|upload|copy|write|get|move|save|download)\b[^.?!\n]{0,80}\b(?:outside|out of (?:this|the) (?:vm|machine|server|box|container)|my (?:laptop|computer|mac|pc|desktop)\b|(?:my|the) local (?:drive|disk|machine|computer|laptop)\b|to me\b)/i;

const INSTALL_VERB = /\b(install|installs|installing|set ?up|setup|get|add|upgrade|update|bootstrap|use|using)\b/i;
const ASK_VERB = /^(?:install|set|setup|add|bootstrap|get|use|update|upgrade|reinstall)$/;
/** Who does it, before the verb: a statement of what is, not an ask ("we use", "it uses"). */
const SUBJECT = /^(?:we|i|they|it|he|she|which|that|who|already|currently|also)$/;

/** An install verb among the four words before the tool at `i`, as an ask (not after a subject). */
function askedVerbBefore(asked: readonly string[], i: number): boolean {
  for (let j = Math.max(0, i - 4); j < i; j++) {
    if (!ASK_VERB.test(asked[j]!)) continue;
    // "set" only as "set up"
    if (asked[j] === 'set' && asked[j + 1] !== 'up') continue;
    if (j > 0 && SUBJECT.test(asked[j - 1]!)) continue;
    return true;
  }
  return false;
}

/**
 * The tool whose official installer this URL is, when the request asks to install that tool:
 * the tool's name (as the request says it) is part of the installer's host or of its project
 * path on a code host (`bun.sh/install` for bun, `raw.githubusercontent.com/nvm-sh/nvm/…` for
 * nvm, `astral.sh/uv/install.sh` for uv). Null otherwise.
 */
export function requestedInstaller(request: string, url: string): string | null {
  if (!request) return null;
  if (!INSTALL_VERB.test(request)) return installAskedInOtherWords(request, url);
  const owned = installerNames(url);
  if (owned.size === 0) return null;
  const asked = words(request);
  for (let i = 0; i < asked.length; i++) {
    const w = asked[i];
    // The tool as the user spelled it, typos included ("reclone" for rclone), or its package
    // runner, which ships with it ("install uvx": uv's installer; bunx, bun's).
    if (w.length < 2 || !(owned.has(w) || [...owned].some((o) => soundsAlike(w, o) || w === `${o}x`))) continue;
    // The tool is named near an install verb ("install bun", "set up nvm and node").
    const near = asked.slice(Math.max(0, i - 6), i + 3).join(' ');
    // "please don't install Homebrew", "do not set up nvm": the tool named, its install turned down
    // the verb in the four words before the tool ("install bun", "set up nvm and node", "get the
    // latest uv", "update my bun"), not said of what someone already does ("we use X + terraform",
    // "using Clerk + Hasura + Apollo" describes the stack: it asks to install nothing)
    const verbNear = askedVerbBefore(asked, i);
    if (verbNear && !/\b(?:don t|dont|do not|never|no need to|can t|cant|cannot|won t|wont|didn t|didnt|rather not|rather you didn t)\s+(?:\w+\s+){0,2}?(?:install|set up|setup|add|use)\b|\bnot\s+\w+\s+please\s+use\b/.test(near)) return w;
  }
  return null;
}

/**
 * The request names the tool an installer URL is for, as a word (`Homebrew`, `rustup`), whatever it
 * says of it: an install the user turned down or doubted ("do not install Homebrew", "the Homebrew
 * installer is sketchy") is the user's to decide, not a known source's routine.
 */
export function namesInstallerTool(request: string, url: string): boolean {
  if (!request) return false;
  const owned = installerNames(url);
  return owned.size > 0 && words(request).some((w) => w.length >= 2 && owned.has(w));
}

/** A sentence that names the tool and turns it down or doubts it ("don't install Homebrew", "the Homebrew installer is sketchy"); "use uv to run the tests" wants it. */
function turnsDownTool(request: string, url: string): boolean {
  const text = request.length > 10_000 ? request.slice(0, 10_000) : request;
  // a sentence, or a name asked about and answered in the next ("Homebrew? No.")
  const sentences = text.split(/(?<=[.!?。！？])\s*|\n+/);
  return sentences.some((s, i) => namesInstallerTool(s, url) && (TURNS_DOWN.test(s) || DOUBTS.test(s) || (/\?\s*$/.test(s) && TURNS_DOWN.test(sentences[i + 1] ?? ''))));
}

/** A no (not a conditional "if uv is not there"): REFUSES without its bare "not". */
const TURNS_DOWN = /\b(?:no|never|don'?t|do not|nicht|kein|não|nao|non|nunca|jamais|đừng)\b|^\s*not\b|不要|别|不用|しないで|마세요|말고/i;
const DOUBTS = /\b(?:sketchy|avoid|instead|without|untrusted|unsafe|skip|rather\s+not|can'?t|cannot|won'?t|didn'?t|wrecked|broke|broken)\b/i;

/** A general ban on new installs or on piping downloads into a shell ("do not install anything new", "never pipe curl into sh"). */
const INSTALL_BAN = /\b(?:don'?t|do\s+not|never|no)\b[^.!?\n]{0,25}\b(?:install\w*|pipe\w*|curl\b[^.!?\n]{0,15}\b(?:sh|bash)\b|download\w*\s+and\s+run)/i;
/** A reply that turns down what the agent just proposed ("no, use apt instead", "不要", "아니요"). */
const DECLINE_REPLY = /^\s*(?:no\b|nope\b|don'?t\b|do\s+not\b|not\s+now\b|never\b|nah\b|不要|不用|别|아니|いいえ|nein\b|non\b)/i;

/**
 * The user turned this installer's tool down or doubted it: a sentence naming it with a no or a
 * doubt, a no answered to the agent's proposal that named it (in chat or at its question), or a
 * ban on new installs or piped scripts altogether.
 */
export function userSpokeAgainstInstaller(requests: readonly Request[], declined: readonly string[], url: string): boolean {
  for (const r of requests) {
    if (r.by !== 'user') continue;
    if (!r.agreed && (INSTALL_BAN.test(r.text) || turnsDownTool(r.text, url))) return true;
    if (r.after && DECLINE_REPLY.test(r.text) && namesInstallerTool(r.after, url)) return true;
  }
  return declined.some((t) => namesInstallerTool(t, url));
}

/** "Install" in the languages users write to agents in: cài (đặt), instalar, installer, installieren, 安装, インストール, 설치, установ. */
const INSTALL_VERB_INTL = /\bcài(?:\s+đặt)?\b|\binstal(?:ar|e|a|ando|lez|lieren|liere)\b|\binstalacja\b|安装|安裝|インストール|설치|установ/i;
/** A sentence that turns the install down ("No instalar", "不要安装", "設치하지 마세요", "đừng cài"). */
const REFUSES = /\b(?:no|not|never|don'?t|do not|nicht|kein|não|nao|non|nunca|jamais|đừng|ne)\b|不要|别|不用|しないで|しない|마세요|말고|않/i;

/**
 * The names an installer URL owns: the labels of its host, or its project path on a code host
 * (`raw.githubusercontent.com/nvm-sh/nvm/…` → nvm-sh, nvm, sh), and the first path word.
 */
function installerNames(url: string): Set<string> {
  const m = /^[a-z]+:\/\/([^/?#:]+)(?::\d+)?([^?#]*)/i.exec(url);
  if (!m) return new Set();
  const host = m[1].toLowerCase();
  const pathWords = m[2].toLowerCase().split('/').filter(Boolean);
  const codeHost = /(^|\.)(github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org)$/.test(host);
  return new Set<string>([
    ...host.split('.').slice(0, -1).flatMap((label) => [label, ...label.split('-')]),
    ...(codeHost ? pathWords.slice(0, 2).flatMap((s) => [s, ...s.split(/[-_.]/)]) : pathWords.slice(0, 1)),
  ].map((w) => w.replace(/[^a-z0-9]/g, '')).filter((w) => w.length >= 2 && !/^(www|get|install|sh|raw|cdn|dl|download|releases?|main|master|static)$/.test(w)));
}

/**
 * The same request in another language: a sentence with an install verb of its own that names
 * the tool as a word (the tool's name is the same in every language: "cài Homebrew", "instalar uv").
 */
function installAskedInOtherWords(request: string, url: string): string | null {
  if (!INSTALL_VERB_INTL.test(request)) return null;
  const names = [...installerNames(url)];
  if (names.length === 0) return null;
  const named = new RegExp(`(?:^|[^a-z0-9])(${names.join('|')})(?:[^a-z0-9]|$)`);
  for (const sentence of request.slice(0, 10_000).split(/[.!?\n。！？]+/)) {
    if (!INSTALL_VERB_INTL.test(sentence) || REFUSES.test(sentence)) continue;
    const m = named.exec(sentence.toLowerCase());
    if (m) return m[1];
  }
  return null;
}

// ---- findings the request covers ---------------------------------------------------------------------

type Severity = 'critical' | 'warning' | 'info';

interface Draftish {
  rule: string;
  severity?: Severity;
  title?: string;
  detail: string;
  key?: string;
}

const LOWER: Record<Severity, Severity> = { critical: 'warning', warning: 'info', info: 'info' };

/**
 * A finding the request covers. What the user dictated or named is theirs, not the agent's
 * initiative: the finding stays as context, at info, titled "(as requested)". What a lead agent
 * dictated to its subagent is still the session's own choice: one level lower, and it says so.
 * `floor` keeps a severity the request cannot remove (a transfer the user asked for stays a
 * warning: what left the machine still needs a look).
 */
export function asRequested<D extends Draftish>(draft: D, meta: { severity: Severity; title: string }, asker: Asker, what: string, floor: Severity = 'info'): D {
  const current = draft.severity ?? meta.severity;
  const lowered = asker === 'user' ? 'info' : LOWER[current];
  const rank = { info: 0, warning: 1, critical: 2 };
  const severity = rank[lowered] < rank[floor] ? (rank[current] < rank[floor] ? current : floor) : lowered;
  const by = asker === 'user' ? 'the user asked for it' : "the lead agent's Task prompt asked for it";
  // Its own key: a requested instance never merges into (or softens) an unrequested one.
  const key = `${draft.key ?? draft.rule} (as requested)`;
  // (a title that says nobody asked — "… unasked", "… without a request" — says so no longer)
  const title = (draft.title ?? meta.title).replace(UNASKED_IN_TITLE, '');
  return { ...draft, severity, key, title: `${title} (as requested)`, detail: `${draft.detail} ${capitalise(what)}: ${by}.` };
}
const UNASKED_IN_TITLE = /\s+(?:unasked|without a request)$/;


/**
 * A rule's view of consent for commands: it follows the requests, and reports a draft about a
 * command lowered "as requested" when the request dictated that command word for word.
 */
export class DictatedCommands {
  readonly requests: RequestLog;

  /** `session`: the analysis whose one request log to read (a log of its own without one). */
  constructor(private readonly metas: readonly { id: string; severity: Severity; title: string }[], session?: object) {
    this.requests = session ? requestsOf(session) : new RequestLog();
  }

  onEvent(event: NormEvent): void {
    this.requests.onEvent(event);
  }

  /** Who dictated `command` (as the event's thread sees the requests), or null. */
  askedBy(event: NormEvent, command: string): Asker | null {
    return whoAsked(this.requests.for(event), (t) => dictates(t, command));
  }

  /** The draft, lowered when `command` was dictated; `floor` as in asRequested. */
  adjust<D extends Draftish>(event: NormEvent, command: string, draft: D, floor: Severity = 'info'): D {
    const asker = this.askedBy(event, command);
    const meta = asker ? this.metas.find((m) => m.id === draft.rule) : undefined;
    return asker && meta ? asRequested(draft, meta, asker, 'the command was dictated word for word', floor) : draft;
  }
}
