// Tollgate's version, read once from the API's package.json: what each deciding node registers (state/nodes/)
// and names when it holds a document back (docs/deploy.md, "The language gate").
import packageJson from '../../package.json' with { type: 'json' };

/** Tollgate's version, as each deciding node registers it. */
export const TOLLGATE_VERSION: string = packageJson.version;
