// Assertion strength: an assertion that compares with an expected value (`toBe(3)`, `assertEqual`,
// `assert x == y`, `assert_eq!`) is strong; one that only checks presence or truthiness
// (`toBeDefined()`, `assertIsNotNone`, `assert x`, `assert.ok`, `NotNil`) is weak. An edit that
// trades strong assertions for weak ones, or drops strong ones without adding any assertion, lets a
// wrong result pass: the test still runs and stays green whatever the code returns.
import { countMatches, lineAt } from './util.ts';

/** Presence/truthiness checks: they pass for any value that exists. */
const WEAK = new RegExp([
  // JavaScript/TypeScript (jest, vitest, chai, node:assert)
  String.raw`\.(?:toBeDefined|toBeTruthy)\s*\(\s*\)`,
  String.raw`\.not\.(?:toBeNull|toBeUndefined|toBeFalsy|toBeNaN)\s*\(\s*\)`,
  String.raw`\.to(?:\.not)?\.(?:exist|be\.ok)\b`,
  String.raw`\.should\.(?:exist|be\.ok)\b`,
  String.raw`\bassert\.ok\s*\(`,
  // Python
  String.raw`\bassert(?:IsNotNone|IsInstance|True)\s*\(`,
  String.raw`^[ \t]*assert[ \t]+(?![^\n]*(?:==|!=|<=|>=|<|>|\bin\b|\bis\b))[^\n]+$`,
  String.raw`^[ \t]*assert[ \t]+[^\n]*\bis\s+not\s+None\s*$`,
  // Java/Kotlin/C#
  String.raw`\bassertNotNull\s*\(`,
  String.raw`\bAssert\.(?:IsNotNull|IsTrue|NotNull)\s*\(`,
  // Go (testify)
  String.raw`\b(?:assert|require)\.(?:NotNil|NotEmpty|True|NoError)\s*\(`,
  // Rust
  String.raw`\bassert!\s*\([^,\n]*\.is_(?:some|ok)\(\)\s*\)`,
  // assertpy / hamcrest
  String.raw`\.(?:is_not_none|is_true|is_not_empty)\s*\(\s*\)`,
  String.raw`\b(?:not_none|is_not\s*\(\s*none\s*\(\s*\)\s*\))`,
].join('|'), 'gm');

/** Comparisons with an expected value. */
const STRONG = new RegExp([
  String.raw`\.(?:not\.)?(?:toBe|toEqual|toStrictEqual|toMatch|toMatchObject|toContain|toContainEqual|toHaveLength|toHaveBeenCalledWith|toHaveBeenLastCalledWith|toHaveBeenNthCalledWith|toHaveBeenCalledTimes|toHaveReturnedWith|toBeCloseTo|toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|toMatchInlineSnapshot|toMatchSnapshot)\s*\(\s*[^)\s]`,
  String.raw`\.toThrow(?:Error)?\s*\(\s*[^)\s]`,
  String.raw`\bassert\.(?:equal|strictEqual|deepEqual|deepStrictEqual|notEqual|notStrictEqual|match|throws|rejects)\s*\(`,
  String.raw`\.(?:to|should)(?:\.not)?(?:\.deep)?\.(?:equal|eql|eq|include|match|have\.length(?:Of)?|have\.property)\s*\(`,
  String.raw`\.to\s+(?:eq|eql|equal|match|include|be_within)\s*\(`,
  // Python
  String.raw`\bassert(?:Equal|Equals|NotEqual|DictEqual|ListEqual|TupleEqual|SetEqual|CountEqual|SequenceEqual|MultiLineEqual|AlmostEqual|NotAlmostEqual|In|NotIn|Is|IsNone|Raises|RaisesRegex|Regex|Greater|GreaterEqual|Less|LessEqual)\s*\(`,
  String.raw`^[ \t]*assert[ \t]+[^\n]*(?:==|!=|<=|>=|<|>|\bnot\s+in\b|\bin\b|\bis\s+None\b|\bis\s+(?:True|False)\b)`,
  // Java/Kotlin/C#/JUnit/AssertJ
  String.raw`\bassert(?:Equals|ArrayEquals|Same|NotSame|Throws|IterableEquals|LinesMatch)\s*\(`,
  String.raw`\.(?:isEqualTo|isEqualByComparingTo|containsExactly|hasSize|isSameAs|hasMessage)\s*\(`,
  String.raw`\bAssert\.(?:AreEqual|AreSame|Equal|Throws)\s*\(`,
  // Go (testify), Rust, Ruby minitest
  String.raw`\b(?:assert|require)\.(?:Equal|EqualValues|Exactly|ErrorIs|ErrorContains|Contains|Len|JSONEq)\s*\(`,
  String.raw`\bassert_(?:eq|ne|equal|match|includes|raises)!?\s*[(\s]`,
  // assertpy / hamcrest
  String.raw`\.(?:is_equal_to|is_length|contains_only|is_less_than|is_greater_than)\s*\(`,
  String.raw`\b(?:equal_to|has_length|contains_exactly|has_entries|close_to)\s*\(`,
].join('|'), 'gm');

