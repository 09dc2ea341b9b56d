import type * as SentrySdk from '@sentry/remix';
import { scrub, scrubText } from './log.server';

/**
 * Errors reported to Sentry when SENTRY_DSN is set (issue 44, item 5), under the logs' rule: no
 * email address, name, code, token, cookie or IP in what leaves the server. Of the SDK's
 * integrations only those that shape an error are kept (KEEP): none that records requests,
 * console lines, local variables, source lines or traces, or instruments libraries. The server
 * reports what it logs as `request.error`, and each event goes through `scrubEvent` (the same scrub
 * as the log lines) before it is sent.
 */
const KEEP = new Set(['InboundFilters', 'FunctionToString', 'LinkedErrors', 'NodeSystemError', 'Context']);
/** The SDK, loaded only when SENTRY_DSN is set: a site without it never loads its instrumentation. */
let Sentry: typeof SentrySdk | null = null;

export async function startErrorReporting(dsn: string | undefined): Promise<boolean> {
  if (!dsn || Sentry) return Sentry !== null;
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    throw new Error('SENTRY_DSN is not a URL: copy the DSN from the Sentry project settings (https://<key>@…/<id>)');
  }
  if (!/^https?:$/.test(url.protocol) || !url.username || !/\/\d+$/.test(url.pathname))
    throw new Error('SENTRY_DSN is not a Sentry DSN (https://<key>@<host>/<project id>)');
  const sdk = await import('@sentry/remix');
  sdk.init({
    dsn,
    environment: process.env.SENTRY_ENVIRONMENT || process.env.NODE_ENV || 'production',
    sendDefaultPii: false,
    integrations: (defaults) => defaults.filter((integration) => KEEP.has(integration.name)),
    tracesSampleRate: 0,
    maxBreadcrumbs: 0,
    beforeSend: scrubEvent,
  });
  Sentry = sdk;
  return true;
}

/** Reports a failure (a no-op without SENTRY_DSN). */
export function reportError(error: unknown, where: { method?: string; route?: string } = {}): void {
  const sdk = Sentry;
  if (!sdk) return;
  sdk.withScope((scope) => {
    if (where.method) scope.setTag('method', where.method);
    if (where.route) scope.setTag('route', scrubText(where.route));
    sdk.captureException(error);
  });
}

/** Sends what is queued, within `timeoutMs` (shutdown). */
export async function flushErrors(timeoutMs = 2_000): Promise<void> {
  if (Sentry) await Sentry.flush(timeoutMs);
}

/**
 * An event as it may leave the server: no user, no request headers, cookies, query or body, no
 * server name; messages, exception values and extra data scrubbed as log lines are.
 */
export function scrubEvent<E extends SentrySdk.ErrorEvent>(event: E): E {
  delete event.user;
  delete event.server_name;
  delete event.breadcrumbs;
  if (event.request) {
    const path = event.request.url ? scrubText(event.request.url.replace(/^[a-z]+:\/\/[^/]+/i, '')) : undefined;
    event.request = { method: event.request.method, url: path };
  }
  if (event.message) event.message = scrubText(event.message);
  for (const value of event.exception?.values ?? []) {
    if (value.value) value.value = scrubText(value.value);
    for (const frame of value.stacktrace?.frames ?? []) {
      delete frame.vars;
      delete frame.pre_context;
      delete frame.context_line;
      delete frame.post_context;
    }
  }
  if (event.extra) event.extra = scrub(event.extra) as E['extra'];
  return event;
}
