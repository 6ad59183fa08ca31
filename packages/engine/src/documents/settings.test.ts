// The settings format: defaults, observe windows, the approved list, and each refusal at its line.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, isApprovedVersion, readSettings } from './settings.ts';

const SETTINGS = `approval_ttl_seconds: 3600
observe_windows:
  - name: launch-week
    starts: 2025-07-01T00:00:00Z
    ends: 2025-07-08T00:00:00Z
    relax: approvals
approved_rulesets_only: true
approved_rulesets: [rulesets/support.ruleset.json@2]
`;

function brief(text: string, exists?: (id: string) => boolean) {
  const r = readSettings(text, exists ? { exists } : undefined);
  if (r.ok) throw new Error('expected problems');
  return r.problems.map((p) => ({ code: p.code, path: p.path, line: p.line }));
}

describe('readSettings', () => {
  it('reads every member', () => {
    expect(readSettings(SETTINGS)).toEqual({
      ok: true,
      problems: [],
      settings: {
        approval_ttl_seconds: 3600,
        observe_windows: [{ name: 'launch-week', starts: '2025-07-01T00:00:00Z', ends: '2025-07-08T00:00:00Z', relax: 'approvals' }],
        approved_rulesets_only: true,
        approved_rulesets: ['rulesets/support.ruleset.json@2'],
        approvals_require_member_keys: false,
        review_widening_edits: false,
      },
    });
  });

  it('reads review_widening_edits, true or false only, false when absent', () => {
    const on = readSettings('approved_rulesets_only: false\nreview_widening_edits: true\n');
    expect(on.ok && on.settings.review_widening_edits).toBe(true);
    expect(DEFAULT_SETTINGS.review_widening_edits).toBe(false);
    // YAML 1.1's yes is not a boolean to the exact reader: it is refused, not read as true.
    expect(brief('approved_rulesets_only: false\nreview_widening_edits: yes\n')).toEqual([
      { code: 'INVALID_TYPE', path: '/review_widening_edits', line: 2 },
    ]);
    expect(brief('approved_rulesets_only: false\nreview_widening_edit: true\n').map((p) => p.code)).toEqual(['UNKNOWN_MEMBER']);
  });

  it('reads approvals_require_member_keys, true or false only', () => {
    const on = readSettings('approved_rulesets_only: false\napprovals_require_member_keys: true\n');
    expect(on.ok && on.settings.approvals_require_member_keys).toBe(true);
    expect(brief('approved_rulesets_only: false\napprovals_require_member_keys: "yes"\n')).toEqual([
      { code: 'INVALID_TYPE', path: '/approvals_require_member_keys', line: 2 },
    ]);
  });

  it('fills in the defaults', () => {
    const r = readSettings('approved_rulesets_only: false\n');
    expect(r.ok && r.settings).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.approval_ttl_seconds).toBe(86_400);
  });

  it.each([59, 2_592_001, 3600.5, '3600'])('refuses approval_ttl_seconds %j', (ttl) => {
    expect(brief(`approval_ttl_seconds: ${JSON.stringify(ttl)}\napproved_rulesets_only: false\n`)).toEqual([
      { code: 'INVALID_TTL', path: '/approval_ttl_seconds', line: 1 },
    ]);
  });

  it('accepts the TTL limits themselves', () => {
    expect(readSettings('approval_ttl_seconds: 60\napproved_rulesets_only: false\n').ok).toBe(true);
    expect(readSettings('approval_ttl_seconds: 2592000\napproved_rulesets_only: false\n').ok).toBe(true);
  });

  it('needs approved_rulesets_only, as true or false', () => {
    expect(brief('approval_ttl_seconds: 3600\n')).toEqual([{ code: 'MISSING_MEMBER', path: '', line: 1 }]);
    expect(brief('approved_rulesets_only: yes please\n')).toEqual([{ code: 'INVALID_TYPE', path: '/approved_rulesets_only', line: 1 }]);
  });

  it('refuses a window that ends before it starts, a bad time, relax or name, and a name twice', () => {
    const text = `observe_windows:
  - {name: a, starts: 2025-07-08T00:00:00Z, ends: 2025-07-01T00:00:00Z, relax: approvals}
  - {name: b, starts: 2025-07-01, ends: 2025-07-08T00:00:00Z, relax: everything}
  - {name: Bad Name, starts: 2025-07-01T00:00:00Z, ends: 2025-07-02T00:00:00Z, relax: denials, note: x}
  - {name: c, starts: 2025-07-01T00:00:00Z, ends: 2025-07-02T00:00:00Z, relax: denials}
  - {name: c, starts: 2025-08-01T00:00:00Z, ends: 2025-08-02T00:00:00Z, relax: denials}
  - {name: d}
approved_rulesets_only: false
`;
    expect(brief(text)).toEqual([
      { code: 'INVALID_WINDOW', path: '/observe_windows/0/ends', line: 2 },
      { code: 'INVALID_DATE_TIME', path: '/observe_windows/1/starts', line: 3 },
      { code: 'INVALID_VALUE', path: '/observe_windows/1/relax', line: 3 },
      { code: 'INVALID_VALUE', path: '/observe_windows/2/name', line: 4 },
      { code: 'UNKNOWN_MEMBER', path: '/observe_windows/2/note', line: 4 },
      { code: 'DUPLICATE_VALUE', path: '/observe_windows/4', line: 6 },
      { code: 'MISSING_MEMBER', path: '/observe_windows/5', line: 7 },
      { code: 'MISSING_MEMBER', path: '/observe_windows/5', line: 7 },
      { code: 'MISSING_MEMBER', path: '/observe_windows/5', line: 7 },
    ]);
  });

  it('takes approved rule set versions, once each, existing when a store is asked', () => {
    const text =
      'approved_rulesets_only: true\napproved_rulesets:\n  - rulesets/a.ruleset.json@1\n  - policies/b.policy.json@1\n  - rulesets/a.ruleset.json@1\n';
    expect(brief(text)).toEqual([
      { code: 'WRONG_DOCUMENT_KIND', path: '/approved_rulesets/1', line: 4 },
      { code: 'DUPLICATE_VALUE', path: '/approved_rulesets/2', line: 5 },
    ]);
    expect(brief(SETTINGS, () => false)).toEqual([{ code: 'REFERENCE_NOT_FOUND', path: '/approved_rulesets/0', line: 8 }]);
  });

  it('refuses an unknown member and text that is not YAML', () => {
    expect(brief('approved_rulesets_only: false\nobserve: []\n')).toEqual([{ code: 'UNKNOWN_MEMBER', path: '/observe', line: 2 }]);
    expect(brief('approved_rulesets_only: false\n---\na: 1\n')).toEqual([{ code: 'NOT_YAML', path: '', line: 2 }]);
  });

  it('approves versions (id@N), asking the store whether the version exists', () => {
    const text = 'approved_rulesets_only: true\napproved_rulesets: [rulesets/a.ruleset.json@2, rulesets/b.ruleset.json@7]\n';
    const r = readSettings(text);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.settings.approved_rulesets).toEqual(['rulesets/a.ruleset.json@2', 'rulesets/b.ruleset.json@7']);
    expect(isApprovedVersion(r.settings.approved_rulesets, 'rulesets/a.ruleset.json', 2)).toBe(true);
    expect(isApprovedVersion(r.settings.approved_rulesets, 'rulesets/a.ruleset.json', 3)).toBe(false);
    expect(isApprovedVersion(r.settings.approved_rulesets, 'rulesets/b.ruleset.json', 7)).toBe(true);
    const stored = readSettings(text, { exists: (_id, sequence) => sequence === undefined || sequence === 1 });
    expect(stored.ok ? [] : stored.problems.map((p) => [p.code, p.path, p.message])).toEqual([
      ['REFERENCE_NOT_FOUND', '/approved_rulesets/0', 'version 2 of rulesets/a.ruleset.json does not exist'],
      ['REFERENCE_NOT_FOUND', '/approved_rulesets/1', 'version 7 of rulesets/b.ruleset.json does not exist'],
    ]);
    const wrong = readSettings('approved_rulesets_only: true\napproved_rulesets: [agents/a.agent.yaml@2]\n');
    expect(wrong.ok ? [] : wrong.problems.map((p) => p.code)).toEqual(['WRONG_DOCUMENT_KIND']);
  });

  it('refuses an approved set without a version; a stored file with one still loads, and its bare id approves nothing', () => {
    const text = 'approved_rulesets_only: true\napproved_rulesets: [rulesets/a.ruleset.json]\n';
    expect(brief(text)).toEqual([{ code: 'VERSION_REQUIRED', path: '/approved_rulesets/0', line: 2 }]);
    const stored = readSettings(text, undefined, { stored: true });
    if (!stored.ok) throw new Error(JSON.stringify(stored.problems));
    expect(stored.settings.approved_rulesets).toEqual(['rulesets/a.ruleset.json']);
    for (const version of [1, 2, 99]) {
      expect(isApprovedVersion(stored.settings.approved_rulesets, 'rulesets/a.ruleset.json', version)).toBe(false);
    }
  });
});
