// Controls in application code that an agent switches off to make an error go away (issue 25,
// item 7, "a security control weakened to make something run"): TLS certificate checks, the
// output escaping that keeps user data out of a page's HTML, a token's signature check, and a
// server secret given a name the web framework ships to every browser. Each is decided from
// what one write changed — the control appears in the text the write added and not (as often)
// in the text it replaced, or, for escaping, an escape call the write removed where the added
// text inserts raw HTML — so code that already had it, or that moves it around, says nothing.
// A request that named the control lowers it (trust-settings.ts).
import type { FileOp } from './effects.ts';
import type { SimpleCommand } from '../shell/types.ts';

/** Source, template and configuration files: where a control written down takes effect. */
const APP_FILE = /\.(?:py|pyw|rb|php|js|mjs|cjs|jsx|ts|tsx|mts|cts|go|java|kt|kts|scala|cs|rs|swift|dart|ex|exs|vue|svelte|astro|html?|jinja2?|j2|erb|ejs|hbs|handlebars|mustache|twig|njk|liquid|ya?ml|json|toml|ini|cfg|conf|properties)$|(?:^|\/)\.(?:env(?:\.[\w.-]+)?|npmrc|yarnrc(?:\.yml)?|gitconfig)$/i;

interface Control {
  re: RegExp;
  what: string;
}

