// The policy@1 document as written (docs/policy.md), and the facts known about one call.
import type { Condition } from '../conditions/condition.ts';

export const POLICY_SCHEMAS = ['tollgate/policy@1', 'kblock.cloud/policy@1'] as const;
export type Effect = 'allow' | 'require_approval' | 'deny';
export type DefaultEffect = 'deny' | 'require_approval';
export const APPROVER_ROLES = ['owner', 'admin', 'approver'] as const;
export type ApproverRole = (typeof APPROVER_ROLES)[number];
export const MEMBER_ROLES = ['owner', 'admin', 'approver', 'developer', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export interface AmountCondition {
  currency: string;
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

export interface Approvers {
  roles?: ApproverRole[];
  users?: string[];
  /**
   * How many distinct eligible members must approve before the call runs (1 when absent; docs/policy.md,
   * "Approvers"). A document that names one is language revision 4.
   */
  quorum?: number;
}

export interface PolicyRule {
  id: string;
  description?: string;
  actions: string[];
  tools?: string[];
  amount?: AmountCondition;
  when?: Condition[];
  effect: Effect;
  approvers?: Approvers;
  approval_ttl_seconds?: number;
  guard?: boolean;
}

export interface PolicyDocument {
  schema: (typeof POLICY_SCHEMAS)[number];
  default: DefaultEffect;
  rules: PolicyRule[];
}

/** A member of the organisation, as approver resolution sees them at decision time. */
export interface Member {
  /** A lowercase UUID. */
  id: string;
  role: MemberRole;
  /** Whether the member has an active signing identity: approving means signing. */
  signing: boolean;
  /**
   * Whether every key of the member is a model's (the `model` grant): a model never approves a call, so such
   * a member is never an eligible approver (docs/policy.md, "Approvers"). Absent: a person.
   */
  model?: boolean;
}

/** How a tool's amount is read from its calls' arguments. */
export interface AmountMapping {
  pointer: string;
  currency: string;
  currency_pointer?: string;
}

/** An exposed tool: its name, its action, and optionally its amount mapping. */
export interface ToolBinding {
  name: string;
  action: string;
  amount?: AmountMapping;
}
