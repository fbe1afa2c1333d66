// Values that have a credential's shape but are public by design, decided by what surrounds them.
//
// - S3 presigned URLs (`X-Amz-Credential=AKIA…/20260101/…`, `AWSAccessKeyId=AKIA…`): the access
//   key ID is an identifier, published in every URL the key signs; it grants nothing without the
//   secret key. The URL's `X-Amz-Signature` does grant read (or write) access to one object until
//   it expires (at most 7 days): handing out such URLs is what `aws s3 presign` is for. Decision:
//   neither is reported as a secret.
// - Firebase web configuration (`apiKey: "AIza…"` next to `authDomain`, `projectId`,
//   `messagingSenderId`…): Google documents these keys as public identifiers shipped to every
//   browser; access is controlled by security rules. Decision: not reported (at most worth an
//   info note, which would only add noise).
// - Demo defaults against a local service (`mongodb://admin:admin123@localhost:27017`,
//   `redis://:password1@127.0.0.1`): a well-known default word (with at most a few digits or a
//   `!`) in a URL whose host is this machine is a development setup, not a credential. Decision:
//   not reported (the same password against a remote host is).
// - Client keys that are JSON Web Tokens with the role `anon` (Supabase's anon key, PostgREST's
//   anonymous role): shipped to every browser like Firebase's key; what they may read is decided
//   by row-level security, and the service-role key (the secret one) has another role. Tokens
//   whose claims are placeholders (`"ref":"placeholder"`, `"sub":"example"`) are samples.
//   Decision: neither is reported.
// - Browser keys under a name the framework bundles into client code (`NEXT_PUBLIC_…`,
//   `EXPO_PUBLIC_…`, `VITE_…`, `REACT_APP_…`): a Google API key there is a browser key, shipped
//   to every visitor like Firebase's and restricted by referrer. Decision: not reported. A server
//   secret under such a name (`NEXT_PUBLIC_OPENAI_KEY=sk-…`, a service-role JWT) still is: the
//   name does not make it safe, it makes it leak.
// - Google keys in a mobile app's own configuration (`manifestPlaceholders = [googleApiKey: …]`,
//   `com.google.android.geo.API_KEY`, `google-services.json`'s `current_key`, `GMSServices
//   provideAPIKey`, GoogleService-Info.plist): compiled into every copy of the app and restricted
//   by its package or bundle id, like a browser key. Decision: not reported, unless the name
//   around it says the key is for generative AI (billed per call, not restricted that way).
import { decodeBase64Url, type Candidate } from './vouch-rules.ts';

