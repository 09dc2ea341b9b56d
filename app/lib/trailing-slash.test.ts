import { describe, expect, it } from 'vitest';
import { onSiteLocation } from './return-path';
import { trailingSlashTarget } from './trailing-slash';

describe('trailing slash', () => {
  it('sends a slash path to the bare one, query kept, in both languages, portal included', () => {
    expect(trailingSlashTarget('/about/')).toBe('/about');
    expect(trailingSlashTarget('/pricing/?plan=business&utm_source=x')).toBe('/pricing?plan=business&utm_source=x');
    expect(trailingSlashTarget('/blog/uae-vat-registration-guide/')).toBe('/blog/uae-vat-registration-guide');
    expect(trailingSlashTarget('/ar/')).toBe('/ar');
    expect(trailingSlashTarget('/ar/?x=1')).toBe('/ar?x=1');
    expect(trailingSlashTarget('/ar/about/')).toBe('/ar/about');
    expect(trailingSlashTarget('/account/')).toBe('/account');
    expect(trailingSlashTarget('/ar/account/subscription/?tab=invoices')).toBe('/ar/account/subscription?tab=invoices');
    expect(trailingSlashTarget('/about//')).toBe('/about');
    expect(trailingSlashTarget('/about/?')).toBe('/about');
  });

  it('leaves bare paths and the home page alone', () => {
    for (const path of ['/', '/?x=1', '/about', '/ar', '/ar/account?x=/', '/sitemap.xml', '/about.data'])
      expect(trailingSlashTarget(path), path).toBeNull();
  });

  it('keeps the slash where the spec names it: the booking confirmation, and /contact/ (its own redirect)', () => {
    for (const path of [
      '/booking-confirmation/',
      '/ar/booking-confirmation/?event_type_uuid=x',
      '/contact/',
      '/ar/contact/',
      '/bookingconfirmation/',
      '/booking_confirmation/',
    ])
      expect(trailingSlashTarget(path), path).toBeNull();
    // A confirmation with its id is not named with a slash: one URL again.
    expect(trailingSlashTarget('/booking-confirmation/abc123/')).toBe('/booking-confirmation/abc123');
  });

  it('never sends a visitor to another host', () => {
    const attacks = [
      '//evil.example/',
      '//evil.example/?next=/',
      '///evil.example/',
      '/\\evil.example/',
      '\\\\evil.example/',
      '/\\/evil.example/x/',
      '/.//evil.example/',
      '/%2F%2Fevil.example/',
    ];
    for (const path of attacks) {
      const target = trailingSlashTarget(path);
      expect(target, path).not.toBeNull();
      // As a browser resolves it against this site: still this site.
      expect(new URL(target!, 'https://site.example').origin, path).toBe('https://site.example');
      expect(onSiteLocation(target!), path).toBe(target);
    }
    expect(trailingSlashTarget('//evil.example/')).toBe('/evil.example');
  });

  it('resolves dot segments as a browser would, so the target does not come back with a slash', () => {
    expect(trailingSlashTarget('/about/./')).toBe('/about');
    expect(trailingSlashTarget('/about/.')).toBe('/about');
    expect(trailingSlashTarget('/blog/../pricing/')).toBe('/pricing');
    for (const path of ['/about/', '/ar/', '/x/./', '//evil.example/']) {
      const target = trailingSlashTarget(path)!;
      expect(trailingSlashTarget(target), target).toBeNull();
    }
  });
});
