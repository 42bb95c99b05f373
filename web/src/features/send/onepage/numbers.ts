import { onlyDigits, toLatinDigits } from '../../../lib/digits'
import { formatNumber } from '../../../lib/format'
import { PASTE_LIMIT, isValidMobile, normalizeMobile } from '../../../lib/paste'

/** What the numbers box found in its text. */
export interface ParsedNumbers {
  /** Valid, distinct numbers in 98… form, in the order written. */
  valid: string[]
  /** Entries that are not a mobile number, as written (Latin digits). */
  invalid: string[]
  /** Valid numbers written again (each extra occurrence counts). */
  duplicates: number
}

/** Separators that always end a number: new lines, commas, semicolons, tabs, bars, slashes. */
const STRONG = /[\n\r,،;؛\t|/\\]+/

/** A word that may be (a piece of) a number: digits of any script, +, dashes, dots, brackets. */
const NUMBERISH = /^[0-9۰-۹٠-٩+\-().]+$/

/** How many digits a number starting so has in full (0: not the start of a mobile). */
function fullLength(digits: string): number {
  if (digits.startsWith('0098')) return 14
  if (digits.startsWith('98')) return 12
  if (digits.startsWith('09')) return 11
  if (digits.startsWith('9')) return 10
  return 0
}

/**
 * Reads a pasted list of mobiles: separators of any kind (new lines, commas, Persian
 * commas, semicolons, tabs, spaces), Persian or Arabic digits, 0912…, 912…, +98912…,
 * 0098…, and numbers written with spaces or dashes inside (0912 123 4567): words are
 * joined until they hold a whole number's digits.
 */
export function parseNumbers(text: string): ParsedNumbers {
  const out: ParsedNumbers = { valid: [], invalid: [], duplicates: 0 }
  const seen = new Set<string>()
  const take = (entry: string) => {
    const number = normalizeMobile(entry)
    if (!isValidMobile(number)) out.invalid.push(toLatinDigits(entry))
    else if (seen.has(number)) out.duplicates++
    else {
      seen.add(number)
      out.valid.push(number)
    }
  }
  for (const chunk of text.split(STRONG)) {
    let words: string[] = []
    const flush = () => {
      if (words.length) take(words.join(' '))
      words = []
    }
    for (const word of chunk.split(/\s+/).filter(Boolean)) {
      if (!NUMBERISH.test(word)) {
        flush()
        take(word)
        continue
      }
      words.push(word)
      const digits = onlyDigits(words.join(''))
      const full = fullLength(digits)
      if (full === 0 || digits.length > full) {
        const [last] = words.splice(-1)
        flush()
        words = [last]
        const own = onlyDigits(last)
        if (fullLength(own) === 0 || own.length >= fullLength(own)) flush()
      } else if (digits.length === full) flush()
    }
    flush()
  }
  return out
}

/**
 * Why the box's numbers cannot be sent from this page: none, or more than the panel's
 * paste limit (spec §9: 1000; a longer list goes as a file send).
 */
export function numbersError(p: ParsedNumbers, limit = PASTE_LIMIT): string | undefined {
  if (!p.valid.length) return 'حداقل یک شماره گیرنده وارد کنید'
  if (p.valid.length > limit) return `حداکثر ${formatNumber(limit)} شماره در ارسال سریع؛ برای فهرست بزرگ‌تر «ارسال از فایل» را به کار ببرید`
  return undefined
}
