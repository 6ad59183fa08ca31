/** The serve arguments for `npm start -- ARGS` under `env` (start-args.mjs). */
export function serveArgs(args: readonly string[], env: Readonly<Record<string, string | undefined>>): string[];
