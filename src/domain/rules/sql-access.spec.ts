import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sqlWeakening, userRanIt } from './sql-access.ts';

test('SQL that takes access control away: RLS off, write grants to anon or public, policies letting them write every row; not reads, trusted roles, real conditions or comments', () => {
  for (const sql of [
    'ALTER TABLE orders DISABLE ROW LEVEL SECURITY;',
    'GRANT ALL ON public.sessions TO anon, authenticated;',
    'grant insert, update on table guestbook to public;',
    'GRANT ALL PRIVILEGES ON ALL TABLES IN SCHEMA public TO "anon";',
    'CREATE POLICY "all" ON sessions FOR ALL TO anon USING (true) WITH CHECK (true);',
    'create policy ins on guestbook for insert with check (true);',
    'Run this first:\n\n  GRANT DELETE ON notes TO anon;',
  ]) assert.ok(sqlWeakening(sql), sql);
  for (const sql of [
    'ALTER TABLE orders ENABLE ROW LEVEL SECURITY;',
    'GRANT SELECT ON posts TO anon;',
    'GRANT USAGE ON SCHEMA public TO anon;',
    'GRANT ALL ON sessions TO authenticated, service_role;',
    'CREATE POLICY "read" ON posts FOR SELECT USING (true);',
    'CREATE POLICY svc ON sessions FOR ALL TO service_role USING (true) WITH CHECK (true);',
    'CREATE POLICY own ON sessions FOR ALL TO anon USING (auth.uid() = user_id);',
    '-- GRANT ALL ON sessions TO anon;\nSELECT 1;',
  ]) assert.equal(sqlWeakening(sql), null, sql);
});

test("the user's word that the SQL ran, in several languages; not its negation or a question", () => {
  for (const t of ['I ran the SQL', 'ok, executed it', 'I have applied it, same error', '我执行了你给我的这个Sql', '实行... 跑了', '実行しました', '실행했어요', 'ejecuté el script', "j'ai exécuté la requête", 'hab es ausgeführt']) assert.ok(userRanIt(t), t);
  for (const t of ["I haven't run it yet", 'did not run the query', 'what does this SQL do?', 'can you run it for me', '还没执行']) assert.equal(userRanIt(t), false, t);
});
