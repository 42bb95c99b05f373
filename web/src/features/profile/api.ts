import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError, api, buildUrl } from '../../lib/api'
import { getToken } from '../../lib/auth'
import { queryKeys } from '../../lib/queryKeys'

export { useSenderLines, type SenderLine } from '../../lib/lines'

const KEY = ['profile'] as const

export type PersonType = 'real' | 'legal'
export type Section = 'personal' | 'contact' | 'address'

/** The profile's fields (spec §3 Profile); '' is unset. */
export interface Details {
  first_name: string
  last_name: string
  first_name_en: string
  last_name_en: string
  national_code: string
  father_name: string
  birth_place: string
  birth_date: string
  gender: string
  company_name: string
  company_name_en: string
  registration_number: string
  economic_number: string
  company_national_id: string
  ceo_name: string
  ceo_national_code: string
  email: string
  city_code: string
  landline: string
  website: string
  province: string
  city: string
  address: string
  postal_code: string
}

/** GET /user/show_profile. */
export interface Profile {
  person_type: PersonType
  details: Details
  has_logo: boolean
  username: string
  name: string
  mobile: string
  is_owner: boolean
  plan: string
  complete: boolean
  updated_at: string
  documents: Record<string, number>
}

export interface ProfileDocument {
  id: number
  kind: string
  kind_title: string
  file_name: string
  file_type: string
  file_size: number
  status: 'pending' | 'approved' | 'rejected'
  reason: string
  created_at: string
  decided_at: string | null
}

export interface Session {
  id: number
  ip: string
  user_agent: string
  created_at: string
  expires_at: string
  current: boolean
  staff?: string
}

export interface TwoStep {
  enabled: boolean
  method: 'sms' | 'voice' | 'app'
  app_enabled: boolean
  methods: string[]
}

export interface QR {
  secret: string
  otpauth_url: string
  qr_image: string
}

export interface StepUp {
  otp_token: string
  resend_after: number
  mobile_hint: string
  change_id?: number
}

export interface MobileChange {
  id: number
  old_mobile: string
  new_mobile: string
  status: 'verifying' | 'pending' | 'approved' | 'rejected' | 'cancelled'
  reason: string
  created_at: string
  decided_at: string | null
}

export interface EncodingPrice {
  encoding: 'gsm7' | 'ucs2'
  single_part_chars: number
  multi_part_chars: number
  one_part: number
  two_parts: number
}

export interface OperatorTariff {
  operator: string
  title: string
  part_price: number
  surcharge_pct: number
  send_fee: number
  encodings: EncodingPrice[]
}

export interface Tariffs {
  operators: OperatorTariff[]
  charity_pct: number
  cancel11_chars: number
}

export interface Calculation {
  parts: number
  encoding: 'gsm7' | 'ucs2'
  characters: number
  chars_left: number
  count: number
  prices: { operator: string; title: string; each: number; total: number }[]
}

export interface Settings {
  cancel11_default: boolean
}

/** The support service's setting of the SMS on a staff answer (GET/POST /ticket/settings). */
export interface TicketNotice {
  sms_on_answer: boolean
}

export interface LowBalance {
  enabled: boolean
  threshold: number
  minimum: number
  balance: number
}

export interface Plan {
  code: string
  title: string
  lines: number
  colleagues: number
  api_keys: number
  files_mb: number
  services: string[]
}

export interface Facility {
  code: string
  title: string
  detail: string
  available: boolean
  min_plan: string
}

export interface PlanInfo {
  current: Plan
  plans: Plan[]
  facilities: Facility[]
  usage: { lines: number; colleagues: number; api_keys: number; files_bytes: number }
}

const get = <T,>(path: string) => () => api.get<T>(path)

export const useProfile = () => useQuery({ queryKey: [...KEY, 'show'], queryFn: get<Profile>('/user/show_profile') })
export const useDocuments = () =>
  useQuery({ queryKey: [...KEY, 'documents'], queryFn: get<{ documents: ProfileDocument[]; kinds: Record<string, string> }>('/user/documents') })
export const useSessions = () => useQuery({ queryKey: [...KEY, 'sessions'], queryFn: get<Session[]>('/user/sessions') })
export const useTwoStep = () => useQuery({ queryKey: [...KEY, '2fa'], queryFn: get<TwoStep>('/user/2fa') })
export const useMobileChange = () =>
  useQuery({ queryKey: [...KEY, 'mobile'], queryFn: get<MobileChange>('/user/change_mobile'), retry: false })
