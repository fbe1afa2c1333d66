// A labelled table of credentials and look-alikes, run through the whole rule catalogue in the
// four places a credential turns up in a session: typed into a prompt, put into a command,
// written into a file, printed by a tool. It asserts the detection rates Vouch is held to
// (credentials flagged ≥ 95 % when written, ≥ 90 % when printed, look-alikes flagged ≤ 3 %) and
// that no finding ever repeats a detected value. Token bodies are generated at run time from a
// seeded generator with each format's charset and length, so nothing live-looking is committed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FindingDraft } from './types.ts';
import { cmd, prompt, ran, runRules, write } from './harness.testing.ts';
import { rng } from '../secrets/test-helpers.ts';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGIT = '0123456789';
const ALNUM = UPPER + LOWER + DIGIT;
const HEX = '0123456789abcdef';
const B64URL = ALNUM + '_-';

/** A fresh generator per case, so a case's value never depends on the cases before it. */
function gen(seed: number) {
  const next = rng(seed * 2654435761);
  const s = (n: number, chars = ALNUM) => {
    let out = '';
    for (let i = 0; i < n; i++) out += chars[Math.floor(next() * chars.length)];
    return out;
  };
  const uuid = () => `${s(8, HEX)}-${s(4, HEX)}-4${s(3, HEX)}-a${s(3, HEX)}-${s(12, HEX)}`;
  return { s, uuid };
}
type Gen = ReturnType<typeof gen>;

interface Positive {
  provider: string;
  /** The credential. */
  make: (g: Gen) => string;
  /** How the credential is named where it is assigned (also used in the printed form). */
  name: string;
  /** The credential is recognisable on its own (printed bare by `… token` commands). */
  bare?: boolean;
  /** The credential in its own context (a CLI argument, a header, a URL) instead of `NAME=value`. */
  text?: (value: string) => string;
}

const tok = (provider: string, name: string, make: (g: Gen) => string): Positive => ({ provider, name, make, bare: true });
const kw = (provider: string, name: string, make: (g: Gen) => string): Positive => ({ provider, name, make });
const ctx = (provider: string, make: (g: Gen) => string, text: (value: string) => string): Positive => ({ provider, name: provider, make, text });

