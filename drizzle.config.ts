import { defineConfig } from 'drizzle-kit';

// `npm run db:generate`: writes the next SQL migration for a change to app/db/schema.server.ts
// into app/db/migrations/ (offline: it compares the schema with the last snapshot there).
export default defineConfig({
  dialect: 'postgresql',
  schema: './app/db/schema.server.ts',
  out: './app/db/migrations',
});
