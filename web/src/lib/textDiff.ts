/** One run of a word diff: kept, added (only in the new text) or removed (only in the old). */
export interface DiffPart {
  op: 'same' | 'add' | 'del'
  text: string
}

/**
 * A word-level diff of two texts (longest common subsequence over words and the spaces between
 * them), for showing reviewers what an edit changed. Texts are short (≤ 2,700 characters).
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = before.split(/(\s+)/).filter(Boolean)
  const b = after.split(/(\s+)/).filter(Boolean)
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1])
  const out: DiffPart[] = []
  const push = (op: DiffPart['op'], text: string) => {
    const last = out[out.length - 1]
    if (last?.op === op) last.text += text
    else out.push({ op, text })
  }
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push('same', a[i])
      i++
      j++
    } else if (j < b.length && (i >= a.length || lcs[i][j + 1] >= lcs[i + 1][j])) push('add', b[j++])
    else push('del', a[i++])
  }
  return out
}
