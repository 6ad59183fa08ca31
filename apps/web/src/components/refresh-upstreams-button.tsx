// "Refresh upstreams" (owners and admins): asks every upstream for its tools now, so a tool no gateway has
// listed yet can be reviewed (docs/mcp.md, "Pinned tool definitions"). A failed refresh says why.
import { ApiError } from '../lib/api/api-error.ts';
import { useRefreshUpstreams } from '../lib/api/refresh-upstreams.ts';

export function RefreshUpstreamsButton() {
  const refresh = useRefreshUpstreams();
  return (
    <div className="refresh-upstreams">
      <button type="button" className="button" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
        {refresh.isPending ? 'Refresh upstreams…' : 'Refresh upstreams'}
      </button>
      {refresh.error !== null && (
        <p className="state state-error" role="alert">
          {refresh.error instanceof ApiError ? `${refresh.error.message} (${refresh.error.code})` : refresh.error.message}
        </p>
      )}
    </div>
  );
}
