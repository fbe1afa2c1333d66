// What secret detection gives the rules.

export interface SecretHit {
  /** Detection rule id, e.g. "secretlint/github", "token/sonar-token", "vouch/private-key". */
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
  /**
   * A value in a secret-labelled position that is not evidence enough for a finding
   * (`JWT_SECRET=acme-jwt-signing-2024`): masked wherever it appears, never reported.
   * Only returned when detectSecrets is asked for maskable values.
   */
  maskOnly?: true;
}
