// The sample the console opens with: the refunds policy of examples/refunds.policy.json (docs/policy.md, "The
// document").

/** A valid revision-1 policy: read orders freely, refunds by amount, never payouts or exports. */
export const SAMPLE_POLICY = `{
  "schema": "tollgate/policy@1",
  "default": "deny",
  "rules": [
    {
      "id": "read-orders",
      "actions": ["orders.read", "orders.search"],
      "effect": "allow"
    },
    {
      "id": "refund-over-limit",
      "actions": ["refund.issue"],
      "amount": { "currency": "USD", "gt": "1000" },
      "effect": "deny"
    },
    {
      "id": "refund-approval",
      "actions": ["refund.issue"],
      "amount": { "currency": "USD", "gt": "100", "lte": "1000" },
      "effect": "require_approval",
      "approvers": { "roles": ["owner", "admin", "approver"] },
      "approval_ttl_seconds": 14400
    },
    {
      "id": "refund-auto",
      "actions": ["refund.issue"],
      "amount": { "currency": "USD", "lte": "100" },
      "effect": "allow"
    },
    {
      "id": "never",
      "actions": ["payouts.*", "customers.export"],
      "effect": "deny"
    }
  ]
}
`;