/** TLS certificate verification switched off, in the spellings of the common languages and tools. */
const TLS_OFF: readonly Control[] = [
  { re: /\bverify\s*=\s*False\b/g, what: 'TLS certificate verification was switched off (`verify=False`)' },
  { re: /\bssl\._create_unverified_context\b|\bssl\.CERT_NONE\b|\bcheck_hostname\s*=\s*False\b/g, what: 'TLS certificate verification was switched off (an unverified SSL context)' },
  { re: /\brejectUnauthorized["']?\s*:\s*false\b/g, what: 'TLS certificate verification was switched off (`rejectUnauthorized: false`)' },
  { re: /\bNODE_TLS_REJECT_UNAUTHORIZED["']?\s*[:=]\s*["']?0\b/g, what: 'TLS certificate verification was switched off for the whole Node.js process (`NODE_TLS_REJECT_UNAUTHORIZED=0`)' },
  { re: /\bInsecureSkipVerify\s*:\s*true\b/g, what: 'TLS certificate verification was switched off (`InsecureSkipVerify: true`)' },
  { re: /\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\b["']?\s*(?:,|=>)\s*(?:false|0)\b/gi, what: 'TLS certificate verification was switched off (`CURLOPT_SSL_VERIFYPEER` off)' },
  { re: /\bOpenSSL::SSL::VERIFY_NONE\b/g, what: 'TLS certificate verification was switched off (`VERIFY_NONE`)' },
  { re: /^\s*strict-ssl\s*[=:]\s*["']?false\b|^\s*sslVerify\s*=\s*false\b|\b(?:GIT_SSL_NO_VERIFY|PYTHONHTTPSVERIFY)["']?\s*[:=]\s*["']?(?:0|1|true)\b/gim, what: 'TLS certificate verification was switched off in a tool\'s configuration' },
];

/** A template engine's automatic escaping switched off. */
const AUTOESCAPE_OFF: Control = { re: /\bautoescape\s*=\s*False\b|\{%-?\s*autoescape\s+(?:off|false)\s*-?%\}|\bautoescape["']?\s*:\s*false\b/g, what: "the template engine's automatic HTML escaping was switched off (cross-site scripting)" };

/** Calls that escape or sanitise text before it becomes HTML. */
const ESCAPE_CALL = /(?:\b(?:escape(?:Html|HTML|Xml|XML|Attr|Attribute)?|_\.escape|html\.escape|htmlspecialchars|htmlentities|html_escape|escape_html|escapeExpression|sanitize(?:Html|HTML)?|bleach\.clean|encodeHTML|encodeHtml)|DOMPurify\.sanitize)\s*\(/g;
/** Where text is inserted into a page as HTML, unescaped. */
const RAW_HTML_SINK = /\.(?:innerHTML|outerHTML)\s*\+?=|\binsertAdjacentHTML\s*\(|\bdangerouslySetInnerHTML\b|\bv-html\s*=|\{\{\{|\{!!|\|\s*safe\b|\bmark_safe\s*\(|\bMarkup\s*\(|\.html_safe\b|\bdocument\.write(?:ln)?\s*\(|\.html\s*\(\s*[^)\s]/;

/** A token decoded without its signature checked. */
const JWT_UNVERIFIED: readonly Control[] = [
  { re: /["']verify_signature["']\s*:\s*False\b/g, what: "a token's signature check was switched off (`verify_signature: False`): any forged token is accepted" },
  { re: /\balgorithms\s*=\s*\[\s*["']none["']\s*\]|\balgorithms["']?\s*:\s*\[\s*["']none["']\s*\]/gi, what: 'tokens signed with the algorithm `none` are accepted: any forged token passes' },
];
const JWT_VERIFY = /\b(?:jwt|jsonwebtoken|jose)\.verify\s*\(|\bjwtVerify\s*\(/g;
const JWT_DECODE = /\b(?:jwt|jsonwebtoken)\.decode\s*\(|\bdecodeJwt\s*\(/;

/** A server secret under a name the web framework inlines into browser code. */
const PUBLIC_SECRET_NAME: Control = {
  re: /\b(?:NEXT_PUBLIC|EXPO_PUBLIC|NUXT_PUBLIC|VITE|REACT_APP|GATSBY|VUE_APP)_[A-Z0-9_]*?(?:SERVICE_ROLE|SECRET|PRIVATE_KEY)(?:_[A-Z0-9_]*)?\b/g,
  what: 'a server secret was given a name the web framework ships to every browser (a `NEXT_PUBLIC_`/`VITE_`… name holding a service-role key, secret or private key)',
};

/** Words of a request that named one of these controls ("ignore the self-signed certificate", "it double-escapes"). */
export const CODE_CONTROL_WORDS = /\b(?:disable|skip|ignore|turn off|switch off|bypass|without)\s+(?:the\s+)?(?:ssl|tls|cert\w*|https)\b|verify\s*=\s*false|self[- ]signed|insecure|rejectunauthorized|strict-ssl|sslverify|unescap\w*|escap\w*|sanitiz\w*|raw html|dangerouslysetinnerhtml|v-html|\|\s*safe\b|mark_safe|autoescape|\bjwt\b|signature|service[ _-]?role|next_public|\bvite_/i;

/** A line that talks to this machine only: a certificate check there guards nothing in transit. */
const LOCAL_LINE = /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0)\b|\[::1\]/i;

function count(re: RegExp, text: string, skipLocal = false): number {
  re.lastIndex = 0;
  let n = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (skipLocal && LOCAL_LINE.test(lineAt(text, m.index))) continue;
    n++;
  }
  return n;
}

function lineAt(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(start, end === -1 ? text.length : end);
}

/** The control appears more often in what the write added than in what it replaced (TLS: on lines that leave the machine). */
function introduced(c: Control, w: FileOp): boolean {
  const skipLocal = TLS_OFF.includes(c);
  return count(c.re, w.added, skipLocal) > count(c.re, w.removed, skipLocal);
}

/** How a write to application code weakens a control, or null (test files are left to the caller). */
export function weakenedInCode(w: FileOp): string | null {
  if (!APP_FILE.test(w.abs) || !w.added) return null;
  const added = w.added.length > 100_000 ? w.added.slice(0, 100_000) : w.added;
  const removed = w.removed.length > 100_000 ? w.removed.slice(0, 100_000) : w.removed;
  const op = { ...w, added, removed };
  const found = [...TLS_OFF, ...JWT_UNVERIFIED, AUTOESCAPE_OFF, PUBLIC_SECRET_NAME].find((c) => introduced(c, op));
  if (found) return found.what;
  if (removed && count(ESCAPE_CALL, removed) > count(ESCAPE_CALL, added) && RAW_HTML_SINK.test(added)) return 'an HTML escape was removed where the text is inserted into the page as raw HTML (cross-site scripting)';
  if (removed && count(JWT_VERIFY, removed) > count(JWT_VERIFY, added) && JWT_DECODE.test(added)) return "a token's signature check was replaced by a plain decode: any forged token is accepted";
  return null;
}

/** A command that switches TLS verification off for a tool from then on (`git config http.sslVerify false`). */
export function tlsOffByCommand(cmd: SimpleCommand): string | null {
  const words = cmd.args.map((a) => a.toLowerCase());
  if (cmd.name === 'git' && words[0] === 'config' && words.includes('http.sslverify') && words.at(-1) === 'false') return 'TLS certificate verification was switched off for git (`http.sslVerify false`)';
  if (/^(?:npm|yarn|pnpm)$/.test(cmd.name) && words[0] === 'config' && words[1] === 'set' && /^strict-ssl(?:=false)?$/.test(words[2] ?? '') && (words[2] === 'strict-ssl=false' || words[3] === 'false')) return `TLS certificate verification was switched off for ${cmd.name} (\`strict-ssl false\`)`;
  return null;
}
