// `npm start`'s arguments to `tollgate serve` (scripts/start-args.mjs): the checkout's demo folder unless a flag or
// the environment names a store, since a flag wins over its variable.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serveArgs } from '../../../scripts/start-args.mjs';

describe('npm start', () => {
  it('serves the demo in ./.tollgate-data when nothing names a store', () => {
    expect(serveArgs([], {})).toEqual(['serve', '--data', './.tollgate-data', '--demo']);
    expect(serveArgs(['--port', '9000'], { TOLLGATE_DATA: '', TOLLGATE_PORT: '9001' })).toEqual([
      'serve',
      '--data',
      './.tollgate-data',
      '--demo',
      '--port',
      '9000',
    ]);
  });

  it('leaves the store to TOLLGATE_DATA, TOLLGATE_DATABASE_URL, --data or --database', () => {
    expect(serveArgs([], { TOLLGATE_DATA: '/srv/tollgate' })).toEqual(['serve', '--demo']);
    expect(serveArgs([], { TOLLGATE_DATABASE_URL: 'postgres://db/tollgate' })).toEqual(['serve', '--demo']);
    expect(serveArgs(['--data', '/srv/tg'], {})).toEqual(['serve', '--demo', '--data', '/srv/tg']);
    expect(serveArgs(['--database=postgres://db/tg'], {})).toEqual(['serve', '--demo', '--database=postgres://db/tg']);
  });

  it('passes every argument on, in order, and names one store at most', () => {
    const flag = fc.constantFrom('--port', '9000', '--host', '::1', '--data', '--data=x', '--database', '--demo', 'x');
    const env = fc.record(
      { TOLLGATE_DATA: fc.constantFrom('', '/srv/tg'), TOLLGATE_DATABASE_URL: fc.constantFrom('', 'postgres://db/tg') },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(flag, { maxLength: 6 }), env, (args, vars) => {
        const out = serveArgs(args, vars);
        expect(out.slice(out.length - args.length)).toEqual(args);
        const added = out.slice(0, out.length - args.length);
        const named = args.some((a) => a.startsWith('--data') || a.startsWith('--database')) || Object.values(vars).some((v) => v !== '');
        expect(added).toEqual(named ? ['serve', '--demo'] : ['serve', '--data', './.tollgate-data', '--demo']);
      }),
    );
  });
});
