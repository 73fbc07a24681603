/** Query parameters whose values are secrets (OAuth codes and states, tokens). */
const SECRET_PARAMS = /^(code|state|token|access_token|refresh_token|code_verifier|client_secret|hm)$/i;

/** The URL with secret query values replaced, for logs. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...new Set(params.keys())]) {
    if (SECRET_PARAMS.test(key)) {
      params.set(key, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}
