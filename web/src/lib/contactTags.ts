import { useQuery } from '@tanstack/react-query'
import { api } from './api'

/**
 * A tag of a phonebook send's text: `{keyword}` takes the contact's field
 * (docs/api-sending.md «Personalised phonebook sends»); `aliases` are the other
 * spellings the server accepts (Persian names, a feature's Persian title).
 */
export interface ContactTag {
  keyword: string
  label: string
  aliases: string[]
}

/** The fields every contact has: name, salutation by gender, mobile, Jalali birth date. */
export const FIXED_CONTACT_TAGS: ContactTag[] = [
  { keyword: 'name', label: 'نام', aliases: ['نام'] },
  { keyword: 'title', label: 'عنوان (آقای / خانم)', aliases: ['عنوان'] },
  { keyword: 'mobile', label: 'موبایل', aliases: ['موبایل'] },
  { keyword: 'birth_date', label: 'تاریخ تولد (شمسی)', aliases: ['تاریخ_تولد'] },
]

interface FeatureRow {
  id: number | string
  title_fa: string
  title_en: string
  type: string
  enabled: boolean
}

/** The account's custom features (GET /phonebooks/options), read once for the tags and the date fields. */
function useFeatureRows<T>(select: (rows: FeatureRow[]) => T) {
  return useQuery({
    queryKey: ['phonebooks', 'contact-tags'],
    queryFn: async ({ signal }) => (await api.page<FeatureRow>('/phonebooks/options', { page: 1, limit: 100 }, signal)).rows,
    select,
    staleTime: 60_000,
  })
}

const tagsOf = (rows: FeatureRow[]): ContactTag[] => [
  ...FIXED_CONTACT_TAGS,
  ...rows.filter((f) => f.enabled).map((f) => ({ keyword: f.title_en, label: f.title_fa, aliases: [f.title_fa] })),
]

/** The tags of the account's contacts: the fixed fields, then each enabled custom feature. */
export const useContactTags = () => useFeatureRows(tagsOf)

/** A date of the contacts an occasion may follow: `birth_date`, or `feature:<id>` of a date feature. */
export interface DateField {
  value: string
  label: string
}

const dateFieldsOf = (rows: FeatureRow[]): DateField[] => [
  { value: 'birth_date', label: 'تاریخ تولد' },
  ...rows.filter((f) => f.type === 'date').map((f) => ({ value: `feature:${f.id}`, label: f.title_fa })),
]

/** The contacts' dates an occasion message may follow (docs/campaigns.md). */
export const useDateFields = () => useFeatureRows(dateFieldsOf)

const TAG = /\{([^{}\n]{1,40})\}/g

/** The first `{tag}` of text that names no contact field (as written), or null. */
export function unknownContactTag(text: string, tags: ContactTag[]): string | null {
  const known = new Set(tags.flatMap((t) => [t.keyword.toLowerCase(), ...t.aliases]))
  for (const m of text.matchAll(TAG)) {
    const name = m[1].trim()
    if (!known.has(name) && !known.has(name.toLowerCase())) return m[0]
  }
  return null
}

/** Whether text names any contact tag (the send is personalised per contact). */
export const hasContactTags = (text: string) => /\{[^{}\n]{1,40}\}/.test(text)

/** The server's message for an unknown tag (pkg/send MsgUnknownTag). */
export function unknownTagMessage(tag: string, tags: ContactTag[]): string {
  return `برچسب «${tag}» در دفترچه تلفن تعریف نشده است؛ برچسب‌های قابل استفاده: ${tags.map((t) => `{${t.keyword}}`).join('، ')}`
}
