// Runs the client portal's jobs once (renewals and scheduled changes of the embedded billing
// engine, the 7-day renewal reminders, queued emails, clean-up): `npm run jobs`, for cron.
// The running server does the work (it owns the embedded store); this asks it to, proving it
// holds the signing secret. The server also runs them itself every PORTAL_JOBS_INTERVAL_SECONDS.
//   PORTAL_URL   the server (default http://127.0.0.1:$PORT, PORT default 3000)
//   SESSION_SECRET, or the embedded world's {CONTENT_DATA_DIR}/session-secret
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const secret =
  process.env.SESSION_SECRET?.trim() ||
  readFileSync(path.join(process.env.CONTENT_DATA_DIR || 'data', 'session-secret'), 'utf8').trim();
const token = createHmac('sha256', secret).update('portal-jobs\nrun').digest('base64url');
const base = process.env.PORTAL_URL || `http://127.0.0.1:${process.env.PORT || 3000}`;
const res = await fetch(`${base}/api/portal/jobs`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${token}` },
  signal: AbortSignal.timeout(120_000),
});
if (!res.ok) {
  console.error(`portal jobs: ${res.status} ${await res.text()}`);
  process.exit(1);
}
console.log(JSON.stringify(await res.json()));
