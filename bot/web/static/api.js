// The bot's web API (same origin): JSON in, JSON out, the session as a bearer token.
// A refusal comes back as {error, message}: the code for the page to act on, the message
// already in the player's language for the page to show.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

export class Api {
  constructor() {
    this.session = null;
  }

  async call(method, path, body) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.session) headers.Authorization = `Bearer ${this.session}`;
    let response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      throw new ApiError(0, 'network', '');
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (!response.ok) {
      throw new ApiError(response.status, data?.error || 'http_' + response.status, data?.message || '');
    }
    return data;
  }
}
