// Kubernetes Secret manifests (`kind: Secret`): every value under `data:` is a base64-encoded
// secret — a database password, a registry's .dockercfg, a TLS key — however plain it decodes
// (`admin:password` is still the cluster's password), so each is reported. `stringData:` values
// are the same secrets unencoded. The manifest's other fields (names, labels, annotations) are not.
import type { Candidate } from './vouch-rules.ts';

const KIND_SECRET = /^[ \t]*["']?kind["']?[ \t]*:[ \t]*["']?secret["']?[ \t]*$/im;
const BLOCK_START = /^([ \t]*)(data|stringData)[ \t]*:[ \t]*$/gm;
const ENTRY = /^([ \t]+)["']?([\w.-]+)["']?[ \t]*:[ \t]*(.*)$/;
const BASE64_VALUE = /^[A-Za-z0-9+/]{8,}={0,2}$/;

export function kubernetesSecretCandidates(text: string): Candidate[] {
  if (!KIND_SECRET.test(text)) return [];
  // one YAML stream may hold several documents (`---`): a ConfigMap's data is not the Secret's
  const out: Candidate[] = [];
  const DOC = /^---[ \t]*$/gm;
  let from = 0;
  for (let m = DOC.exec(text); ; m = DOC.exec(text)) {
    const to = m ? m.index : text.length;
    for (const c of documentSecrets(text.slice(from, to))) out.push({ ...c, start: c.start + from, end: c.end + from });
    if (!m) break;
    from = m.index + m[0].length;
  }
  return out;
}

function documentSecrets(text: string): Candidate[] {
  if (!KIND_SECRET.test(text)) return [];
  const out: Candidate[] = [];
  BLOCK_START.lastIndex = 0;
  for (let m = BLOCK_START.exec(text); m !== null; m = BLOCK_START.exec(text)) {
    const encoded = m[2] === 'data';
    const indent = m[1].replace(/\t/g, '    ').length;
    let at = m.index + m[0].length + 1;
    while (at < text.length) {
      const eol = text.indexOf('\n', at);
      const line = text.slice(at, eol < 0 ? text.length : eol);
      const next = eol < 0 ? text.length : eol + 1;
      if (line.trim() === '' || /^\s*#/.test(line)) {
        at = next;
        continue;
      }
      const entry = ENTRY.exec(line);
      if (!entry || entry[1].replace(/\t/g, '    ').length <= indent) break;
      let value = entry[3].trim();
      let valueAt = at + line.length - entry[3].length + entry[3].indexOf(value);
      // `key: |` / `key: >`: the value is the more indented line below
      if (/^[|>][-+]?$/.test(value) && next < text.length) {
        const below = text.slice(next, text.indexOf('\n', next) < 0 ? text.length : text.indexOf('\n', next));
        value = below.trim();
        valueAt = next + below.indexOf(value);
        at = next;
      }
      const quoted = /^(["'])(.*)\1$/.exec(value);
      if (quoted) {
        value = quoted[2];
        valueAt += 1;
      }
      if (encoded ? BASE64_VALUE.test(value) : value.length >= 8 && !/^[$<{]/.test(value)) {
        out.push({ ruleId: 'vouch/kubernetes-secret', label: 'Kubernetes Secret value', start: valueAt, end: valueAt + value.length, confidence: 'medium' });
      }
      at = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at) + 1;
    }
  }
  return out;
}
