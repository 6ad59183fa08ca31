// An action's refusal as the row or form shows it: the API's message and its code (LAST_OWNER, OWN_ROLE, ...).
import { ApiError } from '../lib/api/api-error.ts';

export function ApiRefusal({ error, id }: { error: Error | null; id?: string }) {
  if (error === null) return null;
  return (
    <p id={id} className="state state-error" role="alert">
      {error instanceof ApiError ? `${error.message} (${error.code})` : error.message}
    </p>
  );
}