const AWS_KEY_ID = /^(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16}$/;
const PRESIGNED_BEFORE = /(?:X-Amz-Credential=|AWSAccessKeyId=|x-amz-credential=|Credential=)$/;
const FIREBASE_CONTEXT = /authDomain|firebaseapp\.com|messagingSenderId|firebaseConfig|storageBucket|initializeApp\(|firebase/i;
const FIREBASE_REACH = 600;
/** A mobile app's own configuration of a Google key (Android manifest placeholders and meta-data, google-services.json, iOS GoogleService-Info.plist and GMSServices). */
const APP_CONFIG_CONTEXT = /manifestPlaceholders|com\.google\.android\.(?:geo|maps)\.(?:API_KEY|v2\.API_KEY)|"current_key"|GoogleService-Info|<key>API_KEY<\/key>|GMSServices|provideAPIKey|GMSApiKey|google_maps_(?:api_)?key|resValue\s*\(?\s*["']string["']\s*,\s*["']google/;
const APP_REACH = 200;

const LOCAL_AFTER = /^@(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|host\.docker\.internal)(?![A-Za-z0-9.-])/;
const DEMO_WORDS = /^(?:password|passwd|pass|secret|postgres|postgresql|root|admin|administrator|mysql|mariadb|user|guest|test|testing|example|changeme|default|letmein|mongo|mongodb|redis|rabbitmq|dev|development|local|demo|qwerty|welcome|minio|minioadmin|keycloak|neo4j|elastic|clickhouse|sa|app|docker)$/i;

/** `admin123`, `Password1!`, `postgres`: a demo default word with a short suffix. */
export function isDemoDefault(value: string): boolean {
  const word = value.replace(/[0-9!@#]{0,6}$/, '');
  return word.length >= 2 && DEMO_WORDS.test(word);
}

export function notASecretInContext(c: Candidate, value: string, text: string): boolean {
  if (LOCAL_AFTER.test(text.slice(c.end, c.end + 40)) && isDemoDefault(value)) return true;
  if (AWS_KEY_ID.test(value)) return PRESIGNED_BEFORE.test(text.slice(Math.max(0, c.start - 20), c.start));
  if (value.startsWith('eyJ')) return publicClientToken(value);
  if (value.startsWith('AIza')) {
    const around = text.slice(Math.max(0, c.start - FIREBASE_REACH), Math.min(text.length, c.end + FIREBASE_REACH));
    const near = text.slice(Math.max(0, c.start - APP_REACH), Math.min(text.length, c.end + APP_REACH));
    return FIREBASE_CONTEXT.test(around) || browserKeyName(text.slice(Math.max(0, c.start - 120), c.start)) || (APP_CONFIG_CONTEXT.test(near) && !AI_KEY_NAME.test(near.toUpperCase()));
  }
  return false;
}

/** Names a web framework inlines into the code it sends to browsers (public by design). */
const CLIENT_BUNDLED = /^(?:NEXT_PUBLIC|EXPO_PUBLIC|NUXT_PUBLIC|PUBLIC|VITE|REACT_APP|GATSBY|VUE_APP)_[A-Z0-9_]{1,100}$/;
/** …unless the rest of the name says it is a server's secret: then the prefix leaks it. */
const SERVER_SECRET_WORD = /(?:^|_)(?:SECRET|PASSWORD|PASSWD|PASS|PWD|PRIVATE|SERVICE_ROLE|SERVICE|ADMIN|MASTER|ROOT|DB|DATABASE)(?:_|$)/;
/** Google keys for generative AI: billed per call, not restricted to a site like a Maps key. */
const AI_KEY_NAME = /GEMINI|GENAI|VERTEX|(?:^|_)AI(?:_|$)|OPENAI|PALM/;

/** A name a web framework ships to browsers, for a value that is public by design. */
export function clientBundledName(name: string): boolean {
  return CLIENT_BUNDLED.test(name) && !SERVER_SECRET_WORD.test(name.replace(/^[A-Z]+_(?:PUBLIC_|APP_)?/, ''));
}
const ENTRY_BEFORE = /([A-Za-z_][A-Za-z0-9_]*)["']?\s*[:=]\s*["']?$/;

/** Does the text before a Google key end in `NAME=` for a client-bundled name that is no AI key's? */
function browserKeyName(before: string): boolean {
  const name = ENTRY_BEFORE.exec(before)?.[1];
  return name !== undefined && clientBundledName(name) && !AI_KEY_NAME.test(name);
}

const ANON_ROLE = /"role"\s*:\s*"anon(?:ymous)?"/;
const PLACEHOLDER_CLAIM = /"(?:ref|sub|iss|aud)"\s*:\s*"(?:placeholder|example|your[-_][a-z-]+|demo-project|project-ref)"/i;

/** The life a JWT's own claims give it (`exp` − `iat`, in seconds), or null when it names no both. */
export function jwtLifetimeSeconds(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload || !token.startsWith('eyJ')) return null;
  const claims = decodeBase64Url(payload);
  const iat = /"iat"\s*:\s*(\d{1,12})\b/.exec(claims)?.[1];
  const exp = /"exp"\s*:\s*(\d{1,12})\b/.exec(claims)?.[1];
  if (iat === undefined || exp === undefined) return null;
  const life = Number(exp) - Number(iat);
  return life >= 0 ? life : null;
}

/** A JWT whose claims make it a public client key or a sample (see above). */
export function publicClientToken(token: string): boolean {
  const payload = token.split('.')[1];
  if (!payload) return false;
  const claims = decodeBase64Url(payload);
  return ANON_ROLE.test(claims) || PLACEHOLDER_CLAIM.test(claims);
}