/** An \`expect(…)\` left without a matcher: it checks nothing. */
const DANGLING = /^[ \t]*(?:await[ \t]+)?expect\s*\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)[ \t]*;?[ \t]*$/gm;

/** Comparisons with one exact value: equality, deep equality, snapshots. */
const EXACT = new RegExp([
  String.raw`\.(?:toBe|toEqual|toStrictEqual|toHaveLength|toHaveBeenCalledTimes|toMatchInlineSnapshot)\s*\(\s*[^)\s]`,
  String.raw`\bassert\.(?:equal|strictEqual|deepEqual|deepStrictEqual)\s*\(`,
  String.raw`\.(?:to|should)(?:\.deep)?\.(?:equal|eql|eq)\s*\(`,
  String.raw`\bassert(?:Equal|Equals|DictEqual|ListEqual|TupleEqual|SetEqual|SequenceEqual|ArrayEquals)\s*\(`,
  String.raw`^[ \t]*assert[ \t]+[^\n]*==`,
  String.raw`\.(?:isEqualTo|containsExactly|hasSize)\s*\(`,
  String.raw`\b(?:assert|require)\.(?:Equal|EqualValues|Exactly|Len)\s*\(`,
  String.raw`\bassert_eq!\s*\(`,
  String.raw`\.toThrow(?:Error)?\s*\(\s*[^)\s]`,
].join('|'), 'gm');

/** Comparisons that accept a range of values, or any error: weaker than an exact value. */
const INEXACT = new RegExp([
  String.raw`\.(?:toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|toBeInstanceOf)\s*\(`,
  String.raw`\.toThrow(?:Error)?\s*\(\s*\)`,
  String.raw`\.to(?:\.be)?\.(?:above|below|least|most|gt|lt|gte|lte|a|an|instanceOf)\s*\(`,
  String.raw`\bassert(?:Greater|GreaterEqual|Less|LessEqual|IsInstance)\s*\(`,
  String.raw`^[ \t]*assert[ \t]+(?![^\n]*==)[^\n]*(?:>=?|<=?)`,
  String.raw`\b(?:assert|require)\.(?:Greater|GreaterOrEqual|Less|LessOrEqual|Positive|IsType)\s*\(`,
].join('|'), 'gm');

/** Any assertion at all (a superset of both lists, for "more assertions were added than removed"). */
const ANY_ASSERTION = /\bassert\w*!?\s*[(.\s]|\bexpect\s*\(|\.should\b|\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|\brequire\.\w+\s*\(|\bself\.assert\w+\s*\(|\bAssert\.\w+\s*\(/gm;

export interface AssertionChange {
  /** Strong assertions the edit removed, net. */
  strongLost: number;
  /** Weak assertions the edit added, net. */
  weakGained: number;
  /** The first removed strong assertion and the first added weak one, for evidence. */
  before: string | null;
  after: string | null;
}


/** The first line matching `re` that is not also a line of `other` (unchanged context). */
function first(re: RegExp, text: string, other: string): string | null {
  const context = new Set(other.split('\n').map((l) => l.trim()));
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const line = lineAt(text, m.index);
    if (!context.has(line)) return line;
    if (m[0].length === 0) re.lastIndex++;
  }
  return null;
}

/**
 * How an edit of test code changed its assertions, from the text it removed and the text it added
 * (an Edit's old/new string, a patch hunk's - and + lines, or a whole file before and after).
 * Null when nothing was weakened: no strong assertion lost, or more assertions added than removed
 * (a restructured test is not judged by counts).
 */
export function weakenedAssertions(removed: string, added: string): AssertionChange | null {
  if (!removed) return null;
  const strongLost = countMatches(removed, STRONG) - countMatches(added, STRONG);
  if (strongLost <= 0) return rangedAssertions(removed, added);
  if (countMatches(added, ANY_ASSERTION) > countMatches(removed, ANY_ASSERTION)) return null;
  const weakGained = Math.max(0, countMatches(added, WEAK) - countMatches(removed, WEAK));
  // A comparison lost with no weaker check in its place is only judged when what is left plainly
  // checks nothing (a bare `expect(x)`): other rewrites may use forms this list does not know
  // (`if got != want { t.Errorf(…) }`).
  if (weakGained === 0 && countMatches(added, DANGLING) <= countMatches(removed, DANGLING)) return rangedAssertions(removed, added);
  return { strongLost, weakGained, before: first(STRONG, removed, added), after: weakGained > 0 ? first(WEAK, added, removed) : null };
}

/** An exact value traded for a range or any error: `toBe(3)` → `toBeGreaterThan(0)`, `== 3` → `> 0`. */
function rangedAssertions(removed: string, added: string): AssertionChange | null {
  const exactLost = countMatches(removed, EXACT) - countMatches(added, EXACT);
  if (exactLost <= 0) return null;
  const inexactGained = countMatches(added, INEXACT) - countMatches(removed, INEXACT);
  if (inexactGained <= 0 || countMatches(added, ANY_ASSERTION) > countMatches(removed, ANY_ASSERTION)) return null;
  return { strongLost: Math.min(exactLost, inexactGained), weakGained: inexactGained, before: first(EXACT, removed, added), after: first(INEXACT, added, removed) };
}
