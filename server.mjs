// The site's production server: `npm start` (node server.mjs build/index.js). The server itself
// is TypeScript, server/index.ts, which Remix compiles with the app into the server build
// (remix.config.js `server`); this file only loads the build named on the command line (so
// `BUILD_NAME` builds and the tests' servers start the same way) and starts it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// `npm run dev` (remix dev, which names its own address in REMIX_DEV_ORIGIN) runs this file on
// the development build: development, with the log written for a person to read.
process.env.NODE_ENV = process.env.NODE_ENV ?? (process.env.REMIX_DEV_ORIGIN ? 'development' : 'production');
// The server's log lines go to standard output (app/lib/log.server.ts; commands write theirs to standard error).
process.env.LOG_DESTINATION ??= 'stdout';
const { start } = await import(pathToFileURL(path.resolve(process.argv[2] ?? 'build/index.js')).href);
await start();
