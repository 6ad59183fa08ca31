// Unit tests of the "Start a trial" form's pure helpers: the versions offered, percent to rate, max samples,
// local time to ISO (in UTC and across Berlin's daylight-saving changes) and the body sent.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyVersion } from './api/types.ts';
import {
  EMPTY_TRIAL_FORM,
  isoOfLocal,
  rateOfPercent,
  startTrialBody,
  trialCandidates,
  trialStateWords,
  wholeSamples,
} from './trial-form.ts';

const DOCUMENT = 'policies/refunds.policy.json';

/** Node reads TZ again whenever it is set, so a test can run in a zone with daylight saving. */
const zone = process.env.TZ;
function inZone(tz: string) {
  process.env.TZ = tz;
}
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** An instant's datetime-local value in the current zone, to the millisecond. */
function localOf(ms: number): string {
  const d = new Date(ms);
  const date = `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${date}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

const instant = fc.integer({ min: Date.parse('1000-01-01T00:00:00Z'), max: Date.parse('9999-12-30T00:00:00Z') });

function version(sequence: number, marks: { running?: boolean; rejected?: boolean } = {}): PolicyVersion {
  return {
    sequence,
    author: { kind: 'person', label: 'owner' },
    reason: `v${sequence}`,
    based_on: null,
    created_at: '2026-03-01T09:00:00Z',
    running: marks.running ?? false,
    rejected: marks.rejected ?? false,
    problems: [],
    digest: `d${sequence}`,
    bytes: 1,
  };
}

describe('trialCandidates', () => {
  it('offers the stored versions that neither run nor were rejected, newest first', () => {
    const versions = [version(1), version(2, { running: true }), version(3, { rejected: true }), version(4), version(5)];
    expect(trialCandidates(versions).map((v) => v.sequence)).toEqual([5, 4, 1]);
    expect(trialCandidates([version(1, { running: true })])).toEqual([]);
  });
});

describe('rateOfPercent', () => {
  it('reads every whole percent from 1 to 100 as the rate the panel shows back as that percent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.constantFrom('', ' '), (percent, space) => {
        const read = rateOfPercent(`${space}${percent}${space}`);
        return read.ok && read.value > 0 && read.value <= 1 && read.value === percent / 100 && Math.round(read.value * 100) === percent;
      }),
    );
  });

  it('refuses anything else: out of range, a fraction, a sign, words, nothing', () => {
    for (const text of ['0', '101', '1000', '12.5', '-5', '+5', '1e2', '0x10', 'ten', '', ' ']) {
      expect(rateOfPercent(text), text).toEqual({ ok: false, problem: 'The sample rate is a whole percent from 1 to 100.' });
    }
    fc.assert(fc.property(fc.integer({ min: 101 }), (percent) => !rateOfPercent(String(percent)).ok));
  });
});

describe('wholeSamples', () => {
  it('reads a whole number from 1 up to the largest exact one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const read = wholeSamples(String(n));
        return read.ok && read.value === n;
      }),
    );
    expect(wholeSamples('007')).toEqual({ ok: true, value: 7 });
  });

  it('refuses zero, fractions, signs, numbers too large to send exactly, and words', () => {
    for (const text of ['0', '1.5', '-1', '+1', '1e3', '9007199254740992', 'three', '']) {
      expect(wholeSamples(text), text).toEqual({ ok: false, problem: 'Max samples is a whole number, at least 1.' });
    }
  });
});

describe('isoOfLocal', () => {
  it('reads a local time in UTC as the same wall time with Z', () => {
    inZone('UTC');
    expect(isoOfLocal('2026-03-01T09:30')).toEqual({ ok: true, value: '2026-03-01T09:30:00.000Z' });
    expect(isoOfLocal('2026-03-01T09:30:15')).toEqual({ ok: true, value: '2026-03-01T09:30:15.000Z' });
    expect(isoOfLocal('2026-03-01T09:30:15.5')).toEqual({ ok: true, value: '2026-03-01T09:30:15.500Z' });
    // Years before 100 stay themselves (the Date constructor would move them to the 1900s).
    expect(isoOfLocal('0050-06-01T00:00')).toEqual({ ok: true, value: '0050-06-01T00:00:00.000Z' });
  });

  it('reads a local time in Berlin with its offset of the day', () => {
    inZone('Europe/Berlin');
    expect(isoOfLocal('2026-01-15T12:00')).toEqual({ ok: true, value: '2026-01-15T11:00:00.000Z' });
    expect(isoOfLocal('2026-07-15T12:00')).toEqual({ ok: true, value: '2026-07-15T10:00:00.000Z' });
  });

  it('refuses a time the clocks skip, and reads one they pass twice as the first', () => {
    inZone('Europe/Berlin');
    // 29 March 2026: 02:00 becomes 03:00.
    expect(isoOfLocal('2026-03-29T02:30')).toMatchObject({ ok: false, problem: expect.stringContaining('the clocks skip it') });
    // 25 October 2026: 03:00 becomes 02:00 again; 02:30 is first at 00:30 UTC.
    expect(isoOfLocal('2026-10-25T02:30')).toEqual({ ok: true, value: '2026-10-25T00:30:00.000Z' });
  });

  it('refuses what is not a datetime-local value, and dates that do not exist', () => {
    inZone('UTC');
    for (const text of [
      '',
      '2026-03-01',
      '2026-03-01 09:30',
      '2026-03-01T09:30Z',
      '2026-03-01T09:30+01:00',
      '26-03-01T09:30',
      '+002026-03-01T09:30',
      '2026-3-1T9:30',
      '2026-03-01T09:30:15.1234',
    ]) {
      expect(isoOfLocal(text), text).toMatchObject({ ok: false, problem: 'A time is a date and a time of day, such as 2026-03-01T09:30.' });
    }
    for (const text of ['2026-02-30T09:30', '2026-13-01T09:30', '2026-03-01T24:00', '2026-03-01T09:60', '2026-03-01T09:30:60']) {
      expect(isoOfLocal(text), text).toMatchObject({ ok: false, problem: expect.stringContaining('is not a time') });
    }
  });

  it('gives back the instant whose local time was typed, in any zone (the first, where the clocks pass it twice)', () => {
    for (const tz of ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata']) {
      inZone(tz);
      fc.assert(
        fc.property(instant, (ms) => {
          const typed = localOf(ms);
          const read = isoOfLocal(typed);
          if (!read.ok) return false;
          const back = Date.parse(read.value);
          // The same wall time, and no earlier instant shows it: where it shows twice, the earlier is picked.
          return localOf(back) === typed && back <= ms && ms - back <= 60 * 60 * 1000;
        }),
        { numRuns: 200 },
      );
    }
  });
});

describe('startTrialBody', () => {
  it('sends the newest offered version when none is picked, the rate, and only the scope typed, trimmed', () => {
    inZone('UTC');
    expect(startTrialBody(DOCUMENT, { ...EMPTY_TRIAL_FORM, percent: '50' }, [4, 1])).toEqual({
      ok: true,
      body: { document: DOCUMENT, sequence: 4, sample_rate: 0.5 },
    });
    const form = {
      candidate: '1',
      percent: '10',
      agent: ' support-bot ',
      tool: 'issue_refund',
      endsAt: '2099-01-01T00:00',
      maxSamples: ' 3 ',
    };
    expect(startTrialBody(DOCUMENT, form, [4, 1])).toEqual({
      ok: true,
      body: {
        document: DOCUMENT,
        sequence: 1,
        sample_rate: 0.1,
        agent: 'support-bot',
        tool: 'issue_refund',
        ends_at: '2099-01-01T00:00:00.000Z',
        max_samples: 3,
      },
    });
  });

  it('leaves a past end to the server, which says why (INVALID_SAVE)', () => {
    inZone('UTC');
    const made = startTrialBody(DOCUMENT, { ...EMPTY_TRIAL_FORM, endsAt: '2000-01-01T00:00' }, [2]);
    expect(made).toMatchObject({ ok: true, body: { ends_at: '2000-01-01T00:00:00.000Z' } });
  });

  it('names the first field at fault', () => {
    expect(startTrialBody(DOCUMENT, EMPTY_TRIAL_FORM, [])).toMatchObject({ ok: false, field: 'candidate' });
    expect(startTrialBody(DOCUMENT, { ...EMPTY_TRIAL_FORM, candidate: '2' }, [4])).toMatchObject({ ok: false, field: 'candidate' });
    expect(startTrialBody(DOCUMENT, { ...EMPTY_TRIAL_FORM, percent: '0', maxSamples: 'x' }, [4])).toMatchObject({
      ok: false,
      field: 'percent',
    });
    expect(startTrialBody(DOCUMENT, { ...EMPTY_TRIAL_FORM, endsAt: 'soon' }, [4])).toMatchObject({ ok: false, field: 'endsAt' });
    expect(startTrialBody(DOCUMENT, { ...EMPTY_TRIAL_FORM, maxSamples: '0' }, [4])).toMatchObject({ ok: false, field: 'maxSamples' });
  });
});

describe('trialStateWords', () => {
  it('says whether the trial runs, was stopped, or ended by its own bound', () => {
    expect(trialStateWords({ running: true, ended: null })).toBe('running');
    expect(trialStateWords({ running: false, ended: 'stopped' })).toBe('stopped');
    expect(trialStateWords({ running: false, ended: 'ends_at' })).toBe('ended: its end time passed');
    expect(trialStateWords({ running: false, ended: 'max_samples' })).toBe('ended: its last sample taken');
  });
});
