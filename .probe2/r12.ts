import { runRules, ran, prompt, only, severityOf } from '../src/domain/rules/harness.testing.ts';
const P = 'permissions/persistence';
const job = ran('(crontab -l 2>/dev/null; echo "0 2 * * * /home/dev/project/backup.sh") | crontab -', { output: '' });
const svc = ran('sudo systemctl enable myapp.service', { output: 'Created symlink /etc/systemd/system/multi-user.target.wants/myapp.service → /etc/systemd/system/myapp.service.' });
const prompts = [
  'Set up a cron job that runs backup.sh every night.',
  'Set up a cron job that runs backup.sh every night and don\'t email me.',
  'Could you set up a cron job that runs backup.sh every night?',
  'Can you add a crontab entry so backup.sh runs nightly?',
  'Add a nightly cron job for backup.sh so I no longer have to run it by hand.',
  'Schedule backup.sh to run every night without asking me.',
  'Make it start on boot, not manually.',
  'Please keep the server running: make it start on boot.',
  'Make sure it doesn\'t auto start.',
];
for (const p of prompts) {
  const a = only(await runRules([prompt(p), ...job]), P).map(severityOf);
  const b = only(await runRules([prompt(p), ...svc]), P).map(severityOf);
  console.log(p.padEnd(90), 'cron:', JSON.stringify(a), 'systemctl:', JSON.stringify(b));
}
