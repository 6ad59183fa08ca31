// SuiteBuilder: collects a template's example tools and calls into an ExampleSuite, tool names kept unique.
import type { DecisionCode } from '../evaluate.ts';
import type { ExampleCall, ExampleSuite } from '../policy-tests.ts';
import type { AmountMapping, Effect, ToolBinding } from '../types.ts';

/** Builds an example suite; a tool is added once however many calls use it. */
export class SuiteBuilder {
  private readonly tools: ToolBinding[] = [];
  private readonly examples: ExampleCall[] = [];

  /** Adds (or finds) a tool for `action`, named `name` unless another tool took it; returns the name to call. */
  tool(name: string, action: string, amount?: AmountMapping): string {
    const same = this.tools.find((t) => t.action === action && sameMapping(t.amount, amount));
    if (same) return same.name;
    let unique = name;
    for (let n = 2; this.tools.some((t) => t.name === unique); n++) unique = `${name.slice(0, 120)}-${n}`;
    this.tools.push(amount ? { name: unique, action, amount } : { name: unique, action });
    return unique;
  }

  /** Adds an example call expected to be decided by `rule` (null: the default, with code DEFAULT). */
  call(name: string, tool: string, args: Record<string, unknown> | null, decision: Effect, rule: string | null): void {
    const expect: ExampleCall['expect'] = rule === null ? { decision, rule: null, code: 'DEFAULT' } : { decision, rule, code: null };
    this.examples.push({ name, tool, arguments: args, expect });
  }

  /** Adds an example call refused before any rule, with `code`. */
  refusal(name: string, tool: string, args: Record<string, unknown>, code: DecisionCode): void {
    this.examples.push({ name, tool, arguments: args, expect: { decision: 'deny', rule: null, code } });
  }

  build(): ExampleSuite {
    return { tools: [...this.tools], examples: [...this.examples] };
  }
}

function sameMapping(a: AmountMapping | undefined, b: AmountMapping | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.pointer === b.pointer && a.currency === b.currency && a.currency_pointer === b.currency_pointer;
}
