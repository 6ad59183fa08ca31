// Loads Monaco on first use, so it lands in its own chunks and never in the console's initial bundle.
type Runtime = typeof import('./monaco-runtime.ts');
export type Monaco = Runtime['monaco'];

let loading: Promise<Monaco> | undefined;

/** Monaco, loaded once. Example: `const monaco = await loadMonaco()`. */
export function loadMonaco(): Promise<Monaco> {
  loading ??= import('./monaco-runtime.ts').then((runtime) => runtime.monaco);
  return loading;
}
