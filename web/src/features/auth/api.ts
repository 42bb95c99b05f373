import { useQuery } from '@tanstack/react-query'
import { api, request } from '../../lib/api'
import { keepDeviceToken, withDeviceToken } from '../../lib/device'
import { queryKeys } from '../../lib/queryKeys'
import { fetchMe, type Me } from '../../lib/me'

export type OtpMethod = 'sms' | 'voice' | 'app'

export interface LoginSetting {
  title?: string
  description?: string
}

export type LoginResult =
  | { token: string; device_token?: string; otp_required?: false }
  | {
      otp_required: true
      login_token: string
      methods?: OtpMethod[]
      resend_after?: number
      method?: OtpMethod
      mobile_hint?: string
      /** A code login's answer: the same neutral text for every name, no mobile digits. */
      message?: string
      token?: undefined
    }

/** A session a code opened, with the browser's device token. */
export interface Opened {
  token: string
  device_token?: string
}

export const authApi = {
  loginSetting: () => api.get<LoginSetting>('/acl/auth/login_setting'),
  login: (body: { username: string; password: string }) =>
    api.post<LoginResult>('/acl/auth/login', withDeviceToken(body)).then(keepDeviceToken),
  /** Code login: `username` is a username or a mobile; the answer is the same for every name. */
  loginByCode: (username: string) => api.post<LoginResult>('/acl/auth/login_otp', withDeviceToken({ username })),
  /** Resends a code: of a login (login_token), a reset (reset_token) or a sign-up (verify_token). */
  sendOtp: (body: ({ login_token: string } | { reset_token: string } | { verify_token: string }) & { method: OtpMethod }) =>
    api.post<{ resend_after?: number }>('/acl/auth/send_sms_otp', body),
  confirmOtp: (body: { login_token: string; code: string }) =>
    api.post<Opened>('/acl/auth/confirm_otp', withDeviceToken(body)).then(keepDeviceToken),
  checkToken: fetchMe,
  /** check_token whose 401 is reported to the caller (external login shows it). */
  verifyToken: async () => (await request<Me>('/acl/auth/check_token', { noAuthRedirect: true })).data,
  logout: () => api.post<unknown>('/acl/auth/logout'),
  register: (body: RegisterBody) => api.post<Registration>('/user/register', body),
  verifyRegistration: (body: { verify_token: string; code: string }) =>
    api.post<Opened>('/user/register/verify', withDeviceToken(body)).then(keepDeviceToken),
  checkExist: (username: string) => api.post<{ exists: boolean }>('/user/check_exist', { username }),
  forgotPassword: (username: string) =>
    api.post<{ reset_token: string; resend_after?: number; message?: string }>('/acl/auth/forgot_password', { username }),
  forgotCheckOtp: (body: { reset_token: string; code: string }) =>
    api.post<{ change_token: string }>('/acl/auth/forgot_password_check_otp', body),
  changePasswordByToken: (body: { change_token: string; password: string; password_confirmation: string }) =>
    api.post<unknown>('/acl/auth/change_password_by_token', body),
  /** Names the account an external-login code opens (the code stays unused). */
  previewExternal: (code: string) =>
    request<ExternalAccount>('/acl/auth/external_login/preview', { method: 'POST', body: { code }, noAuthRedirect: true }).then((r) => r.data),
  /** Uses up an external-login code for a session token. */
  exchangeExternal: (code: string) =>
    request<{ token: string }>('/acl/auth/external_login', { method: 'POST', body: { code }, noAuthRedirect: true }).then((r) => r.data),
}

/** The answer to a sign-up: the mobile still has to be proven with the texted code. */
export interface Registration {
  id: number
  username: string
  verification_required: boolean
  verify_token: string
  resend_after?: number
}

export interface ExternalAccount {
  username: string
  name: string
  account_name: string
}

export interface RegisterBody {
  name: string
  username: string
  mobile: string
  password: string
  password_confirmation: string
  accept_rules: boolean
}

export function useLoginSetting() {
  return useQuery({ queryKey: queryKeys.loginSetting, queryFn: authApi.loginSetting, staleTime: Infinity, retry: 1 })
}
