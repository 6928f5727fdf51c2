/**
 * The web origins an App-Id may be used from. An origin is exactly `scheme://host[:port]`, as a
 * browser sends it in the Origin header: lower case, no path, no trailing slash, no wildcard, so
 * the check at request time is a plain string comparison with nothing to normalise or escape.
 */
export const MAX_ORIGINS = 20;

const HTTPS_ORIGIN = /^https:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::[1-9][0-9]{0,4})?$/;
// Plain http only for a developer's own machine, and only in sandbox mode.
const LOCAL_ORIGIN = /^http:\/\/(?:localhost|127\.0\.0\.1)(?::[1-9][0-9]{0,4})?$/;

export type OriginsCheck = { ok: true; origins: string[] } | { ok: false; problem: string };

function portOk(origin: string): boolean {
  const port = /:(\d+)$/.exec(origin)?.[1];
  return port === undefined || Number(port) <= 65535;
}

/** Checks a list typed by a person or passed to the key tool; duplicates are dropped, order kept. */
export function checkOrigins(input: readonly string[], opts: { sandbox: boolean }): OriginsCheck {
  const origins = [...new Set(input)];
  if (origins.length > MAX_ORIGINS) return { ok: false, problem: `At most ${MAX_ORIGINS} origins per App-Id.` };
  for (const o of origins) {
    const fits = o.length <= 300 && (HTTPS_ORIGIN.test(o) || (opts.sandbox && LOCAL_ORIGIN.test(o))) && portOk(o);
    if (!fits) {
      const allowed = opts.sandbox ? 'https://host[:port] (or http://localhost / http://127.0.0.1)' : 'https://host[:port]';
      return { ok: false, problem: `"${o.slice(0, 80)}" is not an origin: write it as ${allowed}, lower case, without a path or a trailing slash.` };
    }
  }
  return { ok: true, origins };
}

/**
 * Whether a request with this Origin header may use an App-Id with these origins. No list: any
 * origin. No Origin header: allowed, since only browsers send (and guarantee) it; a native wallet
 * sends none, and the App-Id is public anyway, so the list stops other web sites, not other apps.
 */
export function originAllowed(allowed: readonly string[] | undefined, origin: string | undefined): boolean {
  if (!allowed?.length || origin === undefined) return true;
  return allowed.includes(origin);
}
