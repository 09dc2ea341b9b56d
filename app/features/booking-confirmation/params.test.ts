import { describe, expect, it } from 'vitest';
import { hasSummary, MAX_RAW_LENGTH, parseBookingParams } from './params';

const parse = (query: string, pathId?: string) => parseBookingParams(new URLSearchParams(query), pathId);

describe('booking confirmation parameters', () => {
  it('reads what the scheduling service sends', () => {
    const details = parse(
      'event_type_uuid=ETU-123&event_type_name=30+Minute+Consultation&invitee_full_name=Layla+Haddad&invitee_email=layla%40example.com' +
        '&invitee_uuid=INV_9&event_start_time=2026-12-01T10:00:00%2B04:00&event_end_time=2026-12-01T10:30:00%2B04:00&assigned_to=Omar+Saleh' +
        '&booking_id=BK-77&source=hero&debug=true',
    );
    expect(details).toEqual({
      bookingId: 'BK-77',
      eventTypeName: '30 Minute Consultation',
      eventTypeUuid: 'ETU-123',
      inviteeName: 'Layla Haddad',
      inviteeEmail: 'layla@example.com',
      inviteeUuid: 'INV_9',
      startTime: '2026-12-01T06:00:00.000Z',
      endTime: '2026-12-01T06:30:00.000Z',
      assignedTo: 'Omar Saleh',
      source: 'hero',
      debug: true,
    });
    expect(hasSummary(details)).toBe(true);
  });

  it('takes the booking id from the path first', () => {
    expect(parse('booking_id=FROM-QUERY', 'from-path').bookingId).toBe('from-path');
    expect(parse('booking_id=FROM-QUERY').bookingId).toBe('FROM-QUERY');
    expect(parse('event_id=EV1').bookingId).toBe('EV1');
  });

  it('with nothing, is an empty, non-debug result', () => {
    const details = parse('');
    expect(details).toEqual({ debug: false });
    expect(hasSummary(details)).toBe(false);
  });

  it('accepts Arabic names and joins first and last names', () => {
    expect(parse('invitee_full_name=ليلى+حداد').inviteeName).toBe('ليلى حداد');
    expect(parse('invitee_first_name=Layla&invitee_last_name=Haddad').inviteeName).toBe('Layla Haddad');
    expect(parse('invitee_name=%20%20Anne-Marie%20%20O%E2%80%99Neil%20').inviteeName).toBe('Anne-Marie O’Neil');
  });

  it('drops markup, scripts and URLs instead of echoing them', () => {
    const details = parse(
      'invitee_full_name=%3Cscript%3Ealert(1)%3C%2Fscript%3E&event_type_name=%3Cimg+src%3Dx+onerror%3Dalert(1)%3E' +
        '&invitee_email=%22%3E%3Cscript%3E%40x.com&booking_id=%3Cb%3E&assigned_to=https%3A%2F%2Fevil.example&source=%3Csvg%3E',
      '<script>alert(1)</script>',
    );
    expect(details).toEqual({ debug: false });
    expect(JSON.stringify(details)).not.toMatch(/[<>]/);
  });

  it('drops path ids with slashes, dots or spaces, and over-long values', () => {
    expect(parse('', '../../etc/passwd').bookingId).toBeUndefined();
    expect(parse('', 'a b').bookingId).toBeUndefined();
    expect(parse('', 'x'.repeat(65)).bookingId).toBeUndefined();
    expect(parse(`invitee_full_name=${'A'.repeat(MAX_RAW_LENGTH + 1)}`).inviteeName).toBeUndefined();
    expect(parse(`invitee_full_name=${'A'.repeat(101)}`).inviteeName).toBeUndefined();
    expect(parse(`invitee_email=${'a'.repeat(250)}@example.com`).inviteeEmail).toBeUndefined();
  });

  it('ignores invalid and absurd dates, and an end before the start', () => {
    expect(parse('event_start_time=tomorrow').startTime).toBeUndefined();
    expect(parse('event_start_time=2026-02-30T10:00:00Z').startTime).toBeUndefined();
    expect(parse('event_start_time=1800-01-01T10:00:00Z').startTime).toBeUndefined();
    expect(parse('event_start_time=99999-01-01T10:00:00Z').startTime).toBeUndefined();
    expect(parse('event_start_time=1733000000000').startTime).toBeUndefined();
    const reversed = parse('event_start_time=2026-12-01T10:00:00Z&event_end_time=2026-12-01T09:00:00Z');
    expect(reversed.startTime).toBe('2026-12-01T10:00:00.000Z');
    expect(reversed.endTime).toBeUndefined();
    expect(parse('event_end_time=2026-12-01T09:00:00Z').endTime).toBeUndefined();
  });

  it('reads debug only as an explicit yes, and never throws on repeated or odd parameters', () => {
    expect(parse('debug=1').debug).toBe(true);
    expect(parse('debug=false').debug).toBe(false);
    expect(parse('debug=%3Cscript%3E').debug).toBe(false);
    expect(() => parse('invitee_email=a&invitee_email=b&%E0%A4%A=1&=&&&source')).not.toThrow();
    expect(parse('source=Floating').source).toBe('floating');
  });
});
