import { describe, expect, it } from 'vitest';
import { lakeOnSite } from './start.server';

describe("where the lake's API is answered (issue 39 item 5)", () => {
  it("on a public HTTPS site: the site's own origin; on loopback or plain HTTP, or with LAKE_API=port: its own port", () => {
    expect(lakeOnSite('https://www.example.com', undefined)).toBe(true);
    expect(lakeOnSite('https://www.example.com', 'port')).toBe(false);
    // A fresh clone: plain HTTP on loopback (HTTP/2 needs TLS, which the site does not speak itself).
    expect(lakeOnSite('http://localhost:3000', undefined)).toBe(false);
    expect(lakeOnSite('https://localhost:3000', undefined)).toBe(false);
    expect(lakeOnSite('https://studio.localhost', undefined)).toBe(false);
    expect(lakeOnSite('http://www.example.com', undefined)).toBe(false);
  });
});
