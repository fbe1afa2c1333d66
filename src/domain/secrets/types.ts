// What secret detection gives the rules.

export interface SecretHit {
  /** Detection rule id, e.g. "secretlint/github", "entropy/generic", "vouch/private-key". */
  ruleId: string;
  /** Human label: "GitHub token", "AWS access key", "Private key", "High-entropy string". */
  label: string;
  /** The secret itself. Never put this in a report: use `masked`. */
  value: string;
  /** Masked form for display: first 4 characters + "…" + last 4 (e.g. "ghp_…a1b2"). */
  masked: string;
  start: number;
  end: number;
  confidence: 'high' | 'medium';
}
