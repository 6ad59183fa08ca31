// What `npm start` passes to `tollgate serve` (scripts/start.mjs): the demo, and the checkout's own data folder
// only where neither a flag nor the environment names a store, since a flag wins over its variable and
// `--data ./.tollgate-data` would otherwise hide TOLLGATE_DATA and TOLLGATE_DATABASE_URL (README.md, "Set up").

/**
 * The serve arguments for `npm start -- ARGS` under `env`.
 *
 * @example
 * serveArgs([], {}) // ['serve', '--data', './.tollgate-data', '--demo']
 * serveArgs(['--port', '9000'], { TOLLGATE_DATA: '/srv/tg' }) // ['serve', '--demo', '--port', '9000']
 */
export function serveArgs(args, env) {
  const flagged = (flag) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
  // An empty variable counts as unset, as `tollgate serve` reads it.
  const set = (name) => (env[name] ?? '') !== '';
  const named = flagged('--data') || flagged('--database') || set('TOLLGATE_DATA') || set('TOLLGATE_DATABASE_URL');
  return ['serve', ...(named ? [] : ['--data', './.tollgate-data']), '--demo', ...args];
}
