import { detectSecrets } from '../src/domain/secrets/detect.ts';
const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6Inh5emFiY2RlZmdoaWprbG1ub3AiLCJyb2xlIjoic2VydmljZV9yb2xlIiwiaWF0IjoxNzAwMDAwMDAwLCJleHAiOjIwMTU1NzYwMDB9.Qm9ndXNTaWduYXR1cmVWYWx1ZUZvclByb2JlMTIzNDU2Nzg5MA';
for (const t of [`SUPABASE_SERVICE_ROLE_KEY=${jwt}`, jwt, `Authorization: Bearer ${jwt}`]) console.log(JSON.stringify((await detectSecrets(t, {})).map(h => [h.ruleId, h.label, h.confidence])));
