const PERSIAN = '۰۱۲۳۴۵۶۷۸۹'
const ARABIC = '٠١٢٣٤٥٦٧٨٩'

/**
 * Machine text a reader copies or types as it is: URLs, e-mail addresses and file names
 * (a name with a Latin extension, e.g. «file50.xlsx»). Their digits stay Latin.
 */
const VERBATIM = /(?:https?:\/\/|www\.)[^\s«»"']+|[^\s@«»"']+@[^\s@«»"']+\.[A-Za-z]{2,}|[^\s«»"'/\\]+\.[A-Za-z][A-Za-z0-9]{1,4}\b/g

/**
 * Latin digits in a string or number become Persian digits (۰-۹); everything else is kept,
 * and so are the digits inside URLs, e-mail addresses and file names.
 */
export function toPersianDigits(value: string | number): string {
  const text = String(value)
  const persian = (part: string) => part.replace(/[0-9]/g, (d) => PERSIAN[Number(d)])
  if (!/[A-Za-z]/.test(text)) return persian(text)
  let out = ''
  let last = 0
  for (const m of text.matchAll(VERBATIM)) {
    out += persian(text.slice(last, m.index)) + m[0]
    last = m.index + m[0].length
  }
  return out + persian(text.slice(last))
}

/** Persian (۰-۹) and Arabic (٠-٩) digits become Latin digits; everything else is kept. */
export function toLatinDigits(value: string): string {
  return value.replace(/[۰-۹٠-٩]/g, (d) => {
    const p = PERSIAN.indexOf(d)
    return String(p >= 0 ? p : ARABIC.indexOf(d))
  })
}

/** Converts Persian/Arabic digits to Latin and drops every non-digit character. */
export function onlyDigits(value: string): string {
  return toLatinDigits(value).replace(/[^0-9]/g, '')
}
