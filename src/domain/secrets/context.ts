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
import type { Candidate } from './vouch-rules.ts';

const AWS_KEY_ID = /^(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16}$/;
const PRESIGNED_BEFORE = /(?:X-Amz-Credential=|AWSAccessKeyId=|x-amz-credential=|Credential=)$/;
const FIREBASE_CONTEXT = /authDomain|firebaseapp\.com|messagingSenderId|firebaseConfig|storageBucket|initializeApp\(|firebase/i;
const FIREBASE_REACH = 600;

export function notASecretInContext(c: Candidate, value: string, text: string): boolean {
  if (AWS_KEY_ID.test(value)) return PRESIGNED_BEFORE.test(text.slice(Math.max(0, c.start - 20), c.start));
  if (value.startsWith('AIza')) {
    const around = text.slice(Math.max(0, c.start - FIREBASE_REACH), Math.min(text.length, c.end + FIREBASE_REACH));
    return FIREBASE_CONTEXT.test(around);
  }
  return false;
}
