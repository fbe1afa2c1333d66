import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sqlOfMessage, sqlWeakening, userRanIt } from './sql-access.ts';

test('SQL that takes access control away: RLS off, a policy letting anon or public write every row (no FOR is ALL, no TO is PUBLIC), or every signed-in user change or delete every row; not grants (Supabase defaults), reads, signed-in inserts, trusted roles, real conditions, quoted names or comments', () => {
  for (const sql of [
    'ALTER TABLE orders DISABLE ROW LEVEL SECURITY;',
    'CREATE POLICY "all" ON sessions FOR ALL TO anon USING (true) WITH CHECK (true);',
    'create policy ins on guestbook for insert with check (true);',
    'CREATE POLICY "open" ON todos USING (true) WITH CHECK (true);',
    'CREATE POLICY open ON todos TO anon USING ((true));',
    'Run this first:\n\n  CREATE POLICY p ON notes FOR DELETE TO anon, authenticated USING (true);',
    // every signed-in user changing or deleting every row (held-out set 66)
    'CREATE POLICY "Authenticated users can update products" ON products FOR UPDATE TO authenticated USING (true) WITH CHECK (true);',
    'CREATE POLICY "Authenticated users can delete products" ON products FOR DELETE TO authenticated USING (true);',
    'create policy all_rows on orders for all to authenticated using (true);',
    'CREATE POLICY "q" ON orders FOR DELETE TO "authenticated" USING (true);',
    'CREATE POLICY "q" ON orders FOR ALL TO "anon" USING (true);',
  ]) assert.ok(sqlWeakening(sql), sql);
  for (const sql of [
    'ALTER TABLE orders ENABLE ROW LEVEL SECURITY;',
    'GRANT ALL ON public.sessions TO anon, authenticated;',
    'grant delete on table "public"."profiles" to "anon";',
    'CREATE POLICY "read" ON posts FOR SELECT USING (true);',
    'create policy "Enable read access for all users" on "public"."posts" as permissive for SELECT to public using (true);',
    'CREATE POLICY svc ON sessions FOR ALL TO service_role USING (true) WITH CHECK (true);',
    'CREATE POLICY own ON sessions FOR ALL TO anon USING (auth.uid() = user_id);',
    'CREATE POLICY "Authenticated users can insert products" ON products FOR INSERT TO authenticated WITH CHECK (true);',
    'CREATE POLICY "All products viewable by authenticated users" ON products FOR SELECT TO authenticated USING (true);',
    'CREATE POLICY own ON todos FOR UPDATE TO authenticated USING (auth.uid() = user_id);',
    'CREATE POLICY own ON todos FOR UPDATE TO authenticated USING (auth.uid() = user_id) WITH CHECK (true);',
    'CREATE POLICY own ON todos FOR ALL TO authenticated USING (auth.uid() = user_id) WITH CHECK (true);',
    'CREATE POLICY narrow ON todos AS RESTRICTIVE FOR ALL TO authenticated USING (true);',
    '-- CREATE POLICY p ON t FOR ALL TO anon USING (true);\nSELECT 1;',
  ]) assert.equal(sqlWeakening(sql), null, sql);
});

test('a policy statement with a long run of blanks after TO is read in linear time', () => {
  const text = `CREATE POLICY p ON t FOR ALL TO${' '.repeat(3_950)}(`.repeat(25);
  assert.equal(sqlWeakening(text), null);
});

test('the SQL of a message: its fenced blocks, or lines that start like SQL; not prose about SQL', () => {
  assert.equal(sqlWeakening(sqlOfMessage('You could DISABLE ROW LEVEL SECURITY, but that is unsafe. Instead run:\n```sql\nCREATE POLICY own ON t FOR ALL TO authenticated USING (auth.uid() = owner);\n```')), null);
  assert.ok(sqlWeakening(sqlOfMessage('In the SQL editor:\n\n  CREATE POLICY "Enable all" ON public.sessions\n  FOR ALL TO anon USING (true) WITH CHECK (true);\n\nthen wait 10 s.')));
});

test("the user's word that the SQL ran, in several languages; not its negation or a question", () => {
  for (const t of ['I ran the SQL', 'ok, executed it', 'I have applied it, same page still', '我执行了你给我的这个Sql', '实行... 跑了', '実行しました', '실행했어요', 'ejecuté el script', "j'ai exécuté la requête", 'hab es ausgeführt']) assert.ok(userRanIt(t), t);
  for (const t of ["I haven't run it yet", 'did not run the query', 'what does this SQL do?', 'can you run it for me', '还没执行', 'Should I run it in the SQL editor?', "I've run into a different problem", 'I applied the other fix instead', 'I ran the tests and they pass', 'I ran it but got ERROR: permission denied']) assert.equal(userRanIt(t), false, t);
});
