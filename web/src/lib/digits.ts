const PERSIAN = '۰۱۲۳۴۵۶۷۸۹'
const ARABIC = '٠١٢٣٤٥٦٧٨٩'

/** Latin digits in a string or number become Persian digits (۰-۹); everything else is kept. */
export function toPersianDigits(value: string | number): string {
  return String(value).replace(/[0-9]/g, (d) => PERSIAN[Number(d)])
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
