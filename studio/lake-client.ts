import { createClient, type ClientConfig, type SanityClient } from '@sanity/client';

/**
 * The Studio's API clients for the local Content Lake (app/lake/): `apiHost` as given, with no
 * project id put in front of its host name (`useProjectHostname: false`, the project named in a
 * header instead). That lets the lake answer on the site's own origin, under a path
 * (`https://www.example.com/studio/api`), behind the site's HTTPS front and certificate: a host
 * name such as `placeholder.www.example.com` would need DNS and a certificate of its own.
 * Given to the workspace as `unstable_clientFactory` (Sanity 4.22 and 5.x: the auth store makes
 * every client of the workspace with it).
 */
export function lakeClientFactory(options: ClientConfig): SanityClient {
  return createClient({ ...options, useProjectHostname: false });
}
