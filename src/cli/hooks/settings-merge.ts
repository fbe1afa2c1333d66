// Adds and removes Vouch's hook in an agent's JSON configuration by editing its TEXT, never by
// re-serialising a parsed object: everything we do not touch stays byte for byte (indentation,
// CRLF line endings, a UTF-8 BOM, comments and trailing commas in JSONC, numbers such as
// 12345678901234567890 or 1.0 that a JSON round trip would change). jsonc-parser (the parser
// VS Code uses for its own settings) gives the positions; the inserted text copies the file's
// own indentation and line ending, or stays on one line in a one-line file. Pure: text in, text
// out. A file that cannot be parsed, or whose "hooks" has another shape, is refused with a
// message that says what to do; the caller then changes nothing.
import { applyEdits, parseTree, findNodeAtLocation, getNodeValue, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { HookHandler } from './agents.ts';

export class SettingsError extends Error {}

type Json = Record<string, unknown>;

const BOM = '\uFEFF';
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a configured handler is one of ours (decided by the caller: agent and hook kind). */
export type IsOurs = (handler: Json) => boolean;

interface Parsed {
  bom: string;
  body: string;
  root: Node | undefined;
}

function parseText(text: string, file: string): Parsed {
  const bom = text.startsWith(BOM) ? BOM : '';
  const body = text.slice(bom.length);
  if (body.trim() === '') return { bom, body, root: undefined };
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !root) {
    const first = errors[0];
    const where = first ? ` (${printParseErrorCode(first.error)} at line ${body.slice(0, first.offset).split('\n').length})` : '';
    throw new SettingsError(`${file} is not valid JSON${where}. Fix it, or add the hook by hand; nothing was changed.`);
  }
  if (root.type !== 'object') throw new SettingsError(`${file} must hold a JSON object at the top level; nothing was changed.`);
  return { bom, body, root };
}

/** The settings as a value (comments and a BOM allowed); {} for a missing or empty file. */
export function parseSettings(text: string | null, file: string): Json {
  if (text === null) return {};
  const { root } = parseText(text, file);
  return root ? (getNodeValue(root) as Json) : {};
}

function hooksNode(root: Node | undefined, file: string): Node | undefined {
  const hooks = root && findNodeAtLocation(root, ['hooks']);
  if (hooks && hooks.type !== 'object') throw new SettingsError(`${file}: "hooks" must be an object; nothing was changed.`);
  return hooks;
}

function eventNode(root: Node | undefined, event: string, file: string): Node | undefined {
  const groups = root && hooksNode(root, file) && findNodeAtLocation(root, ['hooks', event]);
  if (!groups) return undefined;
  if (groups.type !== 'array' || !(groups.children ?? []).every((g) => g.type === 'object')) {
    throw new SettingsError(`${file}: "hooks.${event}" must be a list of hook groups; nothing was changed.`);
  }
  return groups;
}

const handlersOf = (group: Node): Node[] => {
  const hooks = findNodeAtLocation(group, ['hooks']);
  return hooks?.type === 'array' ? (hooks.children ?? []) : [];
};
const nodeIsOurs = (n: Node, isOurs: IsOurs) => n.type === 'object' && isOurs(getNodeValue(n) as Json);

/** Whether the settings already run one of our handlers on this event. */
export function hasVouchHook(settings: Json, event: string, isOurs: IsOurs, file: string): boolean {
  const hooks = settings.hooks;
  if (hooks === undefined) return false;
  if (!isObject(hooks)) throw new SettingsError(`${file}: "hooks" must be an object; nothing was changed.`);
  const groups = hooks[event];
  if (!Array.isArray(groups)) return false;
  return groups.some((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isObject(h) && isOurs(h)));
}

/** Our handlers on this event as (group index, handler index) pairs, in file order. */
export function vouchHandlerPositions(text: string | null, event: string, isOurs: IsOurs, file: string): Array<{ group: number; handler: number; value: Json }> {
  if (text === null) return [];
  const groups = eventNode(parseText(text, file).root, event, file);
  const out: Array<{ group: number; handler: number; value: Json }> = [];
  (groups?.children ?? []).forEach((g, gi) => handlersOf(g).forEach((h, hi) => nodeIsOurs(h, isOurs) && out.push({ group: gi, handler: hi, value: getNodeValue(h) as Json })));
  return out;
}

// ---- layout: copy the file's own style -------------------------------------------------------

interface Style {
  eol: string;
  unit: string;
  oneLine: boolean;
}

