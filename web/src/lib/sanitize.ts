import { createElement, type ReactNode } from 'react'

/** Tags kept from a server message, each as the same React element. */
const KEEP = new Set(['b', 'strong', 'i', 'em', 'u', 'br', 'p', 'ul', 'ol', 'li', 'a'])
/** Tags dropped with everything inside them; any other tag is replaced by its content. */
const DROP = new Set(['script', 'style', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'noscript',
  'textarea', 'select', 'title', 'head', 'frameset', 'frame', 'noembed', 'noframes', 'xmp'])
/** Link schemes a kept <a> may point at. */
const SCHEMES = new Set(['http:', 'https:', 'mailto:'])
const MAX_DEPTH = 20

/**
 * Server messages may carry simple HTML (spec §8). This is an allowlist: the message is
 * parsed in an inert document and rebuilt as React elements — only the tags in KEEP,
 * no attribute but an absolute http(s)/mailto href on <a>, everything else as plain
 * text. Nothing is ever assigned to innerHTML. Line breaks become <br>.
 */
export function serverHtml(html: string): ReactNode[] {
  const doc = new DOMParser().parseFromString(html.replace(/\r?\n/g, '<br>'), 'text/html')
  return children(doc.body, 0)
}

function children(parent: Node, depth: number): ReactNode[] {
  const out: ReactNode[] = []
  parent.childNodes.forEach((node, i) => {
    if (node.nodeType === Node.TEXT_NODE) out.push(node.textContent ?? '')
    else if (node.nodeType === Node.ELEMENT_NODE) out.push(...element(node as Element, i, depth + 1))
  })
  return out
}

function element(el: Element, key: number, depth: number): ReactNode[] {
  const tag = el.localName.toLowerCase()
  if (DROP.has(tag) || el.namespaceURI !== 'http://www.w3.org/1999/xhtml' || depth > MAX_DEPTH) return []
  const inner = children(el, depth)
  if (!KEEP.has(tag)) return inner
  if (tag === 'br') return [createElement('br', { key })]
  if (tag !== 'a') return [createElement(tag, { key }, ...inner)]
  const href = safeHref(el.getAttribute('href'))
  if (!href) return [createElement('span', { key }, ...inner)]
  return [createElement('a', { key, href, target: '_blank', rel: 'noopener noreferrer' }, ...inner)]
}

/** The link as an absolute http(s) or mailto URL, or null (relative, javascript:, data: …). */
export function safeHref(raw: string | null): string | null {
  if (!raw) return null
  try {
    const url = new URL(raw) // the URL parser drops tabs and newlines, as a browser would
    return SCHEMES.has(url.protocol) ? url.href : null
  } catch {
    return null
  }
}
