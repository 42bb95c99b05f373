import type { FileColumn } from './files'

/** `{ex_B}` or `{{ex_B}}`: the cell of column B of the recipient's row (spec §3 message editor). */
const TAG = /\{\{?ex_([A-Za-z]+)\}\}?/g

/** The column keys a text refers to, upper-cased, each once, in order of first use. */
export function keywordTags(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(TAG)) {
    const key = m[1].toUpperCase()
    if (!out.includes(key)) out.push(key)
  }
  return out
}

/** Tags of the text that name no column of the file. */
export function unknownTags(text: string, columns: FileColumn[]): string[] {
  const keys = new Set(columns.map((c) => c.key.toUpperCase()))
  return keywordTags(text).filter((k) => !keys.has(k))
}

/** The text with each tag shown as «header» (or «ستون B» without a header), for the preview. */
export function keywordPreview(text: string, columns: FileColumn[]): string {
  return text.replace(TAG, (whole, key: string) => {
    const col = columns.find((c) => c.key.toUpperCase() === key.toUpperCase())
    if (!col) return whole
    return `«${col.title || `ستون ${col.key}`}»`
  })
}

/** The editor's tag buttons: one per column, inserting `{ex_KEY}`. */
export function columnKeywords(columns: FileColumn[]): Array<{ keyword: string; col: string }> {
  return columns.map((c) => ({ keyword: `ex_${c.key}`, col: c.key }))
}
