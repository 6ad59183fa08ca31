// Real OpenID providers for the identity tests: oauth2-mock-server on loopback, each with an RSA key of its own,
// and the tokens they sign (docs/security.md, "Signing in through an identity provider").
import { createServer, type Server } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';
import { createIdentity, type Identity } from '../src/server/identity/identity.ts';
import { readIdentityConfig } from '../src/server/identity/identity-config.ts';

/** A started provider: its issuer URL, and tokens it signs with the claims given (exp 5 minutes on unless given). */
export interface Provider {
  server: OAuth2Server;
  issuer: string;
  token(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  stop(): Promise<void>;
}

/** Starts a provider on a free loopback port. */
export async function startProvider(): Promise<Provider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const issuer = server.issuer.url as string;
  return {
    server,
    issuer,
    token: (claims, header = {}) =>
      server.issuer.buildToken({
        scopesOrTransform: (h, payload) => {
          Object.assign(h, header);
          Object.assign(payload, claims);
        },
      }),
    stop: () => (server.listening ? server.stop() : Promise.resolve()),
  };
}

/** The identity of a server at `url` from a configuration's JSON text, read as `serve --identity` reads it. */
export function identityFrom(json: unknown, fetchTimeoutMs?: number): Identity {
  const read = readIdentityConfig(JSON.stringify(json));
  if (!read.ok) throw new Error(`the test's identity configuration does not read: ${JSON.stringify(read.problems)}`);
  return createIdentity(read.config, fetchTimeoutMs === undefined ? {} : { fetchTimeoutMs });
}

/** A TCP server on loopback that accepts connections and never answers: an issuer that hangs. */
export async function silentIssuer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A token's segments with its payload replaced by `edit` of it, the signature kept. */
export function withPayload(token: string, edit: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  edit(claims);
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}
