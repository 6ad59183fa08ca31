// Each route renders inside this boundary: a page that fails (its chunk did not arrive, or it threw) is
// replaced by a notice saying what failed, while the shell's header and navigation stay.
import { Component, type ReactNode } from 'react';
import { isChunkLoadError } from '../lib/load-with-retries.ts';
import { retryFailedPages } from './lazy-page.tsx';

interface RouteBoundaryProps {
  /** The route's address: moving to another route clears a failure. */
  route: string;
  children: ReactNode;
}

export class RouteBoundary extends Component<RouteBoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate(previous: RouteBoundaryProps) {
    if (previous.route !== this.props.route && this.state.error !== null) this.setState({ error: null });
  }

  retry = () => {
    retryFailedPages();
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return <RouteFailure error={error} onRetry={this.retry} />;
  }
}

function RouteFailure({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const unreachable = isChunkLoadError(error);
  return (
    <section className="panel route-failure" role="alert" aria-labelledby="route-failure-heading">
      <h2 id="route-failure-heading" className="panel-title">
        This page could not be shown
      </h2>
      <p>
        {unreachable
          ? 'Part of the console could not be loaded from the server, even after a few tries; it may be restarting.'
          : `The page failed: ${error.message}`}
      </p>
      <p className="route-failure-actions">
        <button type="button" className="button button-primary" onClick={onRetry}>
          Retry
        </button>
        {unreachable && (
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Reload
          </button>
        )}
      </p>
    </section>
  );
}
