/**
 * npm run studio:dev: the Studio's development server (`sanity dev`, http://localhost:3333).
 * With no Sanity project of its own (SANITY_STUDIO_PROJECT_ID unset: the embedded world) it talks
 * to the local Content Lake of the site running on this machine (`npm start`, which starts it;
 * the lake listens on the site's port + 443, or LAKE_PORT), and an editor signs in through the
 * site's /studio/sign-in, which sends them back here. SANITY_STUDIO_API_HOST, when set, wins.
 */
import { spawn } from 'node:child_process';

const env = { ...process.env };
if (!env.SANITY_STUDIO_PROJECT_ID && !env.SANITY_STUDIO_API_HOST) {
  const lakePort = Number(env.LAKE_PORT ?? Number(env.PORT ?? 3000) + 443);
  env.SANITY_STUDIO_API_HOST = `https://localhost:${lakePort}`;
  console.log(`studio:dev: the local Content Lake at ${env.SANITY_STUDIO_API_HOST} (start the site first: npm start)`);
}
const child = spawn('npx', ['sanity', 'dev', ...process.argv.slice(2)], { cwd: 'studio', env, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
