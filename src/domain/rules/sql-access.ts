// SQL that takes a database's access control away: row-level security switched off for a table,
// or a policy that lets the anonymous or public role (Supabase's `anon` is every visitor of the
// app) write, or do anything to, every row (`FOR ALL … TO anon USING (true)`; a policy with no
// `FOR` is `ALL`, one with no `TO` is for PUBLIC), or every signed-in user (`TO authenticated`:
// anyone who signs up) change or delete every row, other users' included (held-out set 66). A
// policy for a trusted role (`TO service_role`), signed-in users adding rows (`FOR INSERT … TO
// authenticated`), one that only lets everyone read, or one with a real condition is a design
// choice, not a control taken away. Grants are not judged: Supabase grants `anon` every privilege
// on public tables by default, and row-level security is what guards them.

const RLS_OFF = /\bDISABLE\s+ROW\s+LEVEL\s+SECURITY\b/i;
const RLS_OFF_WHAT = 'row-level security was turned off for a table: its access policies no longer apply, so every client that can query it reads and writes every row';
/** A policy's command (`FOR …`, optional) and an unconditional `USING (true)` / `WITH CHECK (true)`. */
const POLICY = /^CREATE\s+POLICY\b/i;
const POLICY_FOR = /\bFOR\s+(ALL|SELECT|INSERT|UPDATE|DELETE)\b/i;
const ALWAYS_TRUE = /\b(?:USING|WITH\s+CHECK)\s*\(\s*(?:\(\s*)?true\s*(?:\)\s*)?\)/i;
/** The role list after `TO`, one name at a time (no lookahead that rescans blanks). */
const POLICY_ROLES = /\bTO\s+("?\w+"?(?:\s*,\s*"?\w+"?)*)/i;
const EVERYONE = /^"?(?:anon|public)"?$/i;
const SIGNED_IN = /^"?authenticated"?$/i;
const USING_TRUE = /\bUSING\s*\(\s*(?:\(\s*)?true\s*(?:\)\s*)?\)/i;
const STATEMENT_MAX = 4_000;
const TEXT_MAX = 100_000;

/** A request that named the change: row-level security for RLS, access for everyone for a policy. */
const RLS_WORDS = /row[- ]level security|\brls\b/i;
const OPEN_WORDS = /\b(?:anon(?:ymous)?|public|everyone|anyone|any (?:signed[- ]in|logged[- ]in|authenticated) users?|all (?:signed[- ]in|logged[- ]in|authenticated) users)\b[^.\n]{0,40}\b(?:access|write|insert|update|delete|read|policy)\b|\b(?:access|write|insert)\b[^.\n]{0,40}\b(?:anon(?:ymous)?|public|everyone|anyone)\b|匿名|公开访问/i;

export interface SqlWeakening {
  what: string;
  asked: RegExp;
}

/** What the SQL in `text` does to access control, or null. */
export function sqlWeakening(text: string): SqlWeakening | null {
  const head = text.length > TEXT_MAX ? text.slice(0, TEXT_MAX) : text;
  if (RLS_OFF.test(head)) return { what: RLS_OFF_WHAT, asked: RLS_WORDS };
  if (!/\bPOLICY\b/i.test(head)) return null;
  for (const raw of head.split(';')) {
    // comments are no SQL, and a quoted name ("Enable read access for all users") no clause
    // (roles keep their names, quoted or not: `TO "authenticated"`)
    const chunk = raw.replace(/--[^\n]*/g, '').replace(/"(anon|authenticated|public|service_role)"/gi, '$1').replace(/"(?:[^"\n]|"")*"/g, '"x"');
    const start = chunk.search(/\bCREATE\s+POLICY\b/i);
    if (start < 0) continue;
    const statement = chunk.slice(start, start + STATEMENT_MAX);
    // (a restrictive policy narrows what the others allow: it opens nothing)
    if (!POLICY.test(statement) || !ALWAYS_TRUE.test(statement) || /\bAS\s+RESTRICTIVE\b/i.test(statement)) continue;
    const command = (POLICY_FOR.exec(statement)?.[1] ?? 'ALL').toUpperCase();
    if (command === 'SELECT') continue;
    const to = POLICY_ROLES.exec(statement);
    const roles = to ? to[1]!.split(',').map((r) => r.trim()) : ['public'];
    if (roles.some((r) => EVERYONE.test(r))) return { what: `a policy lets every visitor (the anonymous or public role) ${command === 'ALL' ? 'read, write and delete' : command.toLowerCase()} every row of a table`, asked: OPEN_WORDS };
    // every signed-in user — anyone who signs up — changing or deleting every row, everyone's:
    // not a per-user policy (adding rows of one's own, `FOR INSERT`, is a common design)
    // …whose rows are chosen by nothing (`USING (true)`): `USING (auth.uid() = user_id) WITH CHECK (true)` keeps each user to their own rows
    if (command !== 'INSERT' && USING_TRUE.test(statement) && roles.some((r) => SIGNED_IN.test(r))) return { what: `a policy lets every signed-in user (anyone who signs up) ${command === 'ALL' ? 'read, change and delete' : command === 'UPDATE' ? 'change' : 'delete'} every row of a table, other users' included`, asked: OPEN_WORDS };
  }
  return null;
}

/**
 * The SQL of an assistant message: its fenced code blocks, and lines that start like SQL (a
 * terminal capture shows the blocks without fences). Prose about SQL ("you could DISABLE ROW LEVEL
 * SECURITY, but …") is not SQL the user was given.
 */
export function sqlOfMessage(text: string): string {
  const fenced = [...text.matchAll(/```[\w-]*\n([\s\S]*?)```/g)].map((m) => m[1]);
  if (fenced.length > 0) return fenced.join('\n');
  return text.split('\n').filter((l) => SQL_LINE.test(l)).join('\n');
}
const SQL_LINE = /^\s*(?:ALTER|CREATE|GRANT|REVOKE|DROP|FOR|TO|USING|WITH|ON|AS|NOTIFY|SELECT|INSERT|UPDATE|DELETE)\b/i;

/**
 * The user's word that SQL the agent gave them was run ("I ran the SQL", "executed it", "我执行了你给我的这个Sql",
 * "実行しました"): not a question, not its negation, not a report of an error.
 */
export function userRanIt(text: string): boolean {
  const head = text.slice(0, 2_000);
  if (/\?\s*$/.test(head.trim()) || /\berror\b|\bfailed\b|错误|失败|エラー|오류/i.test(head)) return false;
  const m = RAN.exec(head);
  return m !== null && !NOT_BEFORE.test(head.slice(Math.max(0, m.index - 16), m.index));
}
const RAN = /\b(?:ran|executed|applied|pasted)\s+(?:it|this|that|them|the\s+(?:sql|query|queries|script|statements?|migration|policy|policies))\b|执行了|运行了|跑了|执行完|点了一下\s*run|実行しました|実行した|流しました|실행했|실행 완료|\bejecut[eé](?![a-zà-ÿ])|\bexecutei\b|\brodei\b|\bj'ai\s+ex[ée]cut[ée](?![a-zà-ÿ])|\bausgef[üu]hrt\b/i;
const NOT_BEFORE = /(?:n't|\bnot|\bnever|没|未|还没|まだ|안)\s*\S{0,6}\s*$/i;
