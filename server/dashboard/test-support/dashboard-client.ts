/**
 * A browser's view of the dashboard for HTTP tests: a cookie jar, forms posted as
 * application/x-www-form-urlencoded with the page's CSRF token, redirects not followed (the
 * tests look at them).
 */
export interface DashResponse {
  status: number;
  text: string;
  headers: Headers;
}

export function dashboardClient(baseUrl: string, defaults: Record<string, string> = {}) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let csrf = '';

  async function request(method: string, path: string, opts: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<DashResponse> {
    const headers: Record<string, string> = { ...defaults, ...opts.headers };
    if (jar.size) headers.Cookie = cookieHeader();
    let body: string | undefined;
    if (opts.form) {
      body = new URLSearchParams(opts.form).toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(baseUrl + path, { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, eq), pair!.slice(eq + 1)];
      if (/Max-Age=0/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text);
    if (token) csrf = token[1]!;
    return { status: res.status, text, headers: res.headers };
  }

  return {
    jar,
    get: (path: string, headers?: Record<string, string>) => request('GET', path, headers ? { headers } : {}),
    /** Posts a form with the last CSRF token seen (unless the form brings its own `_csrf`). */
    post: (path: string, form: Record<string, string> = {}, headers?: Record<string, string>) =>
      request('POST', path, { form: { _csrf: csrf, ...form }, ...(headers ? { headers } : {}) }),
    get csrf() {
      return csrf;
    },
    async signIn(email: string, password: string, headers?: Record<string, string>): Promise<DashResponse> {
      await request('GET', '/dashboard/sign-in', headers ? { headers } : {});
      return request('POST', '/dashboard/sign-in', { form: { _csrf: csrf, email, password }, ...(headers ? { headers } : {}) });
    },
  };
}
