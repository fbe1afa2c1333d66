// The emails Vouch sends (with VOUCH_SMTP_URL set): an invitation, the link that proves an
// invitee's address, and a password-reset link. Sent after the transaction that made the link
// committed; a failure is reported to the member (who still has the link on screen to copy),
// never undoes the link.
//
// An account's name is chosen by whoever signs up, so it is never a subject (the subjects are
// fixed text) and in a body it appears once, quoted, on one line, cut at 80 characters: an
// account named "Security alert: verify at https://…" cannot make Vouch send a convincing lure.
import type { Mailer } from '../adapters/mail/index.ts';

export type { Mailer };

/** What became of the email: sent, not configured (links are copied by hand), or failed. */
export type MailOutcome = 'sent' | 'off' | 'failed';

async function deliver(mailer: Mailer | null, to: string, subject: string, text: string, onError: (error: unknown) => void): Promise<MailOutcome> {
  if (!mailer) return 'off';
  try {
    await mailer.send({ to, subject, text });
    return 'sent';
  } catch (error) {
    onError(error);
    return 'failed';
  }
}

export interface InvitationMail {
  to: string;
  link: string;
  accountName: string;
  invitedBy: string;
  expiresAt: string;
  /** The address already has a Vouch account: say so here, where only its owner reads it. */
  hasAccount: boolean;
}

/** An account name as an email may show it: quoted, one line, printable, bounded. */
export function quotedName(name: string): string {
  const flat = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  const cut = flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
  return `"${cut.replace(/"/g, "'")}"`;
}

export function invitationText(m: InvitationMail): string {
  const lines = [
    `${m.invitedBy} invited you to join the Vouch account named ${quotedName(m.accountName)}.`,
    '',
  ];
  if (m.hasAccount) {
    lines.push(
      'This email address already has a Vouch account, and a person belongs to one account only, so the invitation cannot be used with it.',
      'If you want to join, ask to be invited with another address.',
    );
  } else {
    lines.push('Open this link to choose a password and join (it works once):', m.link, '', `The link expires at ${m.expiresAt}.`);
  }
  lines.push('', 'If you did not expect this, ignore this email.');
  return lines.join('\n');
}

export function sendInvitationMail(mailer: Mailer | null, m: InvitationMail, onError: (error: unknown) => void): Promise<MailOutcome> {
  return deliver(mailer, m.to, 'Invitation to a Vouch account', invitationText(m), onError);
}

export interface ResetMail {
  to: string;
  link: string;
  accountName: string;
  issuedBy: string;
  expiresAt: string;
}

export function resetText(m: ResetMail): string {
  return [
    `${m.issuedBy}, an owner of the Vouch account named ${quotedName(m.accountName)}, issued a link for you to choose a new password.`,
    '',
    'Open it to set your password (it works once; every session signed in with your old password ends):',
    m.link,
    '',
    `The link expires at ${m.expiresAt}. If you did not ask for this, tell the owners of your account.`,
  ].join('\n');
}

export function sendResetMail(mailer: Mailer | null, m: ResetMail, onError: (error: unknown) => void): Promise<MailOutcome> {
  return deliver(mailer, m.to, 'Choose a new password for Vouch', resetText(m), onError);
}

export interface InvitationClaimMail {
  to: string;
  /** Null: the address already has an account, so nothing can be confirmed; the email says so. */
  link: string | null;
  expiresAt: string;
}

export function invitationClaimText(m: InvitationClaimMail): string {
  const lines = ['Someone (perhaps you) opened an invitation to a Vouch account for this address and chose a password.', ''];
  if (m.link) {
    lines.push('To confirm that this address is yours and join, open this link (it works once):', m.link, '', `The link expires at ${m.expiresAt}.`);
  } else {
    lines.push('This address already has a Vouch account, and a person belongs to one account only, so the invitation cannot be used with it.');
  }
  lines.push('', 'If it was not you, ignore this email: nothing happens without the link.');
  return lines.join('\n');
}

export function sendInvitationClaimMail(mailer: Mailer | null, m: InvitationClaimMail, onError: (error: unknown) => void): Promise<MailOutcome> {
  return deliver(mailer, m.to, 'Confirm your email address for Vouch', invitationClaimText(m), onError);
}
