// The shared confirmation button, its errors shown with the rules at fault.
import type { ComponentProps } from 'react';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { RulesetError } from './ruleset-error.tsx';

export function ConfirmStep(props: Omit<ComponentProps<typeof ConfirmButton>, 'className' | 'renderError'>) {
  return <ConfirmButton {...props} className="confirm-step" renderError={(error) => <RulesetError error={error} />} />;
}
