// How deep JSON the server reads may nest, in a request's body (exact-body.ts) and read back from its own state
// (state/stored-json.ts): apart from body-limit.ts, so the state's pure models can read stored JSON without the
// request layer.

/**
 * How deep a request body may nest: the 64 levels a call's arguments may have (call-request.ts) and the
 * deepest envelope around them (a simulation's `{calls: [{arguments}]}`), with room to spare.
 */
export const MAX_BODY_DEPTH = 72;
