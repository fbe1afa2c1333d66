// Vouch's credential formats, as data. Two kinds of rule:
//
// - TOKEN rules: a credential whose shape identifies it on its own (a vendor prefix such as
//   `glpat-`, `xoxb-`, `sk_live_`, a fixed suffix such as `_mmk`). The prefilter looks for the
//   prefix (see anchors.ts, which builds its anchors from this table), and the pattern confirms
//   the whole token.
// - KEYWORD rules: an opaque value (hex, UUID, base62) that only means something next to a
//   provider's name: `HEROKU_API_KEY=<uuid>`, `algolia_token: <32 chars>`. The name must appear
//   in the variable the value is assigned to (see labelled.ts); the value must have the shape.
//
// The provider list and token shapes were learnt from the vendors' documentation and from the
// public rule sets of secret scanners (gitleaks, secretlint); the table itself is Vouch's own.
// `entropy` is a minimum Shannon entropy (bits per character) of the whole value: it rejects
// placeholders such as `glpat-xxxxxxxxxxxxxxxxxxxx` that have the right shape.

export type Confidence = 'high' | 'medium';

export interface TokenRule {
  id: string;
  /** Provider family, for reports and for the test table's breadth count. */
  provider: string;
  label: string;
  /** Literal prefixes the prefilter searches (as written; `ci` adds the case variants). */
  prefixes: string[];
  /**
   * For formats keyed on a literal inside the token (MaxMind's `_mmk`, OpenAI's `T3BlbkFJ`): a
   * regex that confirms the literal where it is found. Without it the whole pattern must match
   * at the prefix, which is what keeps short prefixes (`pat`, `re_`) from opening windows.
   */
  at?: string;
  /** The whole token, prefix included, without boundary assertions. */
  pattern: string;
  ci?: boolean;
  entropy?: number;
  confidence?: Confidence;
  /**
   * The token carries its own checksum: the last six characters are the CRC-32 of the thirty
   * before them in base 62 (GitHub's and npm's formats). A token whose checksum holds is one even
   * glued to the letters after it (`…_npm_<token>OPENROUTER_API_KEY`, an env file missing a line break).
   */
  checksum?: 'crc32-base62';
}

export interface KeywordRule {
  id: string;
  provider: string;
  label: string;
  /** Lower-case words that must appear in the variable name. */
  keywords: string[];
  /** The value's shape (whole value). */
  value: string;
  /** Value shape is case-insensitive. */
  ci?: boolean;
  entropy?: number;
  /**
   * The provider's credentials under its name always have this shape (gitleaks' rule semantics):
   * a value of another shape under the name (`telegram_token = "8397:Am3…"`) is not one of its
   * credentials, so the generic reading of the name does not report it either (it is masked).
   */
  exclusive?: boolean;
  /** The provider's `…_id` is half of a key pair, not a public identifier (Sumo Logic's access ID). */
  idIsCredential?: boolean;
  /**
   * The value may follow the name without an operator, a few words on (`facebook 1308…|rho…`,
   * `telegram bot: 5712…:A6n…`): the shape alone is distinctive enough.
   */
  near?: boolean;
}

const HEX = '[a-f0-9]';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const B64 = 'A-Za-z0-9+/';

const t = (id: string, provider: string, label: string, prefixes: string[], pattern: string, extra: Partial<TokenRule> = {}): TokenRule => ({
  id,
  provider,
  label,
  prefixes,
  pattern,
  ...extra,
});

