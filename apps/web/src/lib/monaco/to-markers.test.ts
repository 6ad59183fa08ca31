// toMarkers without a browser: a minimal model over plain text.
import type { Diagnostic } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import { MARKER_ERROR, MARKER_INFO, MARKER_WARNING, type ModelLike, toMarkers } from './to-markers.ts';

function modelOf(text: string): ModelLike {
  const lines = text.split('\n');
  return {
    getValue: () => text,
    getLineCount: () => lines.length,
    getLineMaxColumn: (line) => (lines[line - 1] ?? '').length + 1,
  };
}

const POLICY = '{\n  "schema": "tollgate/policy@1",\n  "default": "allow",\n  "rules": []\n}\n';

describe('toMarkers', () => {
  it('places a diagnostic by its range with an error severity', () => {
    const d: Diagnostic = {
      code: 'rule_sheet_unsupported',
      severity: 'error',
      message: 'unknown key',
      line: 2,
      column: 3,
      endLine: 2,
      endColumn: 8,
    };
    expect(toMarkers([d], modelOf('rules:\n  colour: blue\n'))).toEqual([
      {
        severity: MARKER_ERROR,
        message: 'unknown key',
        code: 'rule_sheet_unsupported',
        source: 'tollgate',
        startLineNumber: 2,
        startColumn: 3,
        endLineNumber: 2,
        endColumn: 8,
      },
    ]);
  });

  it('places a JSON diagnostic by its pointer path', () => {
    const d: Diagnostic = { code: 'PERMISSIVE_DEFAULT', severity: 'error', message: 'deny by default', path: '/default' };
    const [marker] = toMarkers([d], modelOf(POLICY), { json: true });
    expect(marker).toMatchObject({ startLineNumber: 3, startColumn: 14, endLineNumber: 3, endColumn: 21 });
  });

  it('marks warnings as warnings', () => {
    const d: Diagnostic = { code: 'write_ungoverned', severity: 'warning', message: 'advice', path: '/rules' };
    expect(toMarkers([d], modelOf(POLICY), { json: true })[0]?.severity).toBe(MARKER_WARNING);
  });

  it('puts a diagnostic with no place on the first line', () => {
    const d: Diagnostic = { code: 'UNKNOWN_MEMBER', severity: 'error', message: 'somewhere', path: '/nowhere' };
    expect(toMarkers([d], modelOf(POLICY), { json: true })[0]).toMatchObject({
      startLineNumber: 1,
      startColumn: 1,
      endLineNumber: 1,
      endColumn: 2,
    });
    expect(toMarkers([{ code: 'UNKNOWN_MEMBER', severity: 'error', message: 'm' }], modelOf('abc'))[0]).toMatchObject({
      startLineNumber: 1,
      endColumn: 4,
    });
  });

  it('does not read paths as JSON unless told to', () => {
    const d: Diagnostic = { code: 'UNKNOWN_MEMBER', severity: 'error', message: 'm', path: '/default' };
    expect(toMarkers([d], modelOf(POLICY))[0]?.startLineNumber).toBe(1);
  });

  it('clamps ranges past the end and widens empty ones to the line', () => {
    const past: Diagnostic = {
      code: 'UNKNOWN_MEMBER',
      severity: 'error',
      message: 'm',
      line: 9,
      column: 1,
      endLine: 9,
      endColumn: 1,
    };
    expect(toMarkers([past], modelOf('ab\ncd'))[0]).toMatchObject({ startLineNumber: 2, startColumn: 1, endLineNumber: 2, endColumn: 3 });
  });
});

describe('toMarkers takes the one Diagnostic as it is', () => {
  it('starts at line/column, ends at endLine/endColumn, and marks an info as info', () => {
    const model = {
      getValue: () => 'rules:\n  - action: pay\n',
      getLineCount: () => 3,
      getLineMaxColumn: (n: number) => [0, 7, 16, 1][n] ?? 1,
    };
    const [marker] = toMarkers(
      [{ code: 'HELD_FOR_REVIEW', severity: 'info', message: 'held', line: 2, column: 13, endLine: 2, endColumn: 16 }],
      model,
    );
    expect(marker).toMatchObject({ severity: MARKER_INFO, startLineNumber: 2, startColumn: 13, endLineNumber: 2, endColumn: 16 });
  });
});
