// GitHub Actions' workflow commands and files, as the runner reads them: `::error …::message` lines
// on stdout, `name=value` (or the heredoc form) in $GITHUB_OUTPUT. Text from logs and file names
// ends up in these lines, so it is escaped the runner's way: a log must not be able to end our
// annotation early or start a command of its own on a new line.
import { randomUUID } from 'node:crypto';

/** The runner's escaping of a command's message: `%`, CR and LF. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** The runner's escaping of a command property (`title=…`): also `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function annotation(kind: 'error' | 'warning' | 'notice', message: string, title = 'Vouch'): string {
  return `::${kind} title=${escapeProperty(title)}::${escapeData(message)}`;
}

/**
 * A line of our own log output: control characters (line breaks included) become spaces, and
 * a line that would start with `::` (a workflow command) is indented.
 */
export function plainLine(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
  return flat.startsWith('::') ? ` ${flat}` : flat;
}

/** One step output in $GITHUB_OUTPUT's syntax; the heredoc form, with a delimiter the value cannot contain, for multi-line values. */
export function outputLine(name: string, value: string, delimiter = `vouch_${randomUUID()}`): string {
  if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
  if (value.includes(delimiter)) throw new Error('output delimiter found in the value');
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}
