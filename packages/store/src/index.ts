// The document store lands with issue 4; the workspace exists so later issues have a home.
export const STORE_FORMAT_VERSION = 1;
