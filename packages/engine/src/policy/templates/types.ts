// The shapes of policy templates: typed parameters, a template's definition, and what creating a draft returns.
import type { Diagnostic } from '../../source/diagnostic.ts';
import type { ExampleSuite } from '../policy-tests.ts';
import type { PolicyDocument } from '../types.ts';

/** How a parameter's string is read (it arrives as text, e.g. from the CLI's `--param k=v`). */
export type ParameterType = 'currency' | 'amount' | 'integer' | 'patterns';

/** What each parameter type is once read and normalised. */
export interface ParameterValueTypes {
  /** An ISO 4217 code of three uppercase letters. */
  currency: string;
  /** A normalised non-negative decimal string, at most 10^15. */
  amount: string;
  /** A whole number from 60 to 2592000 (an approval lifetime in seconds). */
  integer: number;
  /** Action patterns, trimmed and de-duplicated in their given order. */
  patterns: string[];
}

export type ParameterValue = ParameterValueTypes[ParameterType];

/** One parameter a template accepts; omitted, it takes `default`. */
export interface TemplateParameter<N extends string = string, T extends ParameterType = ParameterType> {
  readonly name: N;
  readonly type: T;
  readonly description: string;
  /** The value used when the parameter is omitted, written as a caller would write it. */
  readonly default: string;
}

/** The values of a template's parameters, keyed by name and typed by parameter type. */
export type ParameterValues<P extends readonly TemplateParameter[]> = {
  [K in P[number] as K['name']]: ParameterValueTypes[K['type']];
};

/** The largest amount a template accepts, and the maximum to grant the agent's delegation. */
export interface MaxAmount {
  value: string;
  currency: string;
}

/** What to grant the agent's delegation, which stays the hard limit whatever the policy says. */
export interface DelegationHint {
  /** The action patterns the agent needs: those of the document's allow and require_approval rules. */
  permissions: string[];
  /** For amount templates: the upper limit. */
  max_amount?: MaxAmount;
}

/** What a template's builder produces from validated values. */
export interface TemplateBuild {
  document: PolicyDocument;
  examples: ExampleSuite;
  /** One line per rule id. */
  notes: Record<string, string>;
  maxAmount?: MaxAmount;
}

/** A template's public description, as `listTemplates` shows it. */
export interface TemplateInfo {
  /** A kebab-case id such as `support-refunds`. */
  readonly name: string;
  readonly title: string;
  /** One line. */
  readonly description: string;
  readonly parameters: readonly TemplateParameter[];
}

/** A template: its description, its parameters' constraints, and its builder. */
export interface Template extends TemplateInfo {
  /** Pairs of amount parameters [lower, upper]: the lower must be strictly below the upper (PARAMETER_ORDER). */
  readonly ordered: readonly (readonly [string, string])[];
  /** Action patterns the document uses itself; no patterns parameter may overlap them or another patterns parameter. */
  readonly actions: readonly string[];
  /** Builds the draft from validated, normalised values; `createFromTemplate` is the way to call it. */
  build(values: Readonly<Record<string, ParameterValue>>): TemplateBuild;
}

/** A draft created from a template, or every problem with the parameters. */
export type TemplateResult =
  | {
      ok: true;
      template: string;
      /** Every parameter's normalised value, given or default, as text. */
      parameters: Record<string, string>;
      document: PolicyDocument;
      examples: ExampleSuite;
      notes: Record<string, string>;
      delegation: DelegationHint;
    }
  | { ok: false; errors: Diagnostic[] };
