// Loading a lazily built part of the console again when its chunk did not arrive (a server restarting, a
// dropped connection): a few tries with growing pauses, then the error, for the route's boundary to show.

/** The pauses before each further try, in ms: three more tries within about 3 s. */
export const RETRY_DELAYS_MS = [400, 900, 1800] as const;

const CHUNK_FAILURES = [
  'Failed to fetch dynamically imported module', // Chromium
  'error loading dynamically imported module', // Firefox
  'Importing a module script failed', // Safari
  'Unable to preload CSS', // Vite's preload of a chunk's styles
];

/** Whether `error` says a chunk could not be fetched (not a fault in its code). Example: `isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js'))`. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return CHUNK_FAILURES.some((text) => message.includes(text));
}

/**
 * Runs `load`, trying again after each of `delays` while it fails with a chunk load error; any other
 * error, or the last failure, is thrown. Example: `await loadWithRetries(() => import('./page.tsx'))`.
 */
export async function loadWithRetries<T>(
  load: () => Promise<T>,
  delays: readonly number[] = RETRY_DELAYS_MS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined || !isChunkLoadError(error)) throw error;
      await sleep(delay);
    }
  }
}
