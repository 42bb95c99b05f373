/**
 * SMS part counter, the same rules as the Go server (pkg/sms): GSM 03.38 default alphabet plus
 * its extension table (two septets each), otherwise UCS-2 counted in UTF-16 units. A message
 * fits one part up to 160 septets (GSM-7) or 70 units (UCS-2); longer ones use parts of 153 or
 * 67, filled greedily without splitting an escape pair or a surrogate pair.
 */

export type SmsEncoding = 'gsm7' | 'ucs2'

export interface SegmentCount {
  encoding: SmsEncoding
  /** Units of the whole message (septets for GSM-7, UTF-16 units for UCS-2), footer included. */
  characters: number
  parts: number
  /** Units still free in the last part. */
  chars_left: number
}

/** The cancel-11 opt-out footer (6 characters, Persian, so it forces UCS-2). */
export const CANCEL11_FOOTER = '\nلغو۱۱'
/** Maximum characters of the user's text (the footer is not counted). */
export const MAX_TEXT = 2700

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà'
const GSM_EXTENSION = '\f^{}\\[~]|€'

const BASIC = new Set(GSM_BASIC)
const EXTENSION = new Set(GSM_EXTENSION)

const LIMITS = {
  gsm7: { single: 160, multi: 153 },
  ucs2: { single: 70, multi: 67 },
} as const

/** True when every character is in the GSM 03.38 default alphabet or its extension table. */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) return false
  return true
}

/** Units of each indivisible piece: 1 or 2 septets, or 1 or 2 UTF-16 units (surrogate pair). */
function weights(text: string, encoding: SmsEncoding): number[] {
  const out: number[] = []
  for (const ch of text) out.push(encoding === 'gsm7' ? (EXTENSION.has(ch) ? 2 : 1) : ch.length)
  return out
}

/** Counts encoding, units, parts and units left for a message (and the cancel-11 footer). */
export function countSegments(text: string, cancel11 = false): SegmentCount {
  const full = cancel11 ? text + CANCEL11_FOOTER : text
  const encoding: SmsEncoding = isGsm7(full) ? 'gsm7' : 'ucs2'
  const w = weights(full, encoding)
  const characters = w.reduce((a, b) => a + b, 0)
  const { single, multi } = LIMITS[encoding]
  if (characters === 0) return { encoding, characters, parts: 0, chars_left: single }
  if (characters <= single) return { encoding, characters, parts: 1, chars_left: single - characters }
  let parts = 1
  let used = 0
  for (const unit of w) {
    if (used + unit > multi) {
      parts++
      used = 0
    }
    used += unit
  }
  return { encoding, characters, parts, chars_left: multi - used }
}
