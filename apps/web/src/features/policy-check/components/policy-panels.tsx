// The policy editor's side panels: the rules with their effects, and the example calls run live.
import { useEffect } from 'react';
import { registerPolicySchema } from '../register-policy-schema.ts';
import { ExamplesPanel } from './examples-panel.tsx';
import { RulePanel } from './rule-panel.tsx';

interface PolicyPanelsProps {
  id: string;
  text: string;
  /** Whether the member may store the policy's example suite. */
  canSave: boolean;
  onReveal: (line: number, column: number) => void;
}

export function PolicyPanels({ id, text, canSave, onReveal }: PolicyPanelsProps) {
  useEffect(() => {
    // Completion and hover are a help, not a need: without the schema the editor still works.
    registerPolicySchema().catch(() => undefined);
  }, []);
  return (
    <>
      <RulePanel text={text} onReveal={onReveal} />
      <ExamplesPanel id={id} text={text} canSave={canSave} />
    </>
  );
}
