// defineTemplate: a template whose builder sees its parameters' values typed by name and type.
import type { ParameterValues, Template, TemplateBuild, TemplateParameter } from './types.ts';

type AmountName<P extends readonly TemplateParameter[]> = Extract<P[number], { type: 'amount' }>['name'];

/** A template definition, typed by its own parameter list. */
export interface TemplateDefinition<P extends readonly TemplateParameter[]> {
  name: string;
  title: string;
  description: string;
  parameters: P;
  ordered?: readonly (readonly [AmountName<P>, AmountName<P>])[];
  actions: readonly string[];
  build(values: ParameterValues<P>): TemplateBuild;
}

/**
 * Declares a template; `build` receives values already validated and normalised by `createFromTemplate`.
 *
 * @example
 * defineTemplate({ name: 'x', title: 'X', description: '...', actions: [], parameters: [
 *   { name: 'currency', type: 'currency', description: 'Currency', default: 'USD' },
 * ] as const, build: ({ currency }) => ... })
 */
export function defineTemplate<const P extends readonly TemplateParameter[]>(definition: TemplateDefinition<P>): Template {
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    parameters: definition.parameters,
    ordered: definition.ordered ?? [],
    actions: definition.actions,
    build: (values) => definition.build(values as unknown as ParameterValues<P>),
  };
}