export const useTariffs = () => useQuery({ queryKey: [...KEY, 'tariffs'], queryFn: get<Tariffs>('/user/get_tariff') })
export const useSettings = () => useQuery({ queryKey: queryKeys.accountSettings, queryFn: get<Settings>('/user/setting') })
export const useTicketNotice = () => useQuery({ queryKey: [...KEY, 'ticket-notice'], queryFn: get<TicketNotice>('/ticket/settings') })
export const useLowBalance = () => useQuery({ queryKey: [...KEY, 'low-balance'], queryFn: get<LowBalance>('/user/setting/low_balance') })
export const usePlan = () => useQuery({ queryKey: [...KEY, 'plan'], queryFn: get<PlanInfo>('/user/plan') })

/** The account's logo as an object URL (null when none is set). */
export const useLogo = (has: boolean | undefined, version: string | undefined) =>
  useQuery({
    queryKey: [...KEY, 'logo', version],
    enabled: !!has,
    staleTime: Infinity,
    queryFn: async () => {
      const res = await fetch(buildUrl('/user/profile/logo'), { headers: { Authorization: `Bearer ${getToken() ?? ''}` } })
      if (!res.ok) throw new ApiError({ status: res.status })
      return URL.createObjectURL(await res.blob())
    },
  })

/** A profile mutation that refreshes every profile query on success. */
function useProfileMutation<In, Out>(fn: (input: In) => Promise<Out>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }) })
}

const form = (fields: Record<string, string | File>) => {
  const f = new FormData()
  for (const [k, v] of Object.entries(fields)) f.append(k, v)
  return f
}

export const useUpdateProfile = () =>
  useProfileMutation((b: { section: Section; person_type?: PersonType; details: Partial<Details> }) => api.post<Profile>('/user/update_profile', b))
export const useUploadLogo = () => useProfileMutation((file: File) => api.post<{ done: boolean }>('/user/profile/logo', form({ logo: file })))
export const useUploadDocument = () =>
  useProfileMutation((b: { kind: string; file: File }) => api.post<ProfileDocument>('/user/documents/upload', form(b)))
export const useRemoveDocument = () => useProfileMutation((id: number) => api.post<{ done: boolean }>('/user/documents/remove', { id }))
export const useChangePassword = () =>
  useProfileMutation((b: { current_password: string; password: string; password_confirmation: string }) =>
    api.post<{ done: boolean }>('/user/change_password', b),
  )
export const useRevokeSession = () => useProfileMutation((id: number) => api.post<{ done: boolean }>(`/user/sessions/${id}/revoke`))
export const useRevokeAll = () =>
  useProfileMutation((includeCurrent: boolean) => api.post<{ done: boolean }>('/user/sessions/revoke_all', { include_current: includeCurrent }))
export const useShowQR = () => useMutation({ mutationFn: () => api.get<QR>('/user/2fa/show_qr') })
export const useEnableTwoStep = () =>
  useProfileMutation((b: { method: string; code?: string }) => api.post<{ done: boolean }>('/user/2fa/enable', b))
export const useDisableTwoStep = () => useProfileMutation((password: string) => api.post<null>('/user/2fa/disable', { password }))
export const useRequestMobileChange = () => useProfileMutation(() => api.post<StepUp>('/user/change_mobile/request_change_otp'))
export const useConfirmOldMobile = () =>
  useProfileMutation((b: { otp_token: string; code: string; new_mobile: string }) => api.post<StepUp>('/user/change_mobile/confirm_change_otp', b))
export const useConfirmNewMobile = () =>
  useProfileMutation((b: { change_id: number; otp_token: string; code: string }) =>
    api.post<MobileChange>('/user/change_mobile/confirm_new_mobile', b),
  )
export const useCancelMobileChange = () => useProfileMutation(() => api.post<{ done: boolean }>('/user/change_mobile/cancel'))
export const useCalculate = () =>
  useMutation({ mutationFn: (b: { text: string; cancel11: boolean; count: number }) => api.post<Calculation>('/user/get_tariff/calculate', b) })
export const useSaveSettings = () => useProfileMutation((b: Settings) => api.post<Settings>('/user/setting', b))
export const useSaveTicketNotice = () => useProfileMutation((b: TicketNotice) => api.post<TicketNotice>('/ticket/settings', b))
export const useSaveLowBalance = () =>
  useProfileMutation((b: { enabled: boolean; threshold: number }) => api.post<LowBalance>('/user/setting/low_balance', b))
export const useSetDefaultLine = () => useProfileMutation((id: number | string) => api.post<unknown>('/numbers/defaults/upsert', { id: Number(id) }))