export const TOKEN_RULES: TokenRule[] = [
  // --- source hosting and CI ---
  t('github-pat', 'GitHub', 'GitHub personal access token', ['ghp_'], 'ghp_[A-Za-z0-9]{36}', { entropy: 3, checksum: 'crc32-base62' }),
  t('github-oauth', 'GitHub', 'GitHub OAuth token', ['gho_'], 'gho_[A-Za-z0-9]{36}', { entropy: 3, checksum: 'crc32-base62' }),
  t('github-app', 'GitHub', 'GitHub app token', ['ghu_', 'ghs_'], 'gh[us]_[A-Za-z0-9]{36}', { entropy: 3, checksum: 'crc32-base62' }),
  t('github-refresh', 'GitHub', 'GitHub refresh token', ['ghr_'], 'ghr_[A-Za-z0-9]{36,76}', { entropy: 3 }),
  t('github-fine-grained', 'GitHub', 'GitHub fine-grained token', ['github_pat_'], 'github_pat_[A-Za-z0-9_]{82}', { entropy: 3 }),
  t('gitlab-pat', 'GitLab', 'GitLab personal access token', ['glpat-'], String.raw`glpat-[A-Za-z0-9_-]{20}(?:[A-Za-z0-9_-]{7,280}\.[0-9a-z]{9})?`, { entropy: 3 }),
  t('gitlab-pipeline-trigger', 'GitLab', 'GitLab pipeline trigger token', ['glptt-'], `glptt-${HEX}{40}`, { entropy: 3 }),
  t('gitlab-runner', 'GitLab', 'GitLab runner token', ['glrt-'], String.raw`glrt-(?:t\d_)?[A-Za-z0-9_-]{20,300}(?:\.[0-9a-z]{9})?`, { entropy: 3 }),
  t('gitlab-runner-registration', 'GitLab', 'GitLab runner registration token', ['GR1348941'], 'GR1348941[A-Za-z0-9_-]{20}', { entropy: 3 }),
  t('gitlab-deploy', 'GitLab', 'GitLab deploy token', ['gldt-'], 'gldt-[A-Za-z0-9_-]{20}', { entropy: 3 }),
  t('gitlab-ci-job', 'GitLab', 'GitLab CI job token', ['glcbt-'], 'glcbt-[A-Za-z0-9]{1,5}_[A-Za-z0-9_-]{20}', { entropy: 3 }),
  t('gitlab-feed', 'GitLab', 'GitLab feed token', ['glft-'], 'glft-[A-Za-z0-9_-]{20}', { entropy: 3 }),
  t('gitlab-feature-flags', 'GitLab', 'GitLab feature flag client token', ['glffct-'], 'glffct-[A-Za-z0-9_-]{20}', { entropy: 3 }),
  t('gitlab-incoming-mail', 'GitLab', 'GitLab incoming mail token', ['glimt-'], 'glimt-[A-Za-z0-9_-]{25}', { entropy: 3 }),
  t('gitlab-agent', 'GitLab', 'GitLab Kubernetes agent token', ['glagent-'], 'glagent-[A-Za-z0-9_-]{50}', { entropy: 3 }),
  t('gitlab-oauth-secret', 'GitLab', 'GitLab OAuth application secret', ['gloas-'], 'gloas-[A-Za-z0-9_-]{64}', { entropy: 3 }),
  t('gitlab-scim', 'GitLab', 'GitLab SCIM token', ['glsoat-'], 'glsoat-[A-Za-z0-9_-]{20}', { entropy: 3 }),
  t('gitlab-session', 'GitLab', 'GitLab session cookie', ['_gitlab_session='], '_gitlab_session=[0-9a-z]{32}', { entropy: 3 }),
  t('bitbucket-app-password', 'Bitbucket', 'Bitbucket app password', ['ATBB'], 'ATBB[A-Za-z0-9_=.-]{32}', { entropy: 3.5 }),
  t('atlassian-api', 'Atlassian', 'Atlassian API token', ['ATATT3'], 'ATATT3[A-Za-z0-9_=-]{186}', { entropy: 3.5 }),
  t('buildkite', 'Buildkite', 'Buildkite agent/API token', ['bkua_'], `bkua_${HEX}{40}`, { entropy: 3 }),
  t('circleci-pat', 'CircleCI', 'CircleCI personal token', ['CCIPAT_'], `CCIPAT_[A-Za-z0-9]{22}_${HEX}{40}`, { entropy: 3 }),
  t('sourcegraph', 'Sourcegraph', 'Sourcegraph access token', ['sgp_'], `sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}`, { entropy: 3 }),
  t('octopus-deploy', 'Octopus Deploy', 'Octopus Deploy API key', ['API-'], 'API-[A-Z0-9]{26}', { entropy: 3 }),
  t('pulumi', 'Pulumi', 'Pulumi access token', ['pul-'], `pul-${HEX}{40}`, { entropy: 3 }),
  t('terraform-cloud', 'HashiCorp', 'Terraform Cloud API token', ['.atlasv1.'], String.raw`[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`, { at: String.raw`\.atlasv1\.[A-Za-z0-9_=-]{60}`, entropy: 3.5 }),
  t('vault-service', 'HashiCorp', 'Vault service token', ['hvs.'], String.raw`hvs\.[A-Za-z0-9_-]{24,120}`, { entropy: 3.5 }),
  t('vault-batch', 'HashiCorp', 'Vault batch token', ['hvb.'], String.raw`hvb\.[A-Za-z0-9_-]{24,300}`, { entropy: 3.5 }),
  t('vault-recovery', 'HashiCorp', 'Vault recovery token', ['hvr.'], String.raw`hvr\.[A-Za-z0-9_-]{24,120}`, { entropy: 3.5 }),
  t('docker-hub', 'Docker', 'Docker Hub access token', ['dckr_pat_', 'dckr_oat_'], 'dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,40}', { entropy: 3 }),
  t('jfrog-api-key', 'JFrog', 'Artifactory API key', ['AKCp'], 'AKCp[A-Za-z0-9]{69}', { entropy: 4 }),
  t('jfrog-reference', 'JFrog', 'Artifactory reference token', ['cmVmd'], 'cmVmd[A-Za-z0-9]{59}', { entropy: 4 }),
  t('scalingo', 'Scalingo', 'Scalingo API token', ['tk-us-'], 'tk-us-[A-Za-z0-9_-]{48}', { entropy: 3 }),
  t('readme', 'ReadMe', 'ReadMe API key', ['rdme_'], 'rdme_[a-z0-9]{70}', { entropy: 3 }),
  t('prefect', 'Prefect', 'Prefect API key', ['pnu_'], 'pnu_[A-Za-z0-9]{36}', { entropy: 3 }),
  // not the `.ico-<hash>` of a fingerprinted icon file name
  t('infracost', 'Infracost', 'Infracost API key', ['ico-'], String.raw`(?<!\.)ico-[A-Za-z0-9]{32}`, { entropy: 3 }),
  t('defined-networking', 'Defined Networking', 'Defined Networking API key', ['dnkey-'], 'dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}', { entropy: 3 }),
  t('clojars', 'Clojars', 'Clojars deploy token', ['CLOJARS_'], 'CLOJARS_[A-Za-z0-9]{60}', { entropy: 3 }),
  t('rubygems', 'RubyGems', 'RubyGems API key', ['rubygems_'], `rubygems_${HEX}{48}`, { entropy: 3 }),
  t('pypi', 'PyPI', 'PyPI upload token', ['pypi-AgEIcHlwaS5vcmc'], 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}', { entropy: 3 }),
  t('npm', 'npm', 'npm access token', ['npm_'], 'npm_[A-Za-z0-9]{36}', { entropy: 3, checksum: 'crc32-base62' }),
  t('nuget', 'NuGet', 'NuGet API key', ['oy2'], 'oy2[a-z0-9]{43}', { entropy: 3.5 }),
  t('codacy', 'Codacy', 'Codacy token', ['cdc_'], 'cdc_[A-Za-z0-9]{32,40}', { entropy: 3.5 }),
  // --- cloud ---
  t('aws-access-key-id', 'AWS', 'AWS access key ID', ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'], '(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16}', { entropy: 3 }),
  t('google-api-key', 'Google', 'Google API key', ['AIza'], 'AIza[A-Za-z0-9_-]{35}', { entropy: 3.5 }),
  t('google-oauth-secret', 'Google', 'Google OAuth client secret', ['GOCSPX-'], 'GOCSPX-[A-Za-z0-9_-]{28}', { entropy: 3.5 }),
  t('google-oauth-token', 'Google', 'Google OAuth access token', ['ya29.'], String.raw`ya29\.[A-Za-z0-9_-]{30,}`, { entropy: 3.5 }),
  t('google-refresh-token', 'Google', 'Google OAuth refresh token', ['1//0'], '1//0[A-Za-z0-9_-]{40,}', { entropy: 3.5 }),
  t('azure-ad-client-secret', 'Microsoft', 'Azure AD client secret', ['Q~'], String.raw`[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![~.-])`, { at: String.raw`Q~[A-Za-z0-9_~.-]{31}`, entropy: 3 }),
  t('azure-storage-key', 'Microsoft', 'Azure storage account key', ['AccountKey='], `AccountKey=[${B64}]{86}==`, { entropy: 4 }),
  t('azure-sas', 'Microsoft', 'Azure shared access signature', ['SharedAccessKey='], `SharedAccessKey=[${B64}]{43}=`, { entropy: 4 }),
  t('teams-webhook', 'Microsoft', 'Microsoft Teams webhook URL', ['webhook.office.com/webhookb2/'], String.raw`https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[a-z0-9-]{36}@[a-z0-9-]{36}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9-]{36}(?:/[A-Za-z0-9_-]+)?`, { ci: true, at: String.raw`webhook\.office\.com/webhookb2/` }),
  t('teams-workflow-webhook', 'Microsoft', 'Microsoft Teams workflow URL', ['logic.azure.com'], String.raw`https://[a-z0-9.-]+\.logic\.azure\.com(?::443)?/workflows/[a-f0-9]{32}/triggers/manual/paths/invoke\?[^\s"'<>]*sig=[A-Za-z0-9_%-]{40,}`, { ci: true, at: String.raw`logic\.azure\.com` }),
  t('alibaba-access-key-id', 'Alibaba', 'Alibaba Cloud AccessKey ID', ['LTAI'], 'LTAI[A-Za-z0-9]{20}', { entropy: 3 }),
  t('digitalocean', 'DigitalOcean', 'DigitalOcean token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], `do[opr]_v1_${HEX}{64}`, { entropy: 3 }),
  t('cloudflare-origin-ca', 'Cloudflare', 'Cloudflare Origin CA key', ['v1.0-'], String.raw`v1\.0-${HEX}{24}-${HEX}{146}`, { entropy: 3 }),
  t('flyio', 'Fly.io', 'Fly.io access token', ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'], `(?:fo1_[A-Za-z0-9_-]{43}|fm1[ar]_[${B64}]{100,}={0,3}|fm2_[${B64}]{100,}={0,3})`, { entropy: 4 }),
  t('heroku-v2', 'Heroku', 'Heroku API key', ['HRKU-AA'], 'HRKU-AA[A-Za-z0-9_-]{58}', { entropy: 4 }),
  t('openshift', 'OpenShift', 'OpenShift user token', ['sha256~'], 'sha256~[A-Za-z0-9_-]{43}', { entropy: 3.5 }),
  t('planetscale', 'PlanetScale', 'PlanetScale token', ['pscale_tkn_', 'pscale_oauth_', 'pscale_pw_'], String.raw`pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}`, { entropy: 3 }),
  t('supabase', 'Supabase', 'Supabase access token', ['sbp_'], `sbp_(?:oauth_)?${HEX}{40}`, { entropy: 3 }),
  t('supabase-secret', 'Supabase', 'Supabase secret key', ['sb_secret_'], 'sb_secret_[A-Za-z0-9_-]{31,}', { entropy: 3 }),
  t('netlify', 'Netlify', 'Netlify access token', ['nfp_'], 'nfp_[A-Za-z0-9]{36}', { entropy: 3 }),
  t('vercel', 'Vercel', 'Vercel token', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], 'vc[pikra]_[A-Za-z0-9]{24,}', { entropy: 3 }),
  t('databricks', 'Databricks', 'Databricks token', ['dapi'], `dapi${HEX}{32}(?:-\\d)?`, { entropy: 3 }),
  t('dynatrace', 'Dynatrace', 'Dynatrace API token', ['dt0c01.'], String.raw`dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}`, { entropy: 4 }),
  t('newrelic-user', 'New Relic', 'New Relic user API key', ['NRAK-'], 'NRAK-[A-Z0-9]{27}', { entropy: 3 }),
  t('newrelic-insert', 'New Relic', 'New Relic insert key', ['NRII-'], 'NRII-[A-Za-z0-9_-]{32}', { entropy: 3 }),
  t('newrelic-browser', 'New Relic', 'New Relic browser key', ['NRJS-'], `NRJS-${HEX}{19}`, { entropy: 3 }),
  t('sentry-user', 'Sentry', 'Sentry user token', ['sntryu_'], `sntryu_${HEX}{64}`, { entropy: 3.5 }),
  t('sentry-org', 'Sentry', 'Sentry organization token', ['sntrys_'], `sntrys_eyJ[${B64}]{40,400}={0,2}_[${B64}]{43}`, { entropy: 4 }),
  t('grafana-cloud', 'Grafana', 'Grafana Cloud token', ['glc_'], `glc_[${B64}]{32,400}={0,3}`, { entropy: 3 }),
  t('grafana-service-account', 'Grafana', 'Grafana service account token', ['glsa_'], 'glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}', { entropy: 3 }),
  t('grafana-api-key', 'Grafana', 'Grafana API key', ['eyJrIjoi'], 'eyJrIjoi[A-Za-z0-9]{70,400}={0,3}', { entropy: 3 }),
  t('doppler', 'Doppler', 'Doppler token', ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.'], String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}`, { entropy: 3 }),
  t('onepassword-service-account', '1Password', '1Password service account token', ['ops_eyJ'], `ops_eyJ[${B64}]{100,}={0,3}`, { entropy: 4 }),
  t('onepassword-secret-key', '1Password', '1Password secret key', ['A3-'], 'A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}', { entropy: 3.5 }),
  // Bech32 may be written in either case (`age-keygen` prints upper case; configs lower-case it).
  t('age-secret-key', 'age', 'age secret key', ['AGE-SECRET-KEY-1', 'age-secret-key-1'], 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}', { ci: true }),
  // SonarQube 9.5+ tokens: user (squ_), project analysis (sqp_), global analysis (sqa_) + 40 hex.
  t('sonar-token', 'SonarQube', 'SonarQube token', ['squ_', 'sqp_', 'sqa_'], 'sq[apu]_[a-f0-9]{40}', { entropy: 3 }),
  t('clickhouse-cloud', 'ClickHouse', 'ClickHouse Cloud API secret', ['4b1d'], '4b1d[A-Za-z0-9]{38}', { entropy: 3.5 }),
  t('kubernetes-bootstrap', 'Kubernetes', 'Kubernetes service account token', ['eyJhbGciOiJSUzI1NiIsImtpZCI6'], String.raw`eyJhbGciOiJSUzI1NiIsImtpZCI6[A-Za-z0-9_-]{20,}\.eyJ[A-Za-z0-9_-]{40,}\.[A-Za-z0-9_-]{40,}`, { entropy: 4, confidence: 'high' }),
  // --- AI providers ---
  t('openai', 'OpenAI', 'OpenAI API key', ['T3BlbkFJ'], '(?:sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,74})T3BlbkFJ[A-Za-z0-9_-]{20,74}', { at: 'T3BlbkFJ[A-Za-z0-9_-]{20}', entropy: 3 }),
  t('anthropic', 'Anthropic', 'Anthropic API key', ['sk-ant-'], 'sk-ant-(?:api|admin|oat|ort|sid)\\d{2}-[A-Za-z0-9_-]{32,}', { entropy: 3.5 }),
  // OpenRouter's keys: `sk-or-v1-` and 64 hex (their issuer is openrouter.ai, whatever variable holds them)
  t('openrouter', 'OpenRouter', 'OpenRouter API key', ['sk-or-v1-'], `sk-or-v1-${HEX}{64}`, { entropy: 3 }),
  t('groq', 'Groq', 'Groq API key', ['gsk_'], 'gsk_[A-Za-z0-9]{48,52}', { entropy: 3.5 }),
  t('xai', 'xAI', 'xAI API key', ['xai-'], 'xai-[A-Za-z0-9]{70,90}', { entropy: 3.5 }),
  t('perplexity', 'Perplexity', 'Perplexity API key', ['pplx-'], 'pplx-[A-Za-z0-9]{48}', { entropy: 3.5 }),
  t('replicate', 'Replicate', 'Replicate API token', ['r8_'], 'r8_[A-Za-z0-9]{37}', { entropy: 3.5 }),
  t('huggingface', 'Hugging Face', 'Hugging Face token', ['hf_'], 'hf_[A-Za-z]{34}', { entropy: 3 }),
  t('huggingface-org', 'Hugging Face', 'Hugging Face organization token', ['api_org_'], 'api_org_[A-Za-z]{34}', { entropy: 3 }),
  t('langsmith', 'LangChain', 'LangSmith API key', ['lsv2_pt_', 'lsv2_sk_'], `lsv2_(?:pt|sk)_${HEX}{32}_${HEX}{10}`, { entropy: 3 }),
  t('pinecone', 'Pinecone', 'Pinecone API key', ['pcsk_'], 'pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,80}', { entropy: 3.5 }),
  t('tavily', 'Tavily', 'Tavily API key', ['tvly-'], 'tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}', { entropy: 3.5 }),
  t('firecrawl', 'Firecrawl', 'Firecrawl API key', ['fc-'], `fc-${HEX}{32}`, { entropy: 3 }),
  t('fireworks', 'Fireworks', 'Fireworks API key', ['fw_'], 'fw_[A-Za-z0-9]{24}', { entropy: 3.5 }),
  t('browserbase', 'Browserbase', 'Browserbase API key', ['bb_live_'], 'bb_live_[A-Za-z0-9_-]{27}', { entropy: 3.5 }),
  t('deepseek', 'DeepSeek', 'API key (sk- hex)', ['sk-'], `sk-${HEX}{32}`, { entropy: 3, confidence: 'medium' }),
  t('openai-legacy', 'OpenAI', 'OpenAI API key', ['sk-'], 'sk-[A-Za-z0-9]{48}', { entropy: 4 }),
  // --- messaging ---
  t('slack-bot', 'Slack', 'Slack bot token', ['xoxb-'], String.raw`xoxb-\d{8,14}-(?:\d{8,14}-)?[A-Za-z0-9]{18,34}`, { entropy: 3 }),
  t('slack-user', 'Slack', 'Slack user token', ['xoxp-', 'xoxe-'], String.raw`xox[pe](?:-\d{8,14}){3}-[A-Za-z0-9-]{28,34}`, { entropy: 3 }),
  t('slack-workspace', 'Slack', 'Slack workspace token', ['xoxa-', 'xoxr-'], String.raw`xox[ar]-(?:\d-)?[A-Za-z0-9]{8,48}`, { entropy: 3 }),
  t('slack-legacy', 'Slack', 'Slack legacy token', ['xoxo-', 'xoxs-'], String.raw`xox[os]-\d+-\d+-\d+-[a-fA-F\d]+`, { entropy: 3 }),
  t('slack-config', 'Slack', 'Slack configuration token', ['xoxe.xox', 'xoxe-'], String.raw`xoxe(?:\.xox[bp])?-\d-[A-Za-z0-9]{146,166}`, { entropy: 3 }),
  t('slack-app', 'Slack', 'Slack app-level token', ['xapp-'], String.raw`xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`, { ci: true, entropy: 3 }),
  t('slack-webhook', 'Slack', 'Slack webhook URL', ['hooks.slack.com/'], String.raw`(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{40,90}`, { entropy: 3 }),
  t('discord-webhook', 'Discord', 'Discord webhook URL', ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'], String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{17,20}/[A-Za-z0-9_-]{60,68}`, { at: String.raw`discord(?:app)?\.com/api/webhooks/\d` }),
  t('telegram-bot', 'Telegram', 'Telegram bot token', [':AA'], String.raw`\d{8,10}:AA[A-Za-z0-9_-]{33}`, { at: ':AA[A-Za-z0-9_-]{33}', entropy: 3.5 }),
  t('sendgrid', 'SendGrid', 'SendGrid API key', ['SG.'], String.raw`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`, { entropy: 3 }),
  t('brevo', 'Brevo', 'Brevo (Sendinblue) API key', ['xkeysib-', 'xsmtpsib-'], `x(?:keysib|smtpsib)-${HEX}{64}-[A-Za-z0-9]{16}`, { entropy: 3 }),
  t('mailchimp', 'Mailchimp', 'Mailchimp API key', ['-us'], `${HEX}{32}-us\\d{1,2}`, { at: String.raw`-us\d`, entropy: 3 }),
  t('mailgun', 'Mailgun', 'Mailgun API key', ['key-'], `key-${HEX}{32}`, { entropy: 3, confidence: 'medium' }),
  t('postman', 'Postman', 'Postman API key', ['PMAK-'], `PMAK-${HEX}{24}-${HEX}{34}`, { ci: true, entropy: 3 }),
  t('twilio-api-key', 'Twilio', 'Twilio API key', ['SK'], `SK${HEX}{32}`, { entropy: 3, confidence: 'medium' }),
  // --- payments and commerce ---
  t('stripe', 'Stripe', 'Stripe secret key', ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'], '[rs]k_(?:live|test|prod)_[A-Za-z0-9]{10,247}', { entropy: 3 }),
  t('settlemint-pat', 'SettleMint', 'SettleMint personal access token', ['sm_pat_'], 'sm_pat_[A-Za-z0-9]{16}', { entropy: 3 }),
  t('settlemint-aat', 'SettleMint', 'SettleMint application access token', ['sm_aat_'], 'sm_aat_[A-Za-z0-9]{16}', { entropy: 3 }),
  t('settlemint-sat', 'SettleMint', 'SettleMint service access token', ['sm_sat_'], 'sm_sat_[A-Za-z0-9]{16}', { entropy: 3 }),
  t('stripe-webhook', 'Stripe', 'Stripe webhook secret', ['whsec_'], 'whsec_[A-Za-z0-9]{32,}', { entropy: 3 }),
  t('square-access', 'Square', 'Square access token', ['sq0atp-', 'EAAA'], '(?:sq0atp-[A-Za-z0-9_-]{22,60}|EAAA[A-Za-z0-9_-]{60})', { entropy: 3 }),
  t('square-secret', 'Square', 'Square OAuth secret', ['sq0csp-'], 'sq0csp-[A-Za-z0-9_-]{43}', { entropy: 3 }),
  t('shopify', 'Shopify', 'Shopify token', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}', { entropy: 3 }),
  t('shippo', 'Shippo', 'Shippo API token', ['shippo_live_', 'shippo_test_'], 'shippo_(?:live|test)_[a-fA-F0-9]{40}', { entropy: 3 }),
  t('duffel', 'Duffel', 'Duffel API token', ['duffel_live_', 'duffel_test_'], 'duffel_(?:live|test)_[A-Za-z0-9_=-]{43}', { entropy: 3 }),
  t('easypost', 'EasyPost', 'EasyPost API key', ['EZAK', 'EZTK'], 'EZ[AT]K[A-Za-z0-9]{54}', { entropy: 3 }),
  t('flutterwave', 'Flutterwave', 'Flutterwave secret key', ['FLWSECK_TEST-', 'FLWSECK-'], `FLWSECK(?:_TEST)?-[a-hA-H0-9]{12,32}(?:-X)?`, { entropy: 3 }),
  t('paypal-braintree', 'PayPal', 'Braintree access token', ['$production$', '$sandbox$'], String.raw`access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}`, { at: String.raw`\$(?:production|sandbox)\$[0-9a-z]{16}\$`, entropy: 3 }),
  t('adobe-client-secret', 'Adobe', 'Adobe client secret', ['p8e-'], 'p8e-[A-Za-z0-9]{32}', { entropy: 3 }),
  // Graph API access tokens: "EAA" + the token type's letter (page/app M, C; user and Marketing API tokens B, G) + 100+ characters.
  t('facebook-page', 'Facebook', 'Facebook access token', ['EAAM', 'EAAC', 'EAAB', 'EAAG'], 'EAA[MCBG][A-Za-z0-9]{100,}', { entropy: 4 }),
  t('hubspot-pat', 'HubSpot', 'HubSpot private app token', ['pat-na1-', 'pat-eu1-'], `pat-(?:na|eu)1-${UUID}`, { entropy: 3 }),
  t('intra42', 'Intra42', '42 School client secret', ['s-s4t2ud-', 's-s4t2af-'], `s-s4t2(?:ud|af)-${HEX}{64}`, { entropy: 3 }),
  t('maxmind', 'MaxMind', 'MaxMind license key', ['_mmk'], '[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk', { at: '_mmk', entropy: 4 }),
  t('settlemint', 'SettleMint', 'SettleMint token', ['sm_aat_', 'sm_pat_', 'sm_sat_'], 'sm_[aps]at_[A-Za-z0-9]{16}', { entropy: 3 }),
  t('typeform', 'Typeform', 'Typeform API token', ['tfp_'], 'tfp_[A-Za-z0-9_.=-]{59}', { entropy: 3 }),
  t('contentful', 'Contentful', 'Contentful personal access token', ['CFPAT-'], 'CFPAT-[A-Za-z0-9_-]{43}', { entropy: 3 }),
  t('linear', 'Linear', 'Linear API key', ['lin_api_'], 'lin_api_[A-Za-z0-9]{40}', { entropy: 3 }),
  t('notion', 'Notion', 'Notion integration token', ['ntn_'], 'ntn_[0-9]{11}[A-Za-z0-9]{35}', { entropy: 3.5 }),
  t('figma', 'Figma', 'Figma access token', ['figd_'], 'figd_[A-Za-z0-9_-]{40}', { entropy: 3 }),
  t('mapbox-secret', 'Mapbox', 'Mapbox secret token', ['sk.eyJ'], String.raw`sk\.eyJ[A-Za-z0-9_-]{60,}\.[A-Za-z0-9_-]{22}`, { entropy: 3.5 }),
  t('shopify-partner', 'Shopify', 'Shopify partner token', ['prtapi_'], `prtapi_${HEX}{32}`, { entropy: 3 }),
];

const k = (id: string, provider: string, label: string, keywords: string[], value: string, extra: Partial<KeywordRule> = {}): KeywordRule => ({
  id,
  provider,
  label,
  keywords,
  value,
  ci: true,
  ...extra,
});

export const KEYWORD_RULES: KeywordRule[] = [
  // Formats whose prefixes would stop the prefilter too often (`re_`, `rnd_`, `pat.`, `fio-u-`
  // end in pairs that fill every log): found where they are named.
  k('resend', 'Resend', 'Resend API key', ['resend'], 're_[a-z0-9]{8}_[a-z0-9]{24}', { entropy: 3 }),
  k('render', 'Render', 'Render API key', ['render'], 'rnd_[a-z0-9]{32}', { entropy: 3 }),
  k('harness', 'Harness', 'Harness access token', ['harness'], String.raw`[ps]at\.[a-z0-9_-]{22}\.[a-z0-9]{24}\.[a-z0-9]{20}`, { entropy: 3 }),
  k('frameio', 'Frame.io', 'Frame.io API token', ['frameio', 'frame_io', 'frame-io'], 'fio-u-[a-z0-9_=-]{64}', { entropy: 3 }),
  k('adafruit', 'Adafruit', 'Adafruit IO key', ['adafruit'], '[a-z0-9_-]{32}', { entropy: 3 }),
  k('adobe-client-id', 'Adobe', 'Adobe client ID', ['adobe'], `${HEX}{32}`, { entropy: 2.5 }),
  // Airtable PATs (`pat` + 14 + `.` + 64 hex) are found by name: a 3-letter `pat` key would stop
  // the prefilter at every "at" in the text.
  k('airtable-key', 'Airtable', 'Airtable API key', ['airtable'], String.raw`pat[a-z0-9]{14}\.[a-f0-9]{64}|(?:key)?[a-z0-9]{14,17}`, { entropy: 3 }),
  k('algolia', 'Algolia', 'Algolia API key', ['algolia'], '[a-z0-9]{32}', { entropy: 3 }),
  k('alibaba-secret', 'Alibaba', 'Alibaba Cloud secret key', ['alibaba', 'aliyun'], '[a-z0-9]{30}', { entropy: 3 }),
  k('asana', 'Asana', 'Asana client secret', ['asana'], '[0-9]{16}|[a-z0-9]{32}', { entropy: 2.5 }),
  k('atlassian', 'Atlassian', 'Atlassian API token', ['atlassian', 'confluence', 'jira'], '[a-z0-9]{20}[a-f0-9]{4}|[a-z0-9]{24}', { entropy: 3.5 }),
  k('azure', 'Microsoft', 'Azure key', ['azure'], `${HEX}{32}|[A-Za-z0-9]{84}|[${B64}]{86}==|[a-z0-9]{52}`, { entropy: 3 }),
  k('azure-devops', 'Microsoft', 'Azure DevOps token', ['azdo', 'ado_', 'devops'], '[a-z0-9]{52}|[A-Za-z0-9]{84}', { entropy: 3.5 }),
  k('beamer', 'Beamer', 'Beamer API key', ['beamer'], 'b_[a-z0-9=_-]{44}', { entropy: 3 }),
  k('bitbucket', 'Bitbucket', 'Bitbucket client secret', ['bitbucket'], '[a-z0-9]{32}|[a-z0-9=_-]{64}', { entropy: 3 }),
  k('bittrex', 'Bittrex', 'Bittrex API key', ['bittrex'], '[a-z0-9]{32}', { entropy: 3 }),
  k('cloudflare', 'Cloudflare', 'Cloudflare API key', ['cloudflare', 'cf_api'], '[a-z0-9_-]{40}|[a-f0-9]{37}', { entropy: 3 }),
  k('codecov', 'Codecov', 'Codecov token', ['codecov'], `[a-z0-9]{32}|${UUID}`, { entropy: 3 }),
  k('cohere', 'Cohere', 'Cohere API key', ['cohere', 'co_api_key'], '[a-z0-9]{40}', { entropy: 3.5 }),
  k('coinbase', 'Coinbase', 'Coinbase access token', ['coinbase'], '[a-z0-9_-]{64}', { entropy: 3 }),
  k('confluent', 'Confluent', 'Confluent API secret', ['confluent'], '[a-z0-9]{16}|[a-z0-9+/]{64}', { entropy: 3 }),
  k('contentful-delivery', 'Contentful', 'Contentful delivery token', ['contentful'], '[a-z0-9=_-]{43}', { entropy: 3 }),
  k('datadog', 'Datadog', 'Datadog API key', ['datadog', 'dd_api', 'dd_app'], `${HEX}{32}|[a-z0-9]{40}`, { entropy: 3 }),
  k('deepgram', 'Deepgram', 'Deepgram API key', ['deepgram'], `${HEX}{40}`, { entropy: 3 }),
  k('discord', 'Discord', 'Discord bot token', ['discord'], String.raw`[a-f0-9]{64}|[a-z0-9=_-]{32}|[MNO][a-z\d_-]{23,25}\.[\w-]{6}\.[\w-]{27,38}`, { entropy: 3 }),
  k('droneci', 'Drone CI', 'Drone CI token', ['droneci', 'drone_token', 'drone_'], '[a-z0-9]{32}', { entropy: 3 }),
  k('dropbox', 'Dropbox', 'Dropbox API token', ['dropbox'], String.raw`sl\.[a-z0-9_=-]{130,1100}|[a-z0-9]{11}AAAAAAAAAA[a-z0-9_=-]{43}|[a-z0-9]{15}`, { entropy: 3 }),
  k('elevenlabs', 'ElevenLabs', 'ElevenLabs API key', ['elevenlabs', 'xi_api_key', 'xi-api-key'], `(?:sk_)?${HEX}{32,48}`, { entropy: 3 }),
  k('etsy', 'Etsy', 'Etsy API key', ['etsy'], '[a-z0-9]{24}', { entropy: 3 }),
  k('facebook-secret', 'Facebook', 'Facebook app secret', ['facebook', 'fb_app', 'fb_secret'], `${HEX}{32}|\\d{15,16}(?:\\||%7C)[a-z0-9_-]{27,40}`, { entropy: 3, near: true }),
  k('fastly', 'Fastly', 'Fastly API token', ['fastly'], '[a-z0-9=_-]{32}', { entropy: 3 }),
  k('finicity', 'Finicity', 'Finicity API key', ['finicity'], `${HEX}{32}|[a-z0-9]{20}`, { entropy: 3 }),
  k('finnhub', 'Finnhub', 'Finnhub API key', ['finnhub'], '[a-z0-9]{20}', { entropy: 3 }),
  k('flickr', 'Flickr', 'Flickr API key', ['flickr'], '[a-z0-9]{32}', { entropy: 3 }),
  k('freshbooks', 'FreshBooks', 'FreshBooks token', ['freshbooks'], '[a-z0-9]{64}', { entropy: 3 }),
  k('gitter', 'Gitter', 'Gitter token', ['gitter'], '[a-z0-9_-]{40}', { entropy: 3 }),
  k('gocardless', 'GoCardless', 'GoCardless access token', ['gocardless'], 'live_[a-z0-9_=-]{40}', { entropy: 3 }),
  k('heroku', 'Heroku', 'Heroku API key', ['heroku'], UUID, { entropy: 3 }),
  k('hubspot', 'HubSpot', 'HubSpot API key', ['hubspot', 'hapikey'], UUID, { entropy: 3 }),
  k('intercom', 'Intercom', 'Intercom access token', ['intercom'], '[a-z0-9=_-]{60}', { entropy: 3 }),
  k('jfrog', 'JFrog', 'JFrog token', ['jfrog', 'artifactory', 'bintray', 'xray'], '[a-z0-9]{64}|[a-z0-9]{73}', { entropy: 3 }),
  k('kraken', 'Kraken', 'Kraken API key', ['kraken'], '[a-z0-9/=_+-]{80,90}', { entropy: 3 }),
  k('kucoin', 'KuCoin', 'KuCoin API key', ['kucoin'], `${HEX}{24}|${UUID}`, { entropy: 3 }),
  k('launchdarkly', 'LaunchDarkly', 'LaunchDarkly key', ['launchdarkly', 'ld_sdk', 'ld_api'], `(?:api|sdk|mob)-${UUID}|[a-z0-9=_-]{40}`, { entropy: 3 }),
  k('linear-secret', 'Linear', 'Linear client secret', ['linear'], `${HEX}{32}`, { entropy: 3 }),
  k('linkedin', 'LinkedIn', 'LinkedIn client secret', ['linkedin', 'linked_in', 'linked-in'], '[a-z0-9]{14,16}', { entropy: 3 }),
  k('lob', 'Lob', 'Lob API key', ['lob_', 'lob-', 'lobkey', 'lobtoken', 'lobapi'], `(?:live|test)_(?:pub_)?${HEX}{31,35}`, { entropy: 3 }),
  k('mailgun-keyword', 'Mailgun', 'Mailgun key', ['mailgun'], `(?:key-|pubkey-)?${HEX}{32}|[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}`, { entropy: 3 }),
  k('mapbox', 'Mapbox', 'Mapbox token', ['mapbox'], String.raw`pk\.[a-z0-9]{60}\.[a-z0-9]{22}`, { entropy: 3 }),
  k('mattermost', 'Mattermost', 'Mattermost token', ['mattermost'], '[a-z0-9]{26}', { entropy: 3 }),
  k('meraki', 'Cisco', 'Cisco Meraki API key', ['meraki'], `${HEX}{40}`, { entropy: 3, ci: false, exclusive: true }),
  k('messagebird', 'MessageBird', 'MessageBird API key', ['messagebird', 'message_bird', 'message-bird'], `[a-z0-9]{25}|${UUID}`, { entropy: 3 }),
  k('mistral', 'Mistral', 'Mistral API key', ['mistral'], '[a-z0-9]{32}', { entropy: 3.5 }),
  k('netlify-keyword', 'Netlify', 'Netlify token', ['netlify'], '[a-z0-9=_-]{40,46}', { entropy: 3 }),
  k('newrelic', 'New Relic', 'New Relic key', ['newrelic', 'new_relic', 'new-relic'], '[a-z0-9]{64}|[a-f0-9]{40}|[a-z0-9]{32}NRAL', { entropy: 3 }),
  k('nytimes', 'New York Times', 'New York Times API key', ['nytimes', 'newyorktimes', 'new-york-times'], '[a-z0-9=_-]{32}', { entropy: 3 }),
  k('okta', 'Okta', 'Okta API token', ['okta'], '00[a-z0-9=_-]{40}', { entropy: 3.5 }),
  k('pagerduty', 'PagerDuty', 'PagerDuty API key', ['pagerduty'], '[a-z0-9_+-]{20}', { entropy: 3 }),
  k('plaid', 'Plaid', 'Plaid key', ['plaid'], `access-(?:sandbox|development|production)-${UUID}|[a-z0-9]{24}|[a-z0-9]{30}`, { entropy: 3 }),
  k('postmark', 'Postmark', 'Postmark server token', ['postmark'], UUID, { entropy: 3 }),
  k('privateai', 'Private AI', 'Private AI API key', ['privateai', 'private_ai', 'private-ai'], '[a-z0-9]{32}', { entropy: 3 }),
  k('rapidapi', 'RapidAPI', 'RapidAPI key', ['rapidapi'], '[a-z0-9_-]{50}', { entropy: 3 }),
  k('sendbird', 'Sendbird', 'Sendbird token', ['sendbird'], `${HEX}{40}|${UUID}`, { entropy: 3 }),
  k('sentry', 'Sentry', 'Sentry token', ['sentry'], `${HEX}{64}`, { entropy: 3 }),
  k('sourcegraph-keyword', 'Sourcegraph', 'Sourcegraph access token', ['sourcegraph'], `${HEX}{40}`, { entropy: 3 }),
  k('sidekiq', 'Sidekiq', 'Sidekiq Enterprise credentials', ['bundle_enterprise__contribsys__com', 'bundle_gems__contribsys__com'], `${HEX}{8}:${HEX}{8}`, { entropy: 2.5 }),
  k('snyk', 'Snyk', 'Snyk API token', ['snyk'], UUID, { entropy: 3 }),
  k('sonar', 'SonarQube', 'SonarQube token', ['sonar'], '(?:sq[apu]_)?[a-z0-9=_-]{40}', { entropy: 3 }),
  k('squarespace', 'Squarespace', 'Squarespace API key', ['squarespace'], UUID, { entropy: 3 }),
  k('sumologic', 'Sumo Logic', 'Sumo Logic key', ['sumo'], 'su[A-Za-z0-9]{12}|[a-z0-9]{64}', { entropy: 3, idIsCredential: true }),
  k('telegram', 'Telegram', 'Telegram bot token', ['telegr'], String.raw`\d{5,16}:A[a-z0-9_-]{34}`, { entropy: 3, exclusive: true, near: true }),
  k('travisci', 'Travis CI', 'Travis CI token', ['travis'], '[a-z0-9]{22}', { entropy: 3 }),
  k('twilio', 'Twilio', 'Twilio auth token', ['twilio'], `SK${HEX}{32}|${HEX}{32}`, { entropy: 3 }),
  k('twitch', 'Twitch', 'Twitch API token', ['twitch'], '[a-z0-9]{30}', { entropy: 3 }),
  k('twitter', 'Twitter', 'Twitter API credential', ['twitter'], String.raw`[a-z0-9]{25}|[a-z0-9]{45}|[a-z0-9]{50}|[0-9]{15,25}-[a-z0-9]{20,40}|A{22}[a-z0-9%]{80,100}`, { entropy: 3 }),
  k('vault-legacy', 'HashiCorp', 'Vault token', ['vault'], String.raw`s\.[a-z0-9]{24}|hv[sb]\.[a-z0-9_-]{24,300}`, { entropy: 3 }),
  k('yandex', 'Yandex', 'Yandex key', ['yandex'], String.raw`t1\.[a-z0-9_-]+={0,2}\.[a-z0-9_-]{86}={0,2}|AQVN[a-z0-9_-]{35,38}|YC[a-z0-9_-]{38}`, { entropy: 3 }),
  k('zendesk', 'Zendesk', 'Zendesk API token', ['zendesk'], '[a-z0-9]{40}', { entropy: 3 }),
  k('railway', 'Railway', 'Railway token', ['railway'], UUID, { entropy: 3 }),
  k('segment', 'Segment', 'Segment write key', ['segment_write', 'segmentwrite', 'segment_key', 'segment_token', 'segment_api'], '[a-z0-9]{32}', { entropy: 3.5 }),
  k('algolia-admin', 'Algolia', 'Algolia admin key', ['algolia_admin'], `${HEX}{32}`, { entropy: 3 }),
  k('firebase-server', 'Google', 'Firebase server key', ['fcm_server', 'firebase_server'], String.raw`AAAA[a-z0-9_-]{7}:[a-z0-9_-]{140}`, { entropy: 3.5 }),
];

/** Provider families covered (both kinds), for documentation and the breadth test. */
export function providers(): Set<string> {
  return new Set([...TOKEN_RULES, ...KEYWORD_RULES].map((r) => r.provider));
}
