// Deterministic fake secrets for the specs. Built at run time from a seeded generator so no
// real-looking credential is committed to the repository (and scanners of this repo stay quiet).

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE64 = ALNUM + '+/';

/** mulberry32: tiny seeded PRNG, good enough to make varied strings reproducibly. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomString(length: number, alphabet = ALNUM, seed = length * 7919): string {
  const next = rng(seed);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

export const fake = {
  githubClassic: () => 'ghp_' + randomString(36, ALNUM, 1),
  githubFineGrained: () => 'github_pat_11' + randomString(20, ALNUM, 2) + '_' + randomString(59, ALNUM, 3),
  awsKeyId: () => 'AKIA' + randomString(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 4),
  awsSecret: () => randomString(40, BASE64, 5),
  slackBot: () => 'xoxb-' + randomString(12, '0123456789', 6) + '-' + randomString(13, '0123456789', 7) + '-' + randomString(24, ALNUM, 8),
  stripeLive: () => 'sk_live_' + randomString(24, ALNUM, 9),
  openaiProject: () => 'sk-proj-' + randomString(74, ALNUM, 10) + 'T3BlbkFJ' + randomString(74, ALNUM, 11),
  anthropic: () => 'sk-ant-api03-' + randomString(93, ALNUM, 12) + 'AA',
  jwt: () =>
    [
      Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url'),
      Buffer.from('{"sub":"u-' + randomString(8, ALNUM, 13) + '","exp":1900000000}').toString('base64url'),
      randomString(43, ALNUM, 14),
    ].join('.'),
  privateKey: (newline = '\n') =>
    ['-----BEGIN RSA PRIVATE KEY-----', ...chunks('MIIEpAIBAAKCAQEA' + randomString(600, BASE64, 15), 64), '-----END RSA PRIVATE KEY-----'].join(newline),
  password: () => randomString(10, ALNUM, 16) + '#' + randomString(6, ALNUM, 17),
  genericValue: () => randomString(32, ALNUM, 18),
};

function chunks(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}
