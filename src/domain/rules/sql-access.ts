// SQL that takes a database's access control away: row-level security switched off for a table,
// write privileges granted to the anonymous or public role (Supabase's `anon` is every visitor of
// the app), or a policy that lets those roles write (or do anything to) every row (`FOR ALL …
// USING (true)`). A policy for a trusted role (`TO service_role`, `TO authenticated`) or one that
// only lets everyone read is a design choice, not a control taken away.

const RLS_OFF = /\bDISABLE\s+ROW\s+LEVEL\s+SECURITY\b/i;
const RLS_OFF_WHAT = 'row-level security was turned off for a table: its access policies no longer apply, so every client that can query it reads and writes every row';
const OPEN_GRANT = /^\s*GRANT\s+(?:ALL(?:\s+PRIVILEGES)?|[\w\s,]*?\b(?:INSERT|UPDATE|DELETE|TRUNCATE)\b[\w\s,]*?)\s+ON\b[\s\S]*?\bTO\s+([\w\s,"]+)$/i;
const OPEN_POLICY = /^\s*CREATE\s+POLICY\b[\s\S]*?\bFOR\s+(ALL|INSERT|UPDATE|DELETE)\b[\s\S]*?\b(?:USING|WITH\s+CHECK)\s*\(\s*true\s*\)/i;
const POLICY_ROLES = /\bTO\s+([\w\s,"]+?)(?=\s+(?:USING|WITH\s+CHECK|FOR)\b|\s*$)/i;
const EVERYONE = /^"?(?:anon|public)"?$/i;
const STATEMENT_MAX = 4_000;
const TEXT_MAX = 100_000;

/** A request that named the change: row-level security for RLS, access for everyone for the rest. */
const RLS_WORDS = /row[- ]level security|\brls\b/i;
const OPEN_WORDS = /\b(?:anon(?:ymous)?|public|everyone|anyone)\b[^.\n]{0,40}\b(?:access|write|insert|update|delete|read|policy)\b|\b(?:access|write|insert)\b[^.\n]{0,40}\b(?:anon(?:ymous)?|public|everyone|anyone)\b|匿名|公开访问/i;

export interface SqlWeakening {
  what: string;
  asked: RegExp;
}

/** What the SQL in `text` does to access control, or null. */
export function sqlWeakening(text: string): SqlWeakening | null {
  const head = text.length > TEXT_MAX ? text.slice(0, TEXT_MAX) : text;
  if (RLS_OFF.test(head)) return { what: RLS_OFF_WHAT, asked: RLS_WORDS };
  if (!/\b(?:GRANT|POLICY)\b/i.test(head)) return null;
  for (const raw of head.split(';')) {
    // a statement starts at its keyword (prose may come before it in a message); comments are no SQL
    const chunk = raw.replace(/--[^\n]*/g, '');
    const start = chunk.search(/\b(?:GRANT|CREATE\s+POLICY)\b/i);
    if (start < 0) continue;
    const statement = chunk.slice(start, start + STATEMENT_MAX);
    const grant = OPEN_GRANT.exec(statement);
    if (grant && roles(grant[1]).some((r) => EVERYONE.test(r))) return { what: 'write access to a table was granted to every visitor (the anonymous or public role)', asked: OPEN_WORDS };
    const policy = OPEN_POLICY.exec(statement);
    if (policy) {
      const to = POLICY_ROLES.exec(statement.slice(statement.search(/\bON\b/i)));
      // no TO clause: the policy applies to PUBLIC, everyone
      if (!to || roles(to[1]).some((r) => EVERYONE.test(r))) return { what: `a policy lets every visitor (the anonymous or public role) ${policy[1].toUpperCase() === 'ALL' ? 'read, write and delete' : policy[1].toLowerCase()} every row of a table`, asked: OPEN_WORDS };
    }
  }
  return null;
}

function roles(list: string): string[] {
  return list.split(',').map((r) => r.trim().split(/\s+/)[0] ?? '').filter(Boolean);
}

/**
 * The user's word that SQL the agent gave them was run ("I ran the SQL", "executed it", "我执行了你给我的这个Sql",
 * "実行しました"), not its negation ("didn't run it yet").
 */
export function userRanIt(text: string): boolean {
  const head = text.slice(0, 2_000);
  const m = RAN.exec(head);
  return m !== null && !NOT_BEFORE.test(head.slice(Math.max(0, m.index - 16), m.index));
}
const RAN = /\b(?:ran|executed)\s+(?:it|this|that|them|the\s+(?:sql|query|queries|script|statements?))\b|\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+)?(?:ran|executed|run|applied)\b|\bdone\b[^.\n]{0,20}\b(?:sql|query)\b|执行了|运行了|跑了|执行完|点了一下\s*run|実行しました|実行した|流しました|실행했|실행 완료|\bejecut[eé](?![a-zà-ÿ])|\bexecutei\b|\brodei\b|\bj'ai\s+ex[ée]cut[ée](?![a-zà-ÿ])|\bausgef[üu]hrt\b/i;
const NOT_BEFORE = /(?:n't|\bnot|\bnever|没|未|还没|まだ|안)\s*\S{0,6}\s*$/i;
