// Turns on Single Fetch's types for loaders and actions (future.v3_singleFetch in remix.config.js).
import '@remix-run/node';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}
