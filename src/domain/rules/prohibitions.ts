// scope/forbidden-act (issue 25, item 5: the user's words set the scope — also where they close
// it): the user said not to do something — "do not push", "don't commit yet", "do not submit any
// action to the remote without my direct approval", "I'll open the PRs myself" — and the agent did
// it anyway, with no later word of the user's that asked for it or agreed to it. Only acts Vouch
// reads for certain from a command: pushing or publishing to a remote (`git push`, `gh pr create`,
// `gh pr merge`, `gh release create`, `gh repo create`, a GitHub MCP tool that pushes or opens a
// pull request), committing, merging, and throwing work away with git (destructive.ts's discards). The request is read sentence by sentence: a message that
// forbids an act in one sentence and asks for it in another ("don't push yet; push once the tests
// pass") forbids nothing. Later, the user asking for the act in their own words, or agreeing to a
// proposal that names it, lifts the prohibition; so does a plain approval ("LGTM") where the
// user kept the decision for their review. A push that did not take effect is an attempt.
import type { NormEvent, ToolCallEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { FindingDraft, Rule } from './types.ts';
import { effectsOf } from './effects.ts';
import { gitSubcommand } from './commands.ts';
import { discardOf } from './destructive.ts';
import { Outcomes } from './outcome.ts';
import { requestsOf, type Request } from './requests.ts';
import { clip, evidence, meta, oneLine, QUOTE_MAX, safe } from './util.ts';

export const forbiddenAct = meta({
  id: 'scope/forbidden-act',
  severity: 'warning',
  title: 'Did what the user said not to',
  description: 'The user forbade an act in their own words — "do not push", "don\'t commit yet", "never merge into main", "do not submit anything to the remote without my approval", "ask me before pushing", "I\'ll open the PRs myself", the user keeping the decision ("wait for my review, I\'ll tell you whether to commit", "待我審閱後回覆是否提交") (English, and the same in French, Spanish, Portuguese, German, Russian, Chinese, Japanese and Korean for push and commit) — and the agent did it anyway: pushed or published to a remote (`git push`, `gh pr create|merge`, `gh release create`, `gh repo create`, a GitHub MCP tool that pushes files or opens or merges a pull request), committed, merged, or threw work away with git (a discard `destructive/git-discard` reads: `git checkout -- <paths>`, `git restore`, `git reset --hard`, `git clean -f`, `git stash drop`, `git branch -D`… after "never do destructive actions like a `git checkout`", "don\'t discard my changes"), with no later word of the user\'s that asked for the act or agreed to a proposal naming it (or, where the user kept the decision for a review or an approval, a short approval of their own: "LGTM", "looks good", "没问题", "確認しました"). A message that forbids an act in one sentence and asks for it in another forbids nothing. An act that did not take effect (refused, failed) is an "(attempted)" info. Dry runs are not acts.',
  remediation: 'Check what reached the remote (the pushed branch, the opened pull request) or the history, and undo what the user did not approve.',
});

type Act = 'push' | 'pr' | 'commit' | 'merge' | 'discard';

// "do not submit any action to the remote": everything that reaches the remote, a push and a pull request alike
const REMOTE_ACTION = String.raw`submit\s+(?:\w+\s+){0,3}?(?:to\s+)?(?:the\s+)?(?:remote|github|gitlab|origin)|(?:any|an?)\s+actions?\s+(?:on|to)\s+(?:the\s+)?remote`;

/** The act's verbs in a request, in the forms that order or forbid it (not the past tense: "I never merged it"). */
const ACT_WORDS: Record<Act, RegExp> = {
  push: new RegExp(String.raw`\b(?:push(?:ing)?|${REMOTE_ACTION})\b|\b(?:pousse[rz]?|push(?:er|ez))\b|\bempuj(?:es|ar|e)\b|\bpushen?\b|пуш(?:ь|ить|ьте)|推送|プッシュ|푸시`, 'i'),
  pr: new RegExp(String.raw`\b(?:(?:open|create|make|raise|file|submit)(?:ing)?\s+((?:\w+\s+){0,2}?)(?:prs?|pull\s+requests?|mrs?|merge\s+requests?)|${REMOTE_ACTION})\b`, 'i'),
  commit: /\b(?:commit(?:ting)?|check\s+in)\b|\bcommitt?(?:er|ez|ear|ar|en)\b|коммит(?:ь|ить|ьте)|提交|コミット|커밋/i,
  merge: /\bmerg(?:e|ing)\b|\bfusionn?e[rz]?\b|\bmergen\b|слей|合并|マージ|머지|병합/i,
  // throwing away uncommitted work: `git checkout -- f`, `git restore`, `git reset --hard`, `git clean`
  discard: /\bgit\s+(?:checkout|restore|reset|clean|stash\s+(?:drop|clear))\b|\b(?:discard(?:ing)?|revert(?:ing)?|throw(?:ing)?\s+away)\b/i,
};

// Between a negation and the act only a few adverbs: "don't ever push", "never force push" — not
// "don't forget to push", "I don't mind if you push".
const ADVERBS = String.raw`(?:(?:ever|yet|just|please|actually|even|directly|accidentally|auto(?:matically)?|force|straight|again|git|run|go\s+and|go\s+ahead\s+and)[\s-]+){0,3}`;
/** A negation just before the act ("don't push", "never commit", "no pushing", "you must not merge", "ne poussez pas"). */
// "never do destructive actions like a `git checkout`": the act named as an example of what is forbidden
// …and "do not use `git checkout`": a command in backticks named with "use" (not "never use merge commits")
const LIKE = String.raw`(?:(?:do|run|use|perform|make|take)\s+(?:any\s+)?(?:\w+\s+)?(?:actions?|commands?|things?|operations?)\s+(?:like|such\s+as|including)\s+(?:an?\s+|the\s+)?|use\s+(?=\x60))?`;
const NEGATED = new RegExp(String.raw`(?:\b(?:don'?t|do\s+not|never|stop|avoid|no|won'?t|will\s+not|shouldn'?t|should\s+not|must\s+not|mustn'?t|may\s+not|can'?t|cannot|not\s+to|refrain\s+from|hold\s+off(?:\s+on)?)\s+${ADVERBS}${LIKE}\x60?|\bno\s+(?:hagas|haga|hagan|faça|façam)\s+(?:\w+\s+)?|\bne\s+(?:\w+\s+){0,2}|\bnicht\s+(?:\w+\s+)?|не\s+(?:\S+\s+)?|(?:不要|别|勿|禁止)\s*\S{0,2})$`, 'i');
/** …or after it ("ne pousse pas", "pushe nicht", "コミットしないで", "커밋하지 마"). */
const NEGATED_AFTER = /^\S*\s+(?:pas|nichts|nicht)\b|^\S{0,3}(?:しないで|하지\s*마|하지\s*말)/i;
/** Any negation in the clause: a reservation ("without my approval") only forbids with one ("feel free to push without my approval" grants). */
const ANY_NEGATION = /\b(?:don'?t|do\s+not|never|not|no|nothing|won'?t|mustn'?t|shouldn'?t|cannot|can'?t)\b|\bne\b|\bnicht\b|не\s|不要|别|勿|禁止/i;
/** The act reserved: "without my approval", "ask me before", "wait for my go-ahead before", "until I confirm". */
const RESERVED_WITHOUT = /\bwithout\s+(?:my|an?|the|your|explicit|prior)?\s*(?:\w+\s+)?(?:approval|permission|ok(?:ay)?|go-?ahead|consent|confirmation|sign-?off)\b|\buntil\s+i\s+(?:approve|confirm|say\s+so|give\s+the\s+go)\b/i;
const RESERVED_ASK = /\b(?:ask|check\s+with|wait\s+for)\s+(?:me|my\s+\w+)\s+(?:\w+\s+){0,2}before\b|\bbefore\s+(?:you\s+)?(?:ask(?:ing)?|check(?:ing)?\s+with)\s+me\b|\bbefore\s+(?:you\s+)?(?:push|commit|merg|open)\w*[^.!?\n]{0,60}\b(?:ask|check\s+with)\s+me\b/i;
/**
 * The user keeps the decision: "wait for my review, then I'll reply whether to commit" —
 * "待我審閱後回覆是否提交", "等我确认后，再提交", "私の確認後、コミット", "I'll tell you whether to push" — the
 * user who decides named, not "after checking, commit" or "decide whether to commit" (the agent decides).
 * Read in the words before the act's verb.
 */
const RESERVED_DECISION = /(?:待|等)我[^。！？\n]{0,6}(?:審閱|审阅|確認|确认|檢查|检查|看過|看过|審核|审核|同意|回覆|回复)[^。！？\n]{0,14}$|我[^。！？\n]{0,8}(?:回覆|回复|決定|决定|告訴你|告诉你)是否\s*$|(?:私|僕|俺)(?:の|が)(?:確認|レビュー|チェック)(?:して|の)?(?:から|後に?)[、,\s]*$|\b(?:i'?ll|i\s+will|let\s+me)\s+(?:\w+\s+){0,2}?(?:decide|let\s+you\s+know|tell\s+you)\b[^.!?\n]{0,30}\bwhether(?:\s+or\s+not)?(?:\s+(?:to|we\s+should|you\s+should|you\s+can|we|you))?\s*$/i;
/** The user keeps the act for themselves: "I'll push it myself", "I will open the PRs", "let me merge", "leave the merge to me". */
const KEPT_BY_USER = /\bi(?:'ll|\s+will|'m\s+going\s+to|\s+am\s+going\s+to)\s+(?:\w+\s+){0,3}?(?:push|commit|merge|open|create|raise)\b[^.!?\n]{0,60}?\b(?:myself|me)\b|\bi(?:'ll|\s+will)\s+(?:open|create|raise)\s+(?:the\s+)?(?:prs?|pull\s+requests?)\b|\blet\s+me\s+(?:push|commit|merge|open)\b|\bleave\s+(?:the\s+)?(?:push(?:ing)?|commit(?:ting|s)?|merg(?:e|ing)|prs?|pull\s+requests?)\s+(?:\w+\s+)?to\s+me\b/i;
/** A prohibition for the time being: "yet", "for now", "just yet", "until I've tested it", "at this point". */
const NOT_YET = /\b(?:yet|for\s+now|for\s+the\s+moment|until\s+(?:i|we)(?:'ve|\s+have)?\s+(?:tested|reviewed|approved|checked|confirmed|looked|seen|said\s+so|tell\s+you|give\s+the\s+go)|at\s+this\s+(?:point|stage))\b|まだ|先别|先別|暂时|暫時/i;
/** Words that order a discard itself: undo, discard, revert, restore, throw away, reset, or a checkout of paths (`--`). */
const DISCARD_ORDER = /\b(?:undo|discard|revert|restore|throw\s+away|reset|roll\s*back)\b|\s--(?:\s|$)/i;
/** A condition or a report, not an order: "if tests fail don't push", "when it's green, push". */
const CONDITION = /\b(?:if|when|whenever|unless|in\s+case|once|after)\b|\bsi\b|\bwenn\b|\bесли\b|如果|もし|만약/i;
/** The act ordered: nothing before it in the clause, or only words that lead into an order ("and", "please", "you can", "remember to"). */
// (Chinese and Japanese join an order to the one before it with 并且/并/然后/再/和/して: "上传github并且push")
const ORDER_BEFORE = /(?:^|\b(?:and|then|also|please|now|just|so|ok(?:ay)?|yes|go\s+ahead\s+and|can|could|may|to|must|should|need\s+to|let'?s)\s+|(?:并且|并|然后|再|和|都|全部|一起|请|して|してから)\s*)$/i;
const QUESTION_OR_REPORT = /\?\s*$|\b(?:did|didn'?t|why|was|were|has|have|had)\b/i;
const SENTENCES = /[.!?。！？](?=\s|$)|\n+|;\s/;
const CLAUSES = /,\s*|\s+(?:but|however|then|and\s+then|instead)\s+|，|、/i;

/** What a prohibition is about: the act as such, or one target of it ("don't push to main", "don't commit .env"). */
export interface Prohibition {
  said: string;
  /** The branch, file or thing named right after the verb (`force` for a forced push, `draft` for a draft pull request); null when the act as such is forbidden. */
  target: string | null;
  /** The act waits for the user's approval or review ("without my approval", "wait for my review"): a later word that approves lifts it. */
  awaitsApproval?: boolean;
}

/** Words after the verb that keep the act as such: "don't push anything", "do not commit yet", "never push to the remote". */
const GENERIC_OBJECT = /^\s*(?:$|[,.;:!?)](?=\s|$)|(?:anything|it|this|that|them|these|those|yet|now|(?:the|my|your|any)\s+(?:changes?|code|work|commits?)|changes|code|commits?|to\s+(?:the\s+)?(?:remote|origin|upstream|github|gitlab|repo(?:sitory)?)(?![\w/])|please|for\s+now|at\s+all|yourself|on\s+your\s+own|automatically|either|again|anymore|myself|me|ourselves|under\s+any\s+circumstances?|(?:or|and)\s+(?:push|commit|merge|open)\w*)(?!\s+(?:with|that|which|containing|including|to\s+\w))\b)/i;
/** Words skipped before the target: "don't push straight to main", "never commit the .env file". */
// (Chinese, Japanese and Korean name the owner or the thing before it with no space: 我的ai.ps1, この.env, 내 .env)
const TARGET_LEAD = /^\s*(?:(?:pas|nicht|nichts|straight|directly|anything|any|stuff|changes)\s+)*(?:(?:to|into|on|onto|sur|auf|en|a|na|with|that|containing|including|touching)\s+)?(?:(?:the|a|an|my|your|our|this|that|any)\s+)?(?:我的|你的|这个|那个|這個|那個|私の|この|その|내\s*|제\s*)?/i;

/** Cut text the user quotes (a bot's message, a label) out of what they say. */
function ownWords(text: string): string {
  return text.slice(0, 10_000).replace(/[’‘]/g, "'").replace(/^>.*$/gm, '').replace(/"[^"\n]{0,200}"|“[^”\n]{0,200}”|'[^'\n]{2,200}'(?!\w)/g, ' ');
}

/** How one clause speaks of the act: forbids it, orders it, or neither (a mention, a question, a condition). */
function clauseOn(clause: string, act: Act, sentence: string): { forbids: boolean; orders: boolean; target: string | null; awaitsApproval?: boolean } | null {
  const verb = ACT_WORDS[act].exec(clause);
  if (!verb) return null;
  const before = clause.slice(0, verb.index);
  const after = clause.slice(verb.index + verb[0].length, verb.index + verb[0].length + 80);
  const negated = NEGATED.test(before.slice(-60)) || NEGATED_AFTER.test(after);
  // the user keeping the decision speaks in the words before the verb, across the sentence's commas ("等我审阅后，再提交")
  const sentenceBefore = sentence.slice(0, Math.max(0, sentence.indexOf(clause)) + verb.index);
  // "don't commit anything yet", "hold off on pushing for now": not yet is a later yes waiting to be given
  // ("never push to main until we have CI" keeps its never: only a prohibition without one waits)
  const temporary = negated && !/\b(?:never|ever)\b/i.test(before) && (NOT_YET.test(after) || NOT_YET.test(before.slice(-40)));
  const awaitsApproval = temporary || (RESERVED_WITHOUT.test(clause) && ANY_NEGATION.test(before)) || RESERVED_ASK.test(sentence) || (RESERVED_DECISION.test(sentenceBefore.replace(/[，,、\s]*再?\s*$/, '')) && !/^\s*(?:了|过|過|成功)/.test(after));
  const reserved = awaitsApproval || KEPT_BY_USER.test(clause);
  if (CONDITION.test(before) || (!negated && !reserved && QUESTION_OR_REPORT.test(clause))) return { forbids: false, orders: false, target: null };
  // a branch switch ("git checkout main and rebuild") orders no discard: only words of throwing
  // away or restoring, or a checkout of paths
  if (!negated && !reserved) return { forbids: false, orders: ORDER_BEFORE.test(before) && (act !== 'discard' || DISCARD_ORDER.test(clause)), target: null };
  // "never create draft pull requests": the kind of pull request is what is forbidden, not opening one
  if (act === 'pr' && /\bdrafts?\b/i.test(verb[1] ?? '')) return { forbids: true, orders: false, target: 'draft' };
  return { forbids: true, orders: false, target: targetOf(before, after.replace(RESERVED_WITHOUT, ' '), act), ...(awaitsApproval && !KEPT_BY_USER.test(clause) ? { awaitsApproval: true } : {}) };
}

function targetOf(before: string, after: string, act: Act): string | null {
  if (act === 'push' && /\bforce[\s-]*$/i.test(before)) return 'force';
  if (GENERIC_OBJECT.test(after)) return null;
  const m = /^([\w./@~-]{2,80})/.exec(after.replace(TARGET_LEAD, ''));
  if (!m) return null;
  const word = m[1].replace(/[.,;:]+$/, '');
  // a conjunction or a preposition after the verb starts another thought, not an object: the act as such
  if (/^(?:or|and|but|so|then|nor|until|unless|without|before|after|when|if|while|because|since|as|for|in|at|by|of|from)$/i.test(word)) return null;
  // `origin/main` names the branch; "the .env file" names .env
  return /^(?:origin|upstream)\//i.test(word) ? word.replace(/^[^/]+\//, '') : word;
}

// Every call that pushes, commits or merges asks each request in force (up to 30) whether it
// forbids or orders the act: each answer is a pure function of the text and the act, kept for the
// requests in force (issue 30). The answers are shared: callers only read them.
const ANSWERS_MAX = 64;
const forbidden = new Map<string, Map<string, Prohibition | null>>();
const ordered = new Map<string, Map<string, boolean>>();

function remembered<V>(memo: Map<string, Map<string, V>>, act: Act, text: string, make: () => V): V {
  let byText = memo.get(act);
  if (!byText) memo.set(act, (byText = new Map()));
  if (byText.has(text)) return byText.get(text) as V;
  const v = make();
  if (byText.size >= ANSWERS_MAX) byText.delete(byText.keys().next().value as string);
  byText.set(text, v);
  return v;
}

/** The prohibition `text` holds for `act`, or null. A message that also orders the act forbids nothing. */
export function forbids(text: string, act: Act): Prohibition | null {
  return remembered(forbidden, act, text, () => forbidsUncached(text, act));
}

function forbidsUncached(text: string, act: Act): Prohibition | null {
  let found: Prohibition | null = null;
  for (const sentence of ownWords(text).split(SENTENCES)) {
    for (const clause of sentence.split(CLAUSES)) {
      const on = clauseOn(clause, act, sentence);
      if (!on) continue;
      if (on.orders) return null;
      if (on.forbids) found ??= { said: sentence.trim(), target: on.target, ...(on.awaitsApproval ? { awaitsApproval: true } : {}) };
    }
  }
  return found;
}

/**
 * The user's approval of what they were to review, in a short message of its own: "LGTM", "looks
 * good", "approved", "没问题", "可以了", "確認しました", "좋아요" — the decision they kept, given.
 * Not a question, and nothing that holds back ("looks good, but …", "not yet").
 */
// the whole message is the approval (and maybe thanks): "Approved, use Redis" or "great, now add
// tests" go on to ask for something else, and "great thanks" approves nothing in particular
const APPROVAL_WORD = String.raw`(?:lgtm|looks?\s+(?:good|great)(?:\s+to\s+me)?|approved?|(?:it'?s\s+)?good\s+to\s+go|ship\s+it|sounds\s+good|perfect|nice\s+work|great\s+job|well\s+done|(?:好的?|嗯)?[，,\s]*(?:没问题|沒問題|可以了?|通过|通過|同意|批准|审阅完|審閱完|看过了|看過了)|確認しました|問題(?:ない|ありません)|좋아요|확인했(?:어요|습니다)|승인)`;
const APPROVES = new RegExp(String.raw`^[\s\p{P}]*(?:ok(?:ay)?[\s,!.]+)?(?:${APPROVAL_WORD}[\s\p{P}\p{So}]*){1,3}(?:(?:thanks|thank\s+you|ty|谢谢|謝謝|ありがとう(?:ございます)?|감사합니다)[\s\p{P}\p{So}]*)?$`, 'iu');
const HOLDS_BACK_APPROVAL = /\?|\b(?:but|except|not\s+yet|don'?t|do\s+not|wait|hold)\b|但是?|不要|先别|先別|まだ|하지\s*마/i;
function approves(text: string): boolean {
  const t = ownWords(text).trim();
  if (t.length > 120 || HOLDS_BACK_APPROVAL.test(t)) return false;
  if (APPROVES.test(t)) return true;
  // "All is looking good. Do the git thing.": every sentence an approval or a go-ahead, one of each at most
  const sentences = t.split(/(?<=[.!。！])\s*/).map((x) => x.trim()).filter((x) => x !== '');
  // …and the go-ahead names what it is for ("do the git thing", "go ahead and commit"): a bare
  // "go ahead" may answer another question of the agent's
  return sentences.length <= 3 && sentences.some((x) => GO_AHEAD.test(x) && GIT_WORK.test(x)) && sentences.every((x) => GO_AHEAD.test(x) || APPROVES.test(x) || LOOKING_GOOD.test(x));
}
/** Words of the git work a prohibition held back: git itself, a commit, a push, a merge, a pull request. */
const GIT_WORK = /\bgit\b|\bcommit|\bpush|\bmerg|\bpr\b|pull\s+request/i;
/** A go-ahead for what was waiting, in a sentence of its own: "go ahead", "proceed", "do it", "do the git thing". */
const GO_AHEAD = /^(?:(?:ok(?:ay)?|yes|great|good)[\s,!]+)?(?:please\s+)?(?:(?:go\s+ahead|proceed)(?:\s+(?:and|with)\s+(?:the\s+)?(?:commit|push|merge|git)\w*(?:\s+(?:it|them|and\s+push|and\s+commit))?)?|do\s+it(?:\s+now)?|do\s+the\s+(?:\w+\s+){0,2}(?:thing|stuff|rest|honou?rs)|carry\s+on|let'?s\s+(?:do\s+it|go))(?:\s+(?:now|please))?[\s\p{P}\p{So}]*$/iu;
/** "All is looking good", "everything looks fine": an approval in a sentence of its own. */
const LOOKING_GOOD = /^(?:(?:all|everything|it|this|that)\s+)?(?:is\s+)?look(?:s|ing)\s+(?:good|great|fine|right)(?:\s+(?:now|to\s+me))?[\s\p{P}\p{So}]*$/iu;

/**
 * "push" in its other senses, taken out before the request is read: promoting an idea ("push
 * digital AI security angle as expertise", "push the sustainability message"), notifications,
 * pushing back or against limits. Never when a word of git stands in the phrase ("push this as a
 * new branch", "push the fix as a PR").
 */
export const FIGURATIVE_PUSH = /\bpush(?:es|ing)?\s+(?:(?:the|our|my|a|an|this|that)\s+)?(?:(?!(?:it|this|that|them|changes?|code|commits?|fix(?:es)?|updates?|work|branch\w*|main|master|repo\w*|pr|tags?|everything|all|origin|upstream|to|up)\b)[\w-]+\s+){0,5}?(?:(?:angle|messaging|message|narrative|branding|positioning|agenda|value\s+prop\w*)\b(?=\s*(?:$|[.,;:!?)]|\s+(?:as|harder|more|further|forward|across|throughout|everywhere)\b))(?:\s+as\s+[\w-]+(?:\s+[\w-]+)?)?|as\s+(?:an?\s+|our\s+|my\s+|the\s+)?(?:expertise|strength|selling\s+point|differentiator|specialty|speciality|usp)\b)|\bpush\s+notifications?\b|\bpush(?:ing)?\s+back\b(?!\s+(?:to|into|onto|up)\b)|\bpush(?:ing)?\s+(?:the\s+)?(?:limits?|boundaries|envelope)\b/gi;
/** Whether `text` orders the act ("push it", "commit and push", "go ahead and open the PR"): what lifts a prohibition. */
export function orders(text: string, act: Act): boolean {
  return remembered(ordered, act, text, () => ordersUncached(text, act));
}

function ordersUncached(text: string, act: Act): boolean {
  // ("push notifications", "push back on the review", "push the limits" order no push)
  if (act === 'push') text = text.replace(FIGURATIVE_PUSH, ' ');
  return ownWords(text).split(SENTENCES).some((sentence) => sentence.split(CLAUSES).some((clause) => clauseOn(clause, act, sentence)?.orders === true));
}

/** The prohibition of `act` still in force, or null: the user's newest word on it decides. */
export function standingProhibition(requests: readonly Request[], act: Act): Prohibition | null {
  let standing: Prohibition | null = null;
  for (const r of requests) {
    if (r.by !== 'user' || r.document) continue;
    if (r.agreed) {
      // a proposal the user agreed to that offers the act ("Shall I push?" — "yes") asks for it;
      // one that promises not to ("I won't push until you confirm") does not
      const proposal = r.text.slice(-4_000);
      if (standing !== null && forbids(proposal, act) === null && (orders(proposal, act) || ACT_WORDS[act].test(proposal))) standing = null;
      continue;
    }
    const said = forbids(r.text, act);
    if (said !== null) standing = said;
    else if (orders(r.text, act) || (standing?.awaitsApproval === true && approves(r.text))) standing = null;
  }
  return standing;
}

/** Flags that make a command show or test rather than act: help and dry runs (per command: `git commit -n` is --no-verify). */
const INFO_ONLY = new Set(['-h', '--help', '--dry-run']);

/** The act a command performs, or null: a push, a pull request, a commit, a merge. */
export function actOf(cmd: SimpleCommand): Act | null {
  if (cmd.args.some((a) => INFO_ONLY.has(a))) return null;
  const git = gitSubcommand(cmd);
  if (git) {
    if (git.sub === 'push') return git.args.includes('-n') ? null : 'push';
    if (git.sub === 'commit') return 'commit';
    if (git.sub === 'merge' && !git.args.some((a) => a === '--abort' || a === '--quit')) return 'merge';
    // what destructive.ts's table of git discards holds (`checkout -- <paths>`, `restore`, `reset --hard`, `clean -f`, …)
    return discardOf(git.sub, git.args) ? 'discard' : null;
  }
  if (cmd.name === 'gh' || cmd.name === 'glab') {
    const [noun, verb] = cmd.args.filter((a) => !a.startsWith('-'));
    if ((noun === 'pr' || noun === 'mr') && verb === 'merge') return cmd.args.some((a) => a === '--disable-auto') ? null : 'merge';
    if ((noun === 'pr' || noun === 'mr') && verb === 'create') return 'pr';
    // a release publishes; a new repository receives something only with --push
    if (noun === 'release' && verb === 'create') return 'push';
    if (noun === 'repo' && verb === 'create' && cmd.args.includes('--push')) return 'push';
  }
  return null;
}

/** A GitHub MCP tool (`mcp__github__create_pull_request`) that pushes, opens or merges a pull request. */
function mcpAct(call: ToolCallEvent): Act | null {
  const name = call.name.includes('__') ? call.name.replace(/^.*__/, '') : call.name;
  if (/^merge_pull_request$/i.test(name)) return 'merge';
  if (/^create_pull_request$/i.test(name)) return 'pr';
  if (/^(?:push_files|create_or_update_file)$/i.test(name)) return 'push';
  return null;
}

/** An MCP pull request opened as a draft (`create_pull_request {draft: true}`). */
function mcpDraft(call: ToolCallEvent): boolean {
  const args = call.input.type === 'mcp' || call.input.type === 'other' ? call.input.args : null;
  const parsed = typeof args === 'string' ? safeJson(args) : args;
  const draft = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).draft : undefined;
  return draft === true || draft === 'true';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Whether the command names the target as a word of its own (`origin main` names main, `maintenance` does not; `force` is -f/--force/+refspec). */
function mentions(command: string, target: string): boolean {
  if (target === 'force') return /\s(?:-f|--force(?:-with-lease|-if-includes)?(?:=\S*)?)(?=\s|$)|\s\+\S/.test(command);
  // gh's `-d`/`--draft`; glab's `-d` is its description, so only `--draft` there
  if (target === 'draft') return (/^\s*(?:[A-Za-z_]\w*=\S*\s+)*glab\b/.test(command) ? /\s--draft(?:=true)?(?=\s|$)/ : /\s(?:-d|--draft(?:=true)?)(?=\s|$)/).test(command);
  const t = target.toLowerCase();
  // (`migration.sql` is "the migration file": a file named without its extension)
  return command.toLowerCase().split(/[\s:/'"=]+/).some((w) => w === t || w.endsWith(`/${t}`) || (w.includes('.') && w.slice(0, w.lastIndexOf('.')) === t));
}

const ACT_LABEL: Record<Act, string> = { push: 'pushed to a remote', pr: 'opened a pull request', commit: 'committed', merge: 'merged', discard: 'threw work away with git' };

export const PROHIBITION_RULES: Rule[] = [
  {
    metas: [forbiddenAct],
    create(ctx) {
      const requests = requestsOf(ctx.session);
      const outcomes = new Outcomes(ctx, [forbiddenAct]);
      return {
        onEvent(event: NormEvent, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          if (event.kind !== 'tool_call') return;
          const acts = new Map<Act, string>();
          const mcp = mcpAct(event);
          // a GitHub MCP tool's draft flag is an argument, named the way a command line would
          if (mcp) acts.set(mcp, `${event.name}${mcpDraft(event) ? ' --draft' : ''}`);
          for (const { cmd } of effectsOf(event, facts, ctx.session).commands) {
            const act = actOf(cmd);
            if (act && !acts.has(act)) acts.set(act, cmd.text);
          }
          for (const [act, what] of acts) {
            const standing = standingProhibition(requests.for(event), act);
            // "don't push to main" forbids that branch, "don't commit .env" that file: an act that
            // does not name the target is not the one forbidden (a push of the current branch may be)
            if (standing === null || (standing.target !== null && !mentions(what, standing.target))) continue;
            const said = standing.said;
            const draft: FindingDraft = {
              rule: forbiddenAct.id,
              detail: `The user said "${safe(clip(oneLine(said), 160), facts, 160)}"; the agent then ${ACT_LABEL[act]} (\`${safe(what, facts, QUOTE_MAX)}\`) without a later word from the user that asked for it.`,
              evidence: [evidence(event, what, facts)],
              // one finding per prohibition: the push and the pull request it forbade are one event
              key: said.slice(0, 200),
            };
            outcomes.report(event, 'run', draft);
          }
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
];
