/** react-query keys shared by features and the live-event bridge. */
export const queryKeys = {
  me: ['auth', 'me'] as const,
  credit: ['credit'] as const,
  numbers: ['numbers'] as const,
  reports: ['reports'] as const,
  reportList: (params: Record<string, unknown>) => ['reports', 'list', params] as const,
  report: (id: string | number) => ['report', String(id)] as const,
  recipients: (id: string | number, params: Record<string, unknown>) =>
    ['report', String(id), 'recipients', params] as const,
  loginSetting: ['auth', 'login-setting'] as const,
  /** GET /user/setting: the profile's settings page and the send forms' «لغو۱۱» default. */
  accountSettings: ['profile', 'settings'] as const,
}
