// A password the user typed into their own words: the value as a word of its own, with a
// password noun near it ("my sudo password is 482", "4821 is the sudo password", "пароль …"). The
// value's shape says nothing (people's sudo passwords are short); the user's word says they meant it
// as one. Shared by the secrets rules (the paste) and the permissions rules (root handed over).

/** Where `value` stands in `text` as a password the text gives (a word of its own, a password noun near it), or -1. */
export function passwordTypedAt(text: string, value: string): number {
  for (let i = wordAt(text, value); i >= 0; i = wordAt(text, value, i + 1)) {
    if (namesPasswordNear(text, i, value.length)) return i;
  }
  return -1;
}

/** Where `value` stands as a word of its own in `text` (not inside a longer word or number), from `from` on, or -1. */
export function wordAt(text: string, value: string, from = 0): number {
  for (let i = text.indexOf(value, from); i >= 0; i = text.indexOf(value, i + 1)) {
    if (!/[\w$@#%&*+=-]/.test(text[i - 1] ?? ' ') && !/[\w$@#%&*+=-]/.test(text[i + value.length] ?? ' ')) return i;
  }
  return -1;
}

/**
 * A password noun near the value: shortly before it on its line ("my sudo password is 482"),
 * shortly after it ("4821 is my sudo password"), or ending the line before ("password:\n4821").
 */
function namesPasswordNear(text: string, at: number, length: number): boolean {
  const lines = text.slice(Math.max(0, at - 200), at).split('\n');
  const before = lines.pop()!.slice(-60);
  const after = text.slice(at + length, at + length + 40).split('\n')[0]!;
  const previous = before.trim() === '' ? (lines.pop() ?? '').slice(-40) : '';
  return PASSWORD_NOUN.test(before) || PASSWORD_NOUN.test(after) || PASSWORD_NOUN.test(previous);
}

/** "password", "passwd", "pw", in the languages prompts come in. */
const PASSWORD_NOUN = /\bpass(?:word|wd|phrase)?\b|\bpw\b|\bpwd\b|mot de passe|contrase[ñn]a|passwort|senha|parola|wachtwoord|has[łl]o|пароль|密码|密碼|パスワード|비밀번호|비번|암호/i;
