import { onlyDigits, toLatinDigits } from './digits'
import { ALLOCATED_BLOCKS } from './numberingPlan'

/** An Iranian mobile number in the stored form 989xxxxxxxxx. */
export const MOBILE_PATTERN = /^989\d{9}$/
/** At most this many numbers are taken from one paste. */
export const PASTE_LIMIT = 1000

/**
 * Brings a typed or pasted number to the 98… form: Persian/Arabic digits become Latin,
 * separators go, +98 / 0098 / 98 prefixes are kept as 98, a leading 0 becomes 98 and anything
 * else gets 98 prepended.
 */
export function normalizeMobile(raw: string): string {
  const digits = onlyDigits(raw)
  if (!digits) return ''
  if (digits.length === 10 && digits.startsWith('9')) return `98${digits}`
  if (digits.startsWith('0098')) return digits.slice(2)
  if (digits.startsWith('98')) return digits
  if (digits.startsWith('0')) return `98${digits.slice(1)}`
  return `98${digits}`
}

/**
 * True for a number in the 98… form whose block is allocated to a mobile operator (the
 * server's numbering plan, generated into numberingPlan.ts): 0940…, 0950…, 0997… are not.
 */
export function isValidMobile(value: string): boolean {
  if (!MOBILE_PATTERN.test(value)) return false
  const block = Number(value.slice(3, 7))
  return ALLOCATED_BLOCKS.some(([from, to]) => block >= from && block <= to)
}

export interface PasteResult {
  /** Valid, distinct numbers in 98… form, in paste order. */
  correct: string[]
  /** Entries that are not a valid mobile number, as pasted (trimmed, Latin digits). */
  wrong: string[]
  /** Valid numbers that appeared earlier in the paste or are already in `existing`. */
  repeated: string[]
  /** True when the paste held more than PASTE_LIMIT entries and the rest were ignored. */
  truncated: boolean
}

/** Splits pasted text on newlines and commas and sorts the numbers into correct, wrong and repeated. */
export function parsePastedNumbers(text: string, existing: Iterable<string> = [], limit = PASTE_LIMIT): PasteResult {
  const entries = text
    .split(/[\n\r,،]+/)
    .map((s) => s.trim())
    .filter(Boolean)
  const truncated = entries.length > limit
  const seen = new Set(existing)
  const result: PasteResult = { correct: [], wrong: [], repeated: [], truncated }
  for (const entry of entries.slice(0, limit)) {
    const number = normalizeMobile(entry)
    if (!isValidMobile(number)) result.wrong.push(toLatinDigits(entry))
    else if (seen.has(number)) result.repeated.push(number)
    else {
      seen.add(number)
      result.correct.push(number)
    }
  }
  return result
}
