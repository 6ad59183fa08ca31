// The docs stay true to the gate: docs/api.md lists every code of GATE_CODES with its registry words, and
// the codes of a tool's authorized binding are documented where people look for them.
import { readFileSync } from 'node:fs';
import { GATE_CODES } from '@tollgate/engine/gate';
import { describe, expect, it } from 'vitest';

const read = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8');

describe('docs/api.md', () => {
  it('lists every gate code with the words of the registry', () => {
    const api = read('api.md');
    const missing = Object.entries(GATE_CODES).filter(([code, when]) => !api.includes(`| \`${code}\` | ${when} |`));
    expect(missing).toEqual([]);
  });
});

describe("a tool's authorized binding", () => {
  it.each([
    [
      'api.md',
      [
        'TOOL_NOT_AUTHORIZED',
        'BINDING_CHANGE_FORBIDDEN',
        'BINDING_CHANGED',
        'UNKNOWN_APPROVER',
        'APPROVER_ROLE_NOT_CAPABLE',
        'arguments_shown',
      ],
    ],
    ['catalogue.md', ['TOOL_NOT_AUTHORIZED', 'BINDING_CHANGE_FORBIDDEN', 'BINDING_CHANGED', 'ROLE_REQUIRED', '`system`']],
    ['policy.md', ['TOOL_NOT_AUTHORIZED', 'UNKNOWN_APPROVER', 'APPROVER_ROLE_NOT_CAPABLE']],
  ])('is documented in docs/%s', (name, words) => {
    const text = read(name);
    expect(words.filter((w) => !text.includes(w))).toEqual([]);
  });
});
