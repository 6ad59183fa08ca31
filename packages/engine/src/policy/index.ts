// policy@1: validation with codes and JSON Pointer paths, compiled evaluation, explanations,
// approvers, policy tests and templates (docs/policy.md).

export * from './approvers.ts';
export * from './codes.ts';
export * from './compile.ts';
export * from './evaluate.ts';
export * from './explanation.ts';
export * from './json-schema.ts';
export * from './pattern.ts';
export * from './policy-tests.ts';
export * from './revision.ts';
export * from './templates/index.ts';
export * from './tool.ts';
export * from './types.ts';
export * from './validate.ts';
export { MAX_APPROVER_USERS, USER_ID, validateApprovers, validateMembers } from './validate-approvers.ts';