function styleOf(body: string): Style {
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const oneLine = !body.trimEnd().includes('\n');
  const indents = [...body.matchAll(/\n([ \t]+)["{[\]}]/g)].map((m) => m[1]);
  const tab = indents.some((i) => i.startsWith('\t'));
  const widths = indents.filter((i) => !i.startsWith('\t')).map((i) => i.length);
  const unit = tab ? '\t' : ' '.repeat(widths.length > 0 ? Math.min(...widths) : 2);
  return { eol, unit, oneLine };
}

function lineIndentAt(body: string, offset: number): string {
  const start = body.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(body.slice(start))![0];
}

/** Whether only whitespace precedes `offset` on its line (the node starts its own line). */
function startsLine(body: string, offset: number): boolean {
  const start = body.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(body.slice(start, offset));
}

function render(value: unknown, style: Style, indent: string): string {
  if (style.oneLine) return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit).split('\n').join(style.eol + indent);
}

interface Edit {
  offset: number;
  length: number;
  content: string;
}

/** The edits that add `item` (an array element, or `"key": value` for an object) as the container's last child. */
function appendChild(body: string, container: Node, item: { key?: string; value: unknown }, style: Style): Edit[] {
  const children = container.children ?? [];
  const containerIndent = lineIndentAt(body, container.offset);
  const last = children.at(-1);
  const childIndent = last && startsLine(body, last.offset) ? lineIndentAt(body, last.offset) : containerIndent + style.unit;
  const keyPart = item.key === undefined ? '' : `${JSON.stringify(item.key)}:${style.oneLine && !/":\s/.test(body) ? '' : ' '}`;
  const text = keyPart + render(item.value, style, childIndent);
  if (!last) {
    const inner = { offset: container.offset + 1, length: container.length - 2 };
    if (style.oneLine) return [{ ...inner, content: text }];
    return [{ ...inner, content: style.eol + childIndent + text + style.eol + containerIndent }];
  }
  const lastEnd = last.offset + last.length;
  const after = body.slice(lastEnd);
  const trailingComma = /^[ \t]*,/.exec(after);
  if (style.oneLine) return trailingComma ? [{ offset: lastEnd + trailingComma[0].length, length: 0, content: text + ',' }] : [{ offset: lastEnd, length: 0, content: ',' + text }];
  // A line comment after the last child stays with it: the comma goes before it, our text after it.
  const sameLine = /^[^\n]*/.exec(after)![0].replace(/\r$/, '');
  const comment = /^([ \t]*,?[ \t]*)(\/\/.*|\/\*.*\*\/[ \t]*)$/.exec(sameLine);
  const block = style.eol + childIndent + text;
  if (trailingComma && !comment) return [{ offset: lastEnd + trailingComma[0].length, length: 0, content: block + ',' }];
  if (comment) {
    const endOfLine = lastEnd + sameLine.length;
    if (trailingComma) return [{ offset: endOfLine, length: 0, content: block + ',' }];
    return [{ offset: lastEnd, length: 0, content: ',' }, { offset: endOfLine, length: 0, content: block }];
  }
  return [{ offset: lastEnd, length: 0, content: ',' + block }];
}

function replaceNode(body: string, node: Node, value: unknown, style: Style): Edit[] {
  return [{ offset: node.offset, length: node.length, content: render(value, style, lineIndentAt(body, node.offset)) }];
}

function freshFile(event: string, group: Json): string {
  return JSON.stringify({ hooks: { [event]: [group] } }, null, 2) + '\n';
}

/**
 * The text with our handler present exactly once on this event: added as a new group at the end
 * of the event's list, or, when one of ours is there already (an install from another path or
 * with another launcher), that handler replaced in place. Returns the same text if nothing changes.
 */
export function withVouchHook(text: string | null, event: string, handler: HookHandler, isOurs: IsOurs, file: string): string {
  if (text === null) return freshFile(event, { hooks: [handler] });
  const { bom, body, root } = parseText(text, file);
  if (!root) return bom + freshFile(event, { hooks: [handler] });
  const style = styleOf(body);
  const groups = eventNode(root, event, file);
  const ours = (groups?.children ?? []).flatMap((g) => handlersOf(g).filter((h) => nodeIsOurs(h, isOurs)));
  if (ours.length > 0) {
    const first = ours[0];
    const merged = { ...(getNodeValue(first) as Json), ...handler };
    if (JSON.stringify(getNodeValue(first)) === JSON.stringify(merged) && ours.length === 1) return text;
    let next = applyEdits(body, replaceNode(body, first, merged, style));
    next = removeHandlers(next, event, isOurs, file, { keep: 1 });
    return bom + next;
  }
  let edits: Edit[];
  if (groups) edits = appendChild(body, groups, { value: { hooks: [handler] } }, style);
  else {
    const hooks = hooksNode(root, file);
    edits = hooks ? appendChild(body, hooks, { key: event, value: [{ hooks: [handler] }] }, style) : appendChild(body, root, { key: 'hooks', value: { [event]: [{ hooks: [handler] }] } }, style);
  }
  return bom + applyEdits(body, edits);
}

/**
 * Deletes one child (an array element or an object property) with the comma that joins it to a
 * neighbour: the exact inverse of appendChild, so comments between them stay and the file reads
 * as before. The last child of a container leaves it empty (`{}` / `[]`).
 */
function removeChild(body: string, container: Node, child: Node): string {
  const siblings = container.children ?? [];
  const i = siblings.indexOf(child);
  const end = child.offset + child.length;
  if (siblings.length === 1) return body.slice(0, container.offset + 1) + body.slice(container.offset + container.length - 1);
  if (i > 0) {
    const prev = siblings[i - 1];
    const prevEnd = prev.offset + prev.length;
    const between = body.slice(prevEnd, child.offset).replace(',', '').replace(/\r?\n[ \t]*$/, '');
    const rest = body.slice(end);
    // With trailing commas (`1,\n}`), our comma came after us: the one before stays.
    const trailing = i === siblings.length - 1 && /^[ \t]*,/.test(rest) ? rest.replace(/^[ \t]*,/, '') : null;
    return trailing !== null ? body.slice(0, prevEnd) + ',' + between + trailing : body.slice(0, prevEnd) + between + rest;
  }
  return body.slice(0, child.offset) + body.slice(siblings[1].offset);
}

/** The node of `path` (a property node for an object key, so removal takes the key too). */
function childAt(root: Node, path: Array<string | number>): { container: Node; child: Node } | null {
  const container = findNodeAtLocation(root, path.slice(0, -1));
  if (!container) return null;
  const key = path.at(-1)!;
  const child = container.type === 'array' ? container.children?.[key as number] : container.children?.find((p) => p.children?.[0]?.value === key);
  return child ? { container, child } : null;
}

function removeAt(body: string, path: Array<string | number>): string {
  const root = parseTree(body, [], { allowTrailingComma: true });
  const hit = root && childAt(root, path);
  return hit ? removeChild(body, hit.container, hit.child) : body;
}

/**
 * Removes our handlers from this event (all, or all but the first `keep`). A group left with no
 * handler goes too; the event's list and the "hooks" object go only when they end up empty AND
 * the caller allows it (it knows whether they existed before Vouch added to them).
 */
function removeHandlers(body: string, event: string, isOurs: IsOurs, file: string, o: { keep?: number; dropEmptyEvent?: boolean; dropEmptyHooks?: boolean } = {}): string {
  for (;;) {
    let seen = 0;
    const root = parseTree(body, [], { allowTrailingComma: true });
    const groups = root && eventNode(root, event, file);
    let target: Array<string | number> | null = null;
    (groups?.children ?? []).some((g, gi) =>
      handlersOf(g).some((h, hi) => {
        if (!nodeIsOurs(h, isOurs)) return false;
        if (seen++ < (o.keep ?? 0)) return false;
        target = handlersOf(g).length === 1 ? ['hooks', event, gi] : ['hooks', event, gi, 'hooks', hi];
        return true;
      }),
    );
    if (!target) break;
    body = removeAt(body, target);
  }
  const root = parseTree(body, [], { allowTrailingComma: true });
  const groups = root && findNodeAtLocation(root, ['hooks', event]);
  if (o.dropEmptyEvent && groups?.type === 'array' && (groups.children ?? []).length === 0) body = removeAt(body, ['hooks', event]);
  const after = parseTree(body, [], { allowTrailingComma: true });
  const hooks = after && findNodeAtLocation(after, ['hooks']);
  if (o.dropEmptyHooks && hooks?.type === 'object' && (hooks.children ?? []).length === 0) body = removeAt(body, ['hooks']);
  return body;
}

/**
 * The text without our handlers on this event, edited in place. `before` is the file as it was
 * before our first install, when known: an event list or "hooks" object that did not exist then
 * and is empty now is removed as well; one the user had (even empty) stays.
 */
export function withoutVouchHook(text: string | null, event: string, isOurs: IsOurs, file: string, before?: string | null): string | null {
  if (text === null) return null;
  const { bom, body } = parseText(text, file);
  let had: Json | null = null;
  try {
    had = before === undefined ? null : parseSettings(before, file);
  } catch {
    had = null;
  }
  const hadHooks = had !== null && isObject(had.hooks);
  const hadEvent = hadHooks && Array.isArray((had!.hooks as Json)[event]);
  const known = had !== null;
  return bom + removeHandlers(body, event, isOurs, file, { dropEmptyEvent: known ? !hadEvent : true, dropEmptyHooks: known ? !hadHooks : true });
}
