// Loads the inputs the policy commands share: the document (exact JSON, validated), members, tools.

import {
  type Member,
  type ToolBinding,
  type ValidationResult,
  validateMembers,
  validatePolicy,
  validateToolBinding,
} from '@tollgate/engine/policy';
import type { Diagnostic } from '@tollgate/engine/source';
import { refusedInput } from '../io.ts';
import { readJsonFile } from '../read-input.ts';

export interface LoadedPolicy extends ValidationResult {
  document: unknown;
}

/** Reads and validates a policy file; parse-level problems (duplicate members, inexact numbers) count as errors. */
export function loadPolicy(file: string, options: { members?: readonly Member[]; tools?: readonly ToolBinding[] } = {}): LoadedPolicy {
  const input = readJsonFile(file);
  const result = validatePolicy(input.value, options);
  const errors = [...input.diagnostics, ...result.errors];
  return { ...result, errors, valid: errors.length === 0, warnings: errors.length === 0 ? result.warnings : [], document: input.value };
}

/** Reads a members file; a malformed one is unusable input (exit 2). */
export function loadMembers(file: string | undefined): Member[] | undefined {
  if (file === undefined) return undefined;
  const input = readJsonFile(file);
  failOn(file, [...input.diagnostics, ...validateMembers(input.value)]);
  return input.value as Member[];
}

/** Reads a tools file: a list of tool bindings. */
export function loadTools(file: string | undefined): ToolBinding[] | undefined {
  if (file === undefined) return undefined;
  const input = readJsonFile(file);
  if (!Array.isArray(input.value))
    failOn(file, [{ code: 'INVALID_TYPE', severity: 'error', path: '', message: 'a tools file is a list of tools' }]);
  const list = input.value as unknown[];
  failOn(file, [...input.diagnostics, ...list.flatMap((t, i) => validateToolBinding(t, `/${i}`))]);
  return list as ToolBinding[];
}

function failOn(file: string, problems: Diagnostic[]): void {
  if (problems.length === 0) return;
  throw refusedInput(file, problems);
}
