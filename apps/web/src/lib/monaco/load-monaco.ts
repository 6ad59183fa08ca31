// Loads Monaco on first use, so it lands in its own chunks and never in the console's initial bundle.
import { loadWithRetries } from '../load-with-retries.ts';

type Runtime = typeof import('./monaco-runtime.ts');
export type Monaco = Runtime['monaco'];

let loading: Promise<Monaco> | undefined;

/** Monaco, loaded once; a load that failed after its tries is tried afresh by the next call. Example: `const monaco = await loadMonaco()`. */
export function loadMonaco(): Promise<Monaco> {
  loading ??= loadWithRetries(() => import('./monaco-runtime.ts')).then(
    (runtime) => runtime.monaco,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