const POSITIVES: Positive[] = [
  tok('GitHub', 'GITHUB_TOKEN', (g) => 'ghp_' + g.s(36)),
  tok('GitHub', 'GH_OAUTH', (g) => 'gho_' + g.s(36)),
  tok('GitHub', 'GH_APP_TOKEN', (g) => 'ghs_' + g.s(36)),
  tok('GitHub', 'GH_USER_TOKEN', (g) => 'ghu_' + g.s(36)),
  tok('GitHub', 'GH_REFRESH', (g) => 'ghr_' + g.s(36)),
  tok('GitHub', 'GH_PAT', (g) => 'github_pat_11' + g.s(20) + '_' + g.s(59)),
  tok('GitLab', 'GITLAB_TOKEN', (g) => 'glpat-' + g.s(20, B64URL)),
  tok('GitLab', 'RUNNER_TOKEN', (g) => 'glrt-' + g.s(20, B64URL)),
  tok('GitLab', 'DEPLOY_TOKEN', (g) => 'gldt-' + g.s(20, B64URL)),
  tok('GitLab', 'CI_JOB_TOKEN', (g) => 'glcbt-' + g.s(2, HEX) + '_' + g.s(20, B64URL)),
  tok('GitLab', 'TRIGGER_TOKEN', (g) => 'glptt-' + g.s(40, HEX)),
  tok('GitLab', 'FEED_TOKEN', (g) => 'glft-' + g.s(20, B64URL)),
  tok('GitLab', 'MAIL_TOKEN', (g) => 'glimt-' + g.s(25, B64URL)),
  tok('GitLab', 'AGENT_TOKEN', (g) => 'glagent-' + g.s(50, B64URL)),
  tok('GitLab', 'SCIM_TOKEN', (g) => 'glsoat-' + g.s(20, B64URL)),
  tok('GitLab', 'OAUTH_SECRET', (g) => 'gloas-' + g.s(64, B64URL)),
  tok('GitLab', 'REGISTRATION_TOKEN', (g) => 'GR1348941' + g.s(20, B64URL)),
  tok('AWS', 'AWS_ACCESS_KEY_ID', (g) => 'AKIA' + g.s(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
  tok('AWS', 'AWS_ACCESS_KEY_ID', (g) => 'ASIA' + g.s(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
  tok('AWS', 'AWS_ACCESS_KEY_ID', (g) => 'ABIA' + g.s(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
  tok('AWS', 'AWS_ACCESS_KEY_ID', (g) => 'ACCA' + g.s(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
  kw('AWS', 'AWS_SECRET_ACCESS_KEY', (g) => g.s(40, ALNUM + '+/')),
  tok('Google', 'GOOGLE_API_KEY', (g) => 'AIza' + g.s(35, B64URL)),
  tok('Google', 'GOOGLE_CLIENT_SECRET', (g) => 'GOCSPX-' + g.s(28, B64URL)),
  tok('Google', 'GOOGLE_ACCESS_TOKEN', (g) => 'ya29.' + g.s(120, B64URL)),
  tok('Slack', 'SLACK_BOT_TOKEN', (g) => `xoxb-${g.s(12, DIGIT)}-${g.s(13, DIGIT)}-${g.s(24)}`),
  tok('Slack', 'SLACK_USER_TOKEN', (g) => `xoxp-${g.s(12, DIGIT)}-${g.s(12, DIGIT)}-${g.s(13, DIGIT)}-${g.s(32, HEX)}`),
  tok('Slack', 'SLACK_APP_TOKEN', (g) => `xapp-1-A${g.s(10, UPPER + DIGIT)}-${g.s(13, DIGIT)}-${g.s(64, HEX)}`),
  tok('Slack', 'SLACK_WEBHOOK_URL', (g) => `https://hooks.slack.com/services/T${g.s(10, UPPER + DIGIT)}/B${g.s(10, UPPER + DIGIT)}/${g.s(24)}`),
  tok('Slack', 'SLACK_LEGACY', (g) => `xoxa-2-${g.s(40)}`),
  tok('Stripe', 'STRIPE_SECRET_KEY', (g) => 'sk_live_' + g.s(24)),
  tok('Stripe', 'STRIPE_SECRET_KEY', (g) => 'sk_test_' + g.s(99)),
  tok('Stripe', 'STRIPE_RESTRICTED_KEY', (g) => 'rk_live_' + g.s(24)),
  tok('Stripe', 'STRIPE_WEBHOOK_SECRET', (g) => 'whsec_' + g.s(32)),
  tok('OpenAI', 'OPENAI_API_KEY', (g) => 'sk-proj-' + g.s(74, B64URL) + 'T3BlbkFJ' + g.s(74, B64URL)),
  tok('OpenAI', 'OPENAI_API_KEY', (g) => 'sk-' + g.s(20) + 'T3BlbkFJ' + g.s(20)),
  tok('Anthropic', 'ANTHROPIC_API_KEY', (g) => 'sk-ant-api03-' + g.s(93, B64URL) + 'AA'),
  tok('Anthropic', 'ANTHROPIC_ADMIN_KEY', (g) => 'sk-ant-admin01-' + g.s(93, B64URL) + 'AA'),
  tok('Groq', 'GROQ_API_KEY', (g) => 'gsk_' + g.s(52)),
  tok('xAI', 'XAI_API_KEY', (g) => 'xai-' + g.s(80)),
  tok('Perplexity', 'PPLX_API_KEY', (g) => 'pplx-' + g.s(48)),
  tok('Replicate', 'REPLICATE_API_TOKEN', (g) => 'r8_' + g.s(37)),
  tok('Hugging Face', 'HF_TOKEN', (g) => 'hf_' + g.s(34, UPPER + LOWER)),
  tok('Hugging Face', 'HF_ORG_TOKEN', (g) => 'api_org_' + g.s(34, UPPER + LOWER)),
  tok('LangChain', 'LANGSMITH_API_KEY', (g) => `lsv2_pt_${g.s(32, HEX)}_${g.s(10, HEX)}`),
  tok('Pinecone', 'PINECONE_API_KEY', (g) => `pcsk_${g.s(6)}_${g.s(60)}`),
  tok('Tavily', 'TAVILY_API_KEY', (g) => 'tvly-' + g.s(32)),
  tok('Firecrawl', 'FIRECRAWL_API_KEY', (g) => 'fc-' + g.s(32, HEX)),
  tok('1Password', 'OP_SERVICE_ACCOUNT_TOKEN', (g) => 'ops_eyJ' + g.s(250, ALNUM + '+/')),
  tok('HashiCorp', 'VAULT_TOKEN', (g) => 'hvs.' + g.s(95, B64URL)),
  tok('HashiCorp', 'VAULT_BATCH', (g) => 'hvb.' + g.s(140, B64URL)),
  kw('HashiCorp', 'VAULT_TOKEN', (g) => 's.' + g.s(24)),
  tok('HashiCorp', 'TFE_TOKEN', (g) => `${g.s(14, LOWER + DIGIT)}.atlasv1.${g.s(64, B64URL)}`),
  tok('age', 'AGE_KEY', (g) => 'AGE-SECRET-KEY-1' + g.s(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')),
  tok('Doppler', 'DOPPLER_TOKEN', (g) => 'dp.pt.' + g.s(43)),
  tok('Doppler', 'DOPPLER_SERVICE_TOKEN', (g) => 'dp.st.' + g.s(43)),
  tok('Adobe', 'ADOBE_CLIENT_SECRET', (g) => 'p8e-' + g.s(32)),
  kw('Adobe', 'ADOBE_CLIENT_TOKEN', (g) => g.s(32, HEX)),
  tok('Microsoft', 'TEAMS_WEBHOOK', (g) => `https://acme.webhook.office.com/webhookb2/${g.uuid()}@${g.uuid()}/IncomingWebhook/${g.s(32, HEX)}/${g.uuid()}`),
  tok('Microsoft', 'AZURE_CLIENT_SECRET', (g) => `${g.s(3)}${g.s(1, DIGIT)}Q~${g.s(34, ALNUM + '_~.-')}`),
  tok('Microsoft', 'AZURE_STORAGE', (g) => `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${g.s(86, ALNUM + '+/')}==`),
  tok('Sourcegraph', 'SRC_ACCESS_TOKEN', (g) => 'sgp_' + g.s(16, HEX) + '_' + g.s(40, HEX)),
  tok('Sourcegraph', 'SRC_ACCESS_TOKEN', (g) => 'sgp_' + g.s(40, HEX)),
  tok('HubSpot', 'HUBSPOT_ACCESS_TOKEN', (g) => 'pat-na1-' + g.uuid()),
  kw('HubSpot', 'HUBSPOT_API_KEY', (g) => g.uuid()),
  kw('Snyk', 'SNYK_TOKEN', (g) => g.uuid()),
  kw('Squarespace', 'SQUARESPACE_API_KEY', (g) => g.uuid()),
  kw('Heroku', 'HEROKU_API_KEY', (g) => g.uuid()),
  tok('Heroku', 'HEROKU_API_KEY', (g) => 'HRKU-AA' + g.s(58, B64URL)),
  kw('Railway', 'RAILWAY_TOKEN', (g) => g.uuid()),
  tok('Alibaba', 'ALIBABA_ACCESS_KEY_ID', (g) => 'LTAI' + g.s(20)),
  tok('DigitalOcean', 'DIGITALOCEAN_TOKEN', (g) => 'dop_v1_' + g.s(64, HEX)),
  tok('Cloudflare', 'CF_ORIGIN_CA_KEY', (g) => `v1.0-${g.s(24, HEX)}-${g.s(146, HEX)}`),
  kw('Cloudflare', 'CLOUDFLARE_API_TOKEN', (g) => g.s(40, B64URL)),
  tok('Fly.io', 'FLY_API_TOKEN', (g) => 'fo1_' + g.s(43, B64URL)),
  tok('PlanetScale', 'PLANETSCALE_TOKEN', (g) => 'pscale_tkn_' + g.s(43, B64URL)),
  tok('Supabase', 'SUPABASE_ACCESS_TOKEN', (g) => 'sbp_' + g.s(40, HEX)),
  tok('Netlify', 'NETLIFY_AUTH_TOKEN', (g) => 'nfp_' + g.s(36)),
  tok('Vercel', 'VERCEL_TOKEN', (g) => 'vcp_' + g.s(56)),
  tok('Databricks', 'DATABRICKS_TOKEN', (g) => 'dapi' + g.s(32, HEX)),
  tok('Dynatrace', 'DT_API_TOKEN', (g) => `dt0c01.${g.s(24, UPPER + DIGIT)}.${g.s(64, UPPER + DIGIT)}`),
  tok('New Relic', 'NEW_RELIC_API_KEY', (g) => 'NRAK-' + g.s(27, UPPER + DIGIT)),
  tok('Sentry', 'SENTRY_AUTH_TOKEN', (g) => 'sntryu_' + g.s(64, HEX)),
  tok('Grafana', 'GRAFANA_SA_TOKEN', (g) => `glsa_${g.s(32)}_${g.s(8, HEX)}`),
  tok('Grafana', 'GRAFANA_CLOUD_TOKEN', (g) => 'glc_' + g.s(80, ALNUM + '+/')),
  tok('Docker', 'DOCKERHUB_TOKEN', (g) => 'dckr_pat_' + g.s(27, B64URL)),
  tok('JFrog', 'ARTIFACTORY_API_KEY', (g) => 'AKCp' + g.s(69)),
  tok('npm', 'NPM_TOKEN', (g) => 'npm_' + g.s(36)),
  tok('PyPI', 'TWINE_PASSWORD', (g) => 'pypi-AgEIcHlwaS5vcmc' + g.s(70, B64URL)),
  tok('RubyGems', 'GEM_HOST_API_KEY', (g) => 'rubygems_' + g.s(48, HEX)),
  tok('Clojars', 'CLOJARS_TOKEN', (g) => 'CLOJARS_' + g.s(60, LOWER + DIGIT)),
  tok('Pulumi', 'PULUMI_ACCESS_TOKEN', (g) => 'pul-' + g.s(40, HEX)),
  tok('Atlassian', 'JIRA_API_TOKEN', (g) => 'ATATT3' + g.s(186, B64URL)),
  kw('Atlassian', 'CONFLUENCE_TOKEN', (g) => g.s(24, LOWER + DIGIT)),
  tok('Bitbucket', 'BITBUCKET_APP_PASSWORD', (g) => 'ATBB' + g.s(32)),
  tok('Buildkite', 'BUILDKITE_TOKEN', (g) => 'bkua_' + g.s(40, HEX)),
  tok('CircleCI', 'CIRCLE_TOKEN', (g) => `CCIPAT_${g.s(22)}_${g.s(40, HEX)}`),
  tok('Octopus Deploy', 'OCTOPUS_API_KEY', (g) => 'API-' + g.s(26, UPPER + DIGIT)),
  tok('Postman', 'POSTMAN_API_KEY', (g) => `PMAK-${g.s(24, HEX)}-${g.s(34, HEX)}`),
  tok('Prefect', 'PREFECT_API_KEY', (g) => 'pnu_' + g.s(36)),
  tok('ReadMe', 'README_API_KEY', (g) => 'rdme_' + g.s(70, LOWER + DIGIT)),
  tok('Scalingo', 'SCALINGO_TOKEN', (g) => 'tk-us-' + g.s(48, B64URL)),
  tok('Infracost', 'INFRACOST_API_KEY', (g) => 'ico-' + g.s(32)),
  tok('SendGrid', 'SENDGRID_API_KEY', (g) => `SG.${g.s(22, B64URL)}.${g.s(43, B64URL)}`),
  tok('Brevo', 'BREVO_API_KEY', (g) => `xkeysib-${g.s(64, HEX)}-${g.s(16)}`),
  tok('Mailchimp', 'MAILCHIMP_API_KEY', (g) => `${g.s(32, HEX)}-us${g.s(2, '123456789')}`),
  kw('Mailgun', 'MAILGUN_API_KEY', (g) => 'key-' + g.s(32, HEX)),
  kw('Resend', 'RESEND_API_KEY', (g) => `re_${g.s(8)}_${g.s(24)}`),
  tok('Telegram', 'TELEGRAM_BOT_TOKEN', (g) => `${g.s(10, DIGIT)}:AA${g.s(33, B64URL)}`),
  tok('Discord', 'DISCORD_WEBHOOK', (g) => `https://discord.com/api/webhooks/${g.s(19, DIGIT)}/${g.s(68, B64URL)}`),
  kw('Discord', 'DISCORD_CLIENT_SECRET', (g) => g.s(32, B64URL)),
  kw('Twilio', 'TWILIO_AUTH_TOKEN', (g) => g.s(32, HEX)),
  tok('Twilio', 'TWILIO_API_KEY', (g) => 'SK' + g.s(32, HEX)),
  tok('Square', 'SQUARE_ACCESS_TOKEN', (g) => 'EAAA' + g.s(60, B64URL)),
  tok('Square', 'SQUARE_OAUTH_SECRET', (g) => 'sq0csp-' + g.s(43, B64URL)),
  tok('Shopify', 'SHOPIFY_ACCESS_TOKEN', (g) => 'shpat_' + g.s(32, HEX)),
  tok('Shopify', 'SHOPIFY_SHARED_SECRET', (g) => 'shpss_' + g.s(32, HEX)),
  tok('Shippo', 'SHIPPO_TOKEN', (g) => 'shippo_live_' + g.s(40, HEX)),
  tok('Duffel', 'DUFFEL_TOKEN', (g) => 'duffel_test_' + g.s(43, B64URL)),
  tok('EasyPost', 'EASYPOST_API_KEY', (g) => 'EZAK' + g.s(54)),
  tok('Flutterwave', 'FLW_SECRET_KEY', (g) => `FLWSECK_TEST-${g.s(32, 'abcdefgh0123456789')}-X`),
  tok('Facebook', 'FB_PAGE_TOKEN', (g) => 'EAAC' + g.s(120)),
  kw('Facebook', 'FACEBOOK_APP_SECRET', (g) => g.s(32, HEX)),
  tok('Linear', 'LINEAR_API_KEY', (g) => 'lin_api_' + g.s(40)),
  tok('Notion', 'NOTION_TOKEN', (g) => 'ntn_' + g.s(11, DIGIT) + g.s(35)),
  tok('Figma', 'FIGMA_TOKEN', (g) => 'figd_' + g.s(40, B64URL)),
  tok('Contentful', 'CONTENTFUL_MANAGEMENT_TOKEN', (g) => 'CFPAT-' + g.s(43, B64URL)),
  tok('Typeform', 'TYPEFORM_TOKEN', (g) => 'tfp_' + g.s(59, B64URL)),
  kw('Frame.io', 'FRAMEIO_TOKEN', (g) => 'fio-u-' + g.s(64, B64URL)),
  tok('MaxMind', 'MAXMIND_LICENSE_KEY', (g) => `${g.s(6)}_${g.s(29)}_mmk`),
  tok('SettleMint', 'SETTLEMINT_TOKEN', (g) => 'sm_pat_' + g.s(16)),
  tok('OpenShift', 'OC_TOKEN', (g) => 'sha256~' + g.s(43, B64URL)),
  tok('Defined Networking', 'DN_API_KEY', (g) => `dnkey-${g.s(26, B64URL)}-${g.s(52, B64URL)}`),
  tok('ClickHouse', 'CLICKHOUSE_SECRET', (g) => '4b1d' + g.s(38)),
  tok('Intra42', 'INTRA_SECRET', (g) => 's-s4t2ud-' + g.s(64, HEX)),
  kw('Airtable', 'AIRTABLE_TOKEN', (g) => `pat${g.s(14)}.${g.s(64, HEX)}`),
  tok('Mapbox', 'MAPBOX_SECRET_TOKEN', (g) => `sk.eyJ${g.s(70, B64URL)}.${g.s(22, B64URL)}`),
  tok('NuGet', 'NUGET_API_KEY', (g) => 'oy2' + g.s(43, LOWER + DIGIT)),
  kw('Algolia', 'ALGOLIA_ADMIN_KEY', (g) => g.s(32, HEX)),
  kw('Datadog', 'DATADOG_API_KEY', (g) => g.s(32, HEX)),
  kw('Okta', 'OKTA_API_TOKEN', (g) => '00' + g.s(40, B64URL)),
  kw('Sumo Logic', 'SUMO_ACCESS_KEY', (g) => g.s(64)),
  kw('Zendesk', 'ZENDESK_API_TOKEN', (g) => g.s(40)),
  kw('Twitter', 'TWITTER_API_SECRET', (g) => g.s(50)),
  kw('Twitch', 'TWITCH_CLIENT_SECRET', (g) => g.s(30, LOWER + DIGIT)),
  kw('Plaid', 'PLAID_SECRET', (g) => g.s(30, LOWER + DIGIT)),
  kw('Coinbase', 'COINBASE_API_SECRET', (g) => g.s(64, B64URL)),
  kw('LaunchDarkly', 'LAUNCHDARKLY_SDK_KEY', (g) => 'sdk-' + g.uuid()),
  kw('Postmark', 'POSTMARK_SERVER_TOKEN', (g) => g.uuid()),
  kw('Yandex', 'YANDEX_API_KEY', (g) => 'AQVN' + g.s(36, B64URL)),
  kw('Mistral', 'MISTRAL_API_KEY', (g) => g.s(32)),
  kw('Cohere', 'COHERE_API_KEY', (g) => g.s(40)),
  kw('ElevenLabs', 'ELEVENLABS_API_KEY', (g) => 'sk_' + g.s(48, HEX)),
  kw('Intercom', 'INTERCOM_ACCESS_TOKEN', (g) => g.s(60, B64URL)),
  kw('Sendbird', 'SENDBIRD_API_TOKEN', (g) => g.s(40, HEX)),
  kw('Generic', 'API_KEY', (g) => g.uuid()),
  kw('Generic', 'DB_PASSWORD', (g) => g.s(10) + '!' + g.s(5, DIGIT)),
  kw('Generic', 'SESSION_SECRET', (g) => g.s(48, ALNUM + '+/')),
  kw('Generic', 'client_secret', (g) => g.s(40, B64URL)),
  kw('Generic', 'x-api-key', (g) => g.s(32)),
  // Issue 15: the held-out scanner suite missed these formats and contexts.
  tok('age', 'SOPS_AGE_KEY', (g) => 'age-secret-key-1' + g.s(58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')),
  ctx('Snyk', (g) => g.uuid(), (v) => `snyk auth ${v}`),
  ctx('Snyk', (g) => g.uuid(), (v) => `snyk config set api=${v}`),
  tok('SonarQube', 'SONAR_TOKEN', (g) => 'squ_' + g.s(40, HEX)),
  tok('SonarQube', 'SONAR_PROJECT_TOKEN', (g) => 'sqp_' + g.s(40, HEX)),
  ctx('SonarQube', (g) => 'sqa_' + g.s(40, HEX), (v) => `mvn sonar:sonar -Dsonar.login=${v}`),
  ctx('SonarQube', (g) => g.s(40, HEX), (v) => `sonar.login=${v}`),
  tok('Anthropic', 'ANTHROPIC_ADMIN_KEY', (g) => 'sk-ant-admin01-' + g.s(93, B64URL) + 'AA'),
  tok('Anthropic', 'CLAUDE_KEY', (g) => 'sk-ant-api03-' + g.s(64, B64URL)),
  ctx('Anthropic', (g) => 'sk-ant-api03-' + g.s(93, B64URL) + 'AA', (v) => `curl https://api.anthropic.com/v1/messages -H "x-api-key: ${v}" -H "anthropic-version: 2023-06-01"`),
  ctx('Generic', (g) => g.s(40, HEX), (v) => `curl -u ${v}: https://sonarcloud.io/api/projects/search`),
  ctx('Generic', (g) => g.s(12) + '-' + g.s(6), (v) => `curl --user "deploy:${v}" https://registry.example.com/v2/_catalog`),
  ctx('Generic', (g) => g.s(32), (v) => `curl -H 'X-Api-Key: ${v}' https://api.example.com/v1/items`),
  ctx('Generic', (g) => g.s(20, B64URL), (v) => `curl --header "PRIVATE-TOKEN: ${v}" https://gitlab.example.com/api/v4/projects`),
  ctx('Generic', (g) => Buffer.from(`ci:${g.s(16)}`).toString('base64'), (v) => `curl -H "Authorization: Basic ${v}" https://jenkins.example.com/api/json`),
  ctx('Sidekiq', (g) => `${g.s(8, HEX)}:${g.s(8, HEX)}`, (v) => `BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${v}`),
  ctx('Sidekiq', (g) => `${g.s(8, HEX)}:${g.s(8, HEX)}`, (v) => `bundle config --local enterprise.contribsys.com ${v}`),
  ctx('Sidekiq', (g) => `${g.s(8, HEX)}:${g.s(8, HEX)}`, (v) => `source "https://${v}@gems.contribsys.com/" do`),
  kw('Sumo Logic', 'SUMOLOGIC_ACCESS_KEY', (g) => g.s(64)),
  tok('Facebook', 'FB_PAGE_TOKEN', (g) => 'EAAB' + g.s(160)),
  kw('Facebook', 'FACEBOOK_APP_SECRET', (g) => g.s(32, HEX)),
];

interface Lookalike {
  why: string;
  text: string;
}

/** Documentation values, stand-ins, ids and hashes: none of them is a credential. */
function lookalikes(): Lookalike[] {
  const g = gen(4242);
  const l = (why: string, text: string): Lookalike => ({ why, text });
  return [
    l('Slack placeholder', 'SLACK_BOT_TOKEN=xoxb-my-bot-token'),
    l('Slack placeholder', 'export SLACK_TOKEN="xoxb-your-token"'),
    l('Slack placeholder (docs)', 'token: xoxb-your-bot-token-here'),
    l('Slack placeholder (dashes)', 'SLACK_APP_TOKEN=xapp-your-app-level-token'),
    l('ellipsis key', 'OPENAI_API_KEY=sk-...'),
    l('ellipsis key, middle', 'Your key looks like sk-proj-abc...xyz'),
    l('angle placeholder', 'OPENAI_API_KEY=<YOUR_API_KEY>'),
    l('angle placeholder', 'curl -H "Authorization: Bearer <token>" https://api.example.com'),
    l('env reference', 'API_KEY=${API_KEY}'),
    l('env reference', 'export GITHUB_TOKEN=$TOKEN'),
    l('env reference in curl', 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user'),
    l('shell substitution', 'export GITHUB_TOKEN=$(gh auth token)'),
    l('Actions secret', 'password: ${{ secrets.DB_PASSWORD }}'),
    l('template', 'api_key: "{{ vault_api_key }}"'),
    l('process.env', 'const apiKey = process.env.OPENAI_API_KEY;'),
    l('os.environ', 'token = os.environ["GITHUB_TOKEN"]'),
    l('function call', 'const token = await getAccessToken(session);'),
    l('property chain', 'secret = config.auth.clientSecret'),
    l('changeme', 'password: changeme'),
    l('default password', 'POSTGRES_PASSWORD=postgres'),
    l('example word', 'api_key = "example-api-key-value"'),
    l('AWS docs key', 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE'),
    l('AWS docs secret', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'),
    l('repeated chars', 'GITHUB_TOKEN=ghp_' + 'x'.repeat(36)),
    l('repeated chars', 'STRIPE_KEY=sk_live_' + '0'.repeat(24)),
    l('xxxx', 'SECRET_KEY=xxxxxxxxxxxxxxxxxxxxxxxx'),
    l('stars', 'password: ************'),
    l('sequence', 'API_TOKEN=1234567890abcdef1234567890'),
    l('alphabet', 'AIzaSyabcdefghijklmnopqrstuvwxyz1234567'),
    l('Firebase web config', `const firebaseConfig = {\n  apiKey: "AIza${g.s(35, B64URL)}",\n  authDomain: "demo-app.firebaseapp.com",\n  projectId: "demo-app",\n  messagingSenderId: "${g.s(12, DIGIT)}",\n};`),
    l('image URL with xoxo', '![hugs](https://cdn.example.com/images/xoxo-hugs-and-kisses-2019.png)'),
    l('image URL with xoxo', '<img src="https://shop.example.com/assets/xoxo-collection/banner-1200x630.jpg">'),
    l('presigned URL', `https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA${g.s(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${g.s(64, HEX)}`),
    l('presigned URL (v2)', `https://bucket.s3.amazonaws.com/a.png?AWSAccessKeyId=AKIA${g.s(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}&Expires=1767225600&Signature=${g.s(28)}%3D`),
    l('request id UUID', `request_id: ${g.uuid()}`),
    l('trace UUID', `{"traceId":"${g.uuid()}","spanId":"${g.s(16, HEX)}"}`),
    l('session UUID', `Resuming session ${g.uuid()}`),
    l('tool use id', `{"tool_use_id":"toolu_${g.s(24)}","type":"tool_result"}`),
    l('git SHA', `commit ${g.s(40, HEX)}\nAuthor: Dev <dev@example.com>`),
    l('git SHA in merge', `Merge: ${g.s(7, HEX)} ${g.s(7, HEX)}`),
    l('integrity hash', `"integrity": "sha512-${g.s(86, ALNUM + '+/')}=="`),
    l('docker digest', `image: node@sha256:${g.s(64, HEX)}`),
    l('lockfile resolved', `resolved "https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#${g.s(40, HEX)}"`),
    l('base64 text', 'token: SGVsbG8gd29ybGQsIHRoaXMgaXMgYSBsb25nIHNlbnRlbmNl'),
    l('max tokens', 'max_tokens: 4096'),
    l('token type', 'token_type: bearer'),
    l('token usage', '{"input_tokens":12345,"output_tokens":678,"cache_read_input_tokens":90123}'),
    l('secret name', 'secret_name: prod-database-credentials'),
    l('secret ref', 'secretKeyRef:\n  name: api-credentials\n  key: api-key'),
    l('password field', 'password_field: "user_password_input"'),
    l('password policy', 'password_min_length: 12'),
    l('key path', 'SSH_KEY_PATH=/home/dev/.ssh/id_ed25519'),
    l('key file', 'GOOGLE_APPLICATION_CREDENTIALS=/secrets/service-account.json'),
    l('public key', 'public_key: "pk_live_51HxYz"'),
    l('publishable key', `NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_test_${g.s(24)}`),
    l('cache key', `cache_key: "deps-${g.s(40, HEX)}"`),
    l('idempotency key', `Idempotency-Key: ${g.uuid()}`),
    l('primary key', 'primary_key: user_id'),
    l('keyboard', 'keyboard_layout: us-intl'),
    l('tokenizer', 'tokenizer: cl100k_base'),
    l('pagination token', `next_page_token: ${g.s(40)}`),
    l('csrf token', `csrf_token: ${g.s(32)}`),
    l('css colour', 'color: #a3f9c1; background: #ffffff;'),
    l('version', 'API_VERSION=2024-10-01'),
    l('url without credentials', 'DATABASE_URL=postgres://localhost:5432/app_dev'),
    l('url with default password', 'DATABASE_URL=postgres://postgres:postgres@localhost:5432/app'),
    l('url with placeholder', 'mongodb://user:<password>@cluster0.mongodb.net/test'),
    l('token word in prose', 'The token is stored in the keychain; rotate the secret monthly.'),
    l('key in prose', 'Press the key combination Ctrl+Shift+P to open the palette.'),
    l('function parameter', 'function login(username: string, password: string): Promise<Session> {'),
    l('type annotation', 'apiKey?: string;'),
    l('hex colour list', `palette: ["${g.s(6, HEX)}", "${g.s(6, HEX)}", "${g.s(6, HEX)}"]`),
    l('UUID in path', `GET /api/v1/orders/${g.uuid()}/items`),
    l('npm package', 'npm install @auth/core@0.34.2 jsonwebtoken@9.0.2'),
    l('sha256 checksum', `${g.s(64, HEX)}  node-v20.11.0-linux-x64.tar.xz`),
    l('JWT placeholder', 'Authorization: Bearer eyJhbGciOi...'),
    l('Stripe docs placeholder', 'STRIPE_SECRET_KEY=sk_test_your_secret_key_here'),
    l('GitHub docs placeholder', 'GH_TOKEN=ghp_YOUR_TOKEN_HERE'),
    l('GitLab placeholder', 'GITLAB_TOKEN=glpat-<your-token>'),
    l('jwt.io sample', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'),
    l('k8s secret name', 'kubectl create secret generic db-credentials --from-literal=username=app'),
    l('word password', 'password: correcthorsebatterystaple'),
    l('ssh host key fingerprint', `ED25519 key fingerprint is SHA256:${g.s(43, ALNUM + '+/')}.`),
    l('ruby secret_key_base reference', 'secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>'),
    // Issue 15, classes 1 and 2: identifiers and template syntax.
    l('style key (40 hex) in tool JSON', `{"styles":[{"key":"${g.s(40, HEX)}","name":"Heading/H1","style_type":"TEXT"}]}`),
    l('component key', `"componentKey": "${g.s(40, HEX)}"`),
    l('design file key', `{"file_key": "${g.s(22)}", "node_id": "12:34"}`),
    l('cache key', `cache_key=${g.s(32, HEX)}`),
    l('etag', `ETag: W/"${g.s(32, HEX)}"`),
    l('nonce', `"nonce": "${g.s(24, B64URL)}"`),
    l('content digest', `"digest": "sha256:${g.s(64, HEX)}"`),
    l('token hash column', `token_hash: ${g.s(64, HEX)}`),
    l('compose default', 'POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}'),
    l('compose required variable', '- API_TOKEN=${API_TOKEN:?API_TOKEN must be set}'),
    l('empty assignment then next line', `DB_PASSWORD=
DB_HOST=db-${g.s(12, LOWER + DIGIT)}.internal`),
    l('empty shell assignment', `API_TOKEN= ./scripts/run-${g.s(12, LOWER + DIGIT)}.sh`),
    l('local demo database', 'MONGO_URL=mongodb://admin:admin123@localhost:27017/app'),
    l('local demo database (postgres)', 'DATABASE_URL=postgresql://app:postgres@127.0.0.1:5432/app_dev'),
    l('Snyk org id', `snyk test --org=${g.uuid()}`),
    l('Sonar project key', 'sonar.projectKey=acme_payments-service'),
    l('Sidekiq docs', 'source "https://gems.contribsys.com/" do'),
    l('curl with variable credentials', 'curl -u "$SONAR_TOKEN:" https://sonarcloud.io/api/projects/search'),
    l('Sumo Logic access id (an identifier, like an AWS key id without its secret)', `SUMO_ACCESS_ID=su${g.s(12)}`),
  ];
}

const SECRET_RULES = new Set(['secrets/in-prompt', 'secrets/in-tool-input', 'secrets/in-tool-output']);

function flagged(drafts: FindingDraft[]): FindingDraft[] {
  return drafts.filter((d) => SECRET_RULES.has(d.rule) && d.severity !== 'info');
}

function leaks(drafts: FindingDraft[], value: string): boolean {
  return drafts.some((d) => [d.title ?? '', d.detail, ...d.evidence.map((e) => e.excerpt)].some((t) => t.includes(value)));
}

type Position = 'prompt' | 'command' | 'written' | 'printed';

/** The events that put `text` (which holds a credential or a look-alike) in each position. */
function eventsFor(position: Position, text: string, i: number) {
  switch (position) {
    case 'prompt':
      return [prompt(`Deploy the service with this configuration:\n${text}`)];
    case 'command':
      return [cmd(`${text.includes('\n') ? `cat > /tmp/deploy.env <<'EOF'\n${text}\nEOF` : /^(?:curl|snyk|bundle|mvn) /.test(text) ? text : `echo '${text.replace(/'/g, '')}' >> .env.production`}`)];
    case 'written':
      return [write(i % 2 === 0 ? 'config/production.env' : 'src/settings.ts', i % 2 === 0 ? `${text}\n` : `// service settings\n${text}\n`)];
    case 'printed':
      return ran(i % 2 === 0 ? 'cat config/app.yml' : 'kubectl get configmap app -o yaml', { output: `# app settings\n${text}\nlog_level: info\n` });
  }
}

/** How the credential appears: assigned to its name, or bare (a `… token` command's output). */
function positiveText(p: Positive, value: string, position: Position, i: number): string {
  if (p.text) return p.text(value);
  if (p.bare && position === 'printed' && i % 3 === 0) return value;
  if (p.bare && position === 'prompt' && i % 3 === 1) return `use ${value} for the deploy`;
  const forms = [`${p.name}=${value}`, `${p.name.toLowerCase()}: "${value}"`, `"${p.name}": "${value}",`, `export ${p.name}='${value}'`];
  return forms[i % forms.length];
}

interface Outcome {
  position: Position;
  label: string;
  flagged: boolean;
}

async function runPositives(): Promise<{ outcomes: Outcome[]; leaked: string[] }> {
  const outcomes: Outcome[] = [];
  const leaked: string[] = [];
  for (const [i, p] of POSITIVES.entries()) {
    const value = p.make(gen(i + 1));
    for (const position of ['prompt', 'command', 'written', 'printed'] as Position[]) {
      const drafts = await runRules(eventsFor(position, positiveText(p, value, position, i), i));
      outcomes.push({ position, label: `${p.provider} ${p.name} (${position})`, flagged: flagged(drafts).length > 0 });
      if (leaks(drafts, value)) leaked.push(`${p.provider} ${p.name} (${position})`);
    }
  }
  return { outcomes, leaked };
}

function rate(outcomes: Outcome[], positions: Position[]): { rate: number; missed: string[] } {
  const chosen = outcomes.filter((o) => positions.includes(o.position));
  const missed = chosen.filter((o) => !o.flagged).map((o) => o.label);
  return { rate: 1 - missed.length / chosen.length, missed };
}

describe('secrets suite: labelled credentials and look-alikes', () => {
  it('the table is broad: at least 150 credentials of at least 60 providers, and 80 look-alikes', () => {
    assert.ok(POSITIVES.length >= 150, `${POSITIVES.length} credentials`);
    const providers = new Set(POSITIVES.map((p) => p.provider).filter((p) => p !== 'Generic'));
    assert.ok(providers.size >= 60, `${providers.size} providers`);
    assert.ok(lookalikes().length >= 80, `${lookalikes().length} look-alikes`);
  });

  it('credentials are flagged in ≥ 95 % of prompts, commands and written files, ≥ 90 % when printed, and never repeated raw', async () => {
    const { outcomes, leaked } = await runPositives();
    const input = rate(outcomes, ['prompt', 'command', 'written']);
    const printed = rate(outcomes, ['printed']);
    if (process.env.VOUCH_SUITE_VERBOSE) console.log({ input: input.rate, printed: printed.rate, missed: [...input.missed, ...printed.missed] });
    assert.ok(input.rate >= 0.95, `written/typed: ${(input.rate * 100).toFixed(1)} %, missed: ${input.missed.join('; ')}`);
    assert.ok(printed.rate >= 0.9, `printed: ${(printed.rate * 100).toFixed(1)} %, missed: ${printed.missed.join('; ')}`);
    assert.deepEqual(leaked, [], 'a finding repeated a detected credential unmasked');
  });

  it('look-alikes raise a secret finding in ≤ 3 % of written files and outputs', async () => {
    const all = lookalikes();
    const alarms: string[] = [];
    for (const [i, l] of all.entries()) {
      for (const position of ['written', 'printed', 'prompt'] as Position[]) {
        const drafts = flagged(await runRules(eventsFor(position, l.text, i)));
        if (drafts.length > 0) alarms.push(`${l.why} (${position}): ${drafts[0].detail}`);
      }
    }
    if (process.env.VOUCH_SUITE_VERBOSE) console.log({ lookalikes: all.length * 3, alarms });
    assert.ok(alarms.length <= Math.floor(all.length * 3 * 0.03), `${alarms.length} false alarms:\n${alarms.join('\n')}`);
  });
});
