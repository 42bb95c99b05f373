/**
 * The device token (docs/auth.md «Device tokens»): the API hands it over with every
 * session a login opens; the panel keeps it in localStorage across logouts and sends it
 * with every login, code login and code confirmation, so that this browser is not shut
 * out when strangers guess at the username, and its codes come from a budget they cannot
 * use up. One browser keeps one token, whoever logs in with it.
 */
export const DEVICE_TOKEN_KEY = 'device_token'

export function getDeviceToken(): string {
  try {
    return localStorage.getItem(DEVICE_TOKEN_KEY) ?? ''
  } catch {
    return ''
  }
}

/** Keeps the device token of an answer that carries one, and returns the answer. */
export function keepDeviceToken<T>(answer: T): T {
  const token = (answer as { device_token?: unknown } | null)?.device_token
  if (typeof token === 'string' && token) {
    try {
      localStorage.setItem(DEVICE_TOKEN_KEY, token)
    } catch {
      // storage refused (private mode): the next login simply is not trusted
    }
  }
  return answer
}

/** The request body with this browser's device token added. */
export function withDeviceToken<T extends object>(body: T): T & { device_token?: string } {
  const device_token = getDeviceToken()
  return device_token ? { ...body, device_token } : body
}
