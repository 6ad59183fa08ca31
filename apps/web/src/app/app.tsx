// The console's shell: the header and the one page there is so far, the policy check.
import { PolicyCheck } from '../features/policy-check/components/policy-check.tsx';

export function App() {
  return (
    <div className="shell">
      <header className="masthead">
        <h1 className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Tollgate
        </h1>
        <p className="tagline">Check a policy document as you write it. Nothing leaves your browser.</p>
      </header>
      <main>
        <PolicyCheck />
      </main>
    </div>
  );
}
