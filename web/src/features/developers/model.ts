import { toLatinDigits } from '../../lib/digits'
import type { Scope } from './api'

/** The allow-list as typed (one per line, or separated by commas or spaces). */
export function parseIPs(text: string): string[] {
  return toLatinDigits(text)
    .split(/[\s,،]+/)
    .map((s) => s.trim())
    .filter(Boolean)
}

export interface ScopeGroup {
  key: string
  title: string
  items: Scope[]
}

/** The scopes grouped by feature, in the API's order. */
export function groupScopes(list: Scope[]): ScopeGroup[] {
  const out: ScopeGroup[] = []
  for (const s of list) {
    let g = out.find((x) => x.key === s.group)
    if (!g) {
      g = { key: s.group, title: s.group_title, items: [] }
      out.push(g)
    }
    g.items.push(s)
  }
  return out
}
