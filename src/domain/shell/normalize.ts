// Words read as the writer meant them, where the shell would read them differently but the
// intent is plain — the guard judges what an agent is trying to do, and a command that misfires
// today runs as meant after the next small edit:
// - `A-B=2 git reset --hard`, `=2 git …`: not valid assignments, so bash looks for a program named
//   `A-B=2`; read as the assignment prefix they look like, the command is `git reset --hard`.
// - Unicode dashes at the start of a word (`git reset ‐‐hard`, `rm —rf`): what a word processor or
//   a model makes of `--`; read as ASCII hyphens.
// - Shouted commands (`GIT CHECKOUT -- file`, `git RESET --HARD`): macOS and Windows file systems
//   are case-insensitive, so `GIT` runs git there; a git word written all in capitals is read in
//   lower case.

/** Dashes that stand for a hyphen-minus at the start of an option. */
const UNICODE_DASHES = /^[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]+/;
/** A word with `=` that is not a valid shell assignment (those never reach argv). */
const ASSIGNMENT_LIKE = /^[^=/\s'"$`-][^=/\s'"$`]*=|^=/;
const SHOUTED = /^-{0,2}[A-Z]{2,}[A-Z-]*$/;

export function normalizeArgv(argv: string[]): string[] {
  let words = argv;
  let start = 0;
  while (start < words.length - 1 && ASSIGNMENT_LIKE.test(words[start])) start++;
  if (start > 0) words = words.slice(start);
  if (words.some((w) => UNICODE_DASHES.test(w))) words = words.map((w) => w.replace(UNICODE_DASHES, (d) => '-'.repeat(d.length)));
  const program = words[0] ?? '';
  if (SHOUTED.test(program) || /^git$/i.test(program.slice(program.lastIndexOf('/') + 1))) {
    const name = program.slice(program.lastIndexOf('/') + 1).toLowerCase();
    if (name === 'git') words = words.map((w, i) => (i === 0 ? w.slice(0, w.length - name.length) + name : SHOUTED.test(w) && w !== 'HEAD' ? w.toLowerCase() : w));
  }
  return words;
}
