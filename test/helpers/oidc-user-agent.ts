/**
 * A minimal browser for protocol tests: plain HTTP requests with a cookie jar that honours
 * cookie paths, following the provider's redirects and filling in its login and consent forms
 * the way a person would (reading the CSRF token from the page).
 */
interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

export interface PageResponse {
  status: number;
  url: string;
  location: string | null;
  headers: Headers;
  body: string;
}

export class OidcUserAgent {
  readonly origin: string;
  private cookies: StoredCookie[] = [];

  constructor(origin: string) {
    this.origin = origin;
  }

  private remember(response: Response, url: URL): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const pathAttribute = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const path = pathAttribute ? pathAttribute.slice(5) : url.pathname.replace(/\/[^/]*$/, '') || '/';
      const expired = attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()) || attributes.some((a) => /^max-age=0$/i.test(a));
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (!expired && value !== '') this.cookies.push({ name, value, path });
    }
  }

  cookieHeader(url: URL): string {
    return this.cookies
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  hasCookie(name: string): boolean {
    return this.cookies.some((c) => c.name === name);
  }

  async request(target: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<PageResponse> {
    const url = new URL(target, this.origin);
    const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
    const cookie = this.cookieHeader(url);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    this.remember(response, url);
    const location = response.headers.get('location');
    return {
      status: response.status,
      url: url.href,
      location: location ? new URL(location, url).href : null,
      headers: response.headers,
      body: await response.text(),
    };
  }

  /** Follows redirects while they stay on the provider; returns the first response that is not one. */
  async follow(target: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<PageResponse> {
    let response = await this.request(target, init);
    while (response.location && response.status >= 300 && response.status < 400 && new URL(response.location).origin === this.origin) {
      response = await this.request(response.location);
    }
    return response;
  }
}

export function csrfTokenOf(page: PageResponse): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page.body);
  if (!match?.[1]) throw new Error(`no CSRF token on the page ${page.url} (status ${page.status})`);
  return match[1];
}

export const isLoginPage = (page: PageResponse) => page.status === 200 && /action="\/interaction\/[^"]+\/login"/.test(page.body);
export const isConsentPage = (page: PageResponse) => page.status === 200 && /action="\/interaction\/[^"]+\/confirm"/.test(page.body);

/**
 * Opens the authorization URL and signs in (and consents) as a person would. Returns the response
 * that leaves the provider: normally the redirect to the relying party's redirect URI.
 */
export async function signInThroughPages(
  agent: OidcUserAgent,
  authorizationUrl: string,
  person: { account: string; password: string },
  options: { consent?: 'allow' | 'deny'; onConsentPage?: (page: PageResponse) => void } = {},
): Promise<PageResponse> {
  let page = await agent.follow(authorizationUrl);
  for (let step = 0; step < 4; step += 1) {
    if (isLoginPage(page)) {
      const action = /action="(\/interaction\/[^"]+\/login)"/.exec(page.body)![1]!;
      page = await agent.follow(action, { form: { csrf: csrfTokenOf(page), account: person.account, password: person.password } });
    } else if (isConsentPage(page)) {
      options.onConsentPage?.(page);
      const uid = /action="\/interaction\/([^"/]+)\/confirm"/.exec(page.body)![1]!;
      const verb = options.consent === 'deny' ? 'abort' : 'confirm';
      page = await agent.follow(`/interaction/${uid}/${verb}`, { form: { csrf: csrfTokenOf(page) } });
    } else {
      return page;
    }
  }
  return page;
}
