// Terminal output in logs carries ANSI escape sequences (colours, cursor moves, hyperlinks).
// Pages show the text without them: stripped, never interpreted.

// CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), other two-byte escapes, and the 8-bit
// C1 forms of CSI/OSC; also a lone ESC left over from a cut excerpt.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-Z\\-_]|\u001b/g;

export function stripAnsi(text: string): string {
  return text.includes('\u001b') || text.includes('\u009b') || text.includes('\u009d') ? text.replace(ANSI, '') : text;
}
