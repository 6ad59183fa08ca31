// Pages built as their own chunks, loaded on first visit. Unlike React.lazy, a page whose chunk did not
// arrive (after loadWithRetries' tries) is not failed for good: the route boundary's Retry loads it again.
import { type ComponentType, use } from 'react';
import { loadWithRetries } from '../lib/load-with-retries.ts';

const forgetFailures = new Set<() => void>();

/** Lets every page whose load failed be loaded again on its next render (the boundary's Retry). */
export function retryFailedPages(): void {
  for (const forget of forgetFailures) forget();
}

/** A page component loaded when first rendered. Example: `const Page = lazyPage(() => import('./a.tsx').then((m) => m.APage))`. */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let failed = false;
  forgetFailures.add(() => {
    if (failed) loading = undefined;
  });
  function LazyPage(props: P) {
    if (loading === undefined) {
      failed = false;
      loading = loadWithRetries(load);
      loading.catch(() => {
        failed = true;
      });
    }
    const Page = use(loading);
    return <Page {...props} />;
  }
  return LazyPage;
}
