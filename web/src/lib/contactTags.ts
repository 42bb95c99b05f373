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
  title_fa: string
  title_en: string
  type: string
  enabled: boolean
}

/** The tags of the account's contacts: the fixed fields, then each enabled custom feature. */
export function useContactTags() {
  return useQuery({
    queryKey: ['phonebooks', 'contact-tags'],
    queryFn: async ({ signal }) => {
      const page = await api.page<FeatureRow>('/phonebooks/options', { page: 1, limit: 100 }, signal)
      const features = page.rows.filter((f) => f.enabled).map((f) => ({ keyword: f.title_en, label: f.title_fa, aliases: [f.title_fa] }))
      return [...FIXED_CONTACT_TAGS, ...features]
    },
    staleTime: 60_000,
  })
}

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
