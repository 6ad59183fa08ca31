// An API error said plainly: its message, its code and, for a refusal, the rules at fault (error.details.rules).
import { ApiError } from '../../../lib/api/api-error.ts';
import { rulesOf } from '../api/request-ruleset.ts';

export function RulesetError({ error }: { error: Error }) {
  const rules = error instanceof ApiError ? rulesOf(error.details) : [];
  return (
    <div className="state state-error" role="alert">
      <p className="ruleset-error-message">
        {error.message}
        {error instanceof ApiError && <code className="ruleset-error-code">{error.code}</code>}
      </p>
      {rules.length > 0 && (
        <>
          <p className="ruleset-error-rules-title">Rules at fault:</p>
          <ul aria-label="Rules at fault" className="ruleset-error-rules">
            {rules.map((rule) => (
              <li key={rule}>
                <code>{rule}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
