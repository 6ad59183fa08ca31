// Policy texts the journeys type into the console.

/** The refunds policy the console opens with (revision 1). */
export const REFUNDS_POLICY = `{
  "schema": "tollgate/policy@1",
  "default": "deny",
  "rules": [
    { "id": "read-orders", "actions": ["orders.read", "orders.search"], "effect": "allow" },
    { "id": "never", "actions": ["payouts.*", "customers.export"], "effect": "deny" }
  ]
}`;

/** A document with one rule in it, in a valid frame. */
export function policyWithRule(rule: string, defaultEffect = 'deny'): string {
  return `{
  "schema": "tollgate/policy@1",
  "default": "${defaultEffect}",
  "rules": [
    ${rule}
  ]
}`;
}
