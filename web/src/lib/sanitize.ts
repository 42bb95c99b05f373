const DROP = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'LINK', 'META', 'FORM', 'INPUT', 'TEXTAREA', 'BUTTON', 'SVG', 'MATH'])

/**
 * Server messages may carry simple HTML (spec §8): keep formatting and links, drop active
 * content (scripts, handlers, javascript: URLs). Line breaks become <br>.
 */
export function sanitizeServerHtml(html: string): string {
  const tpl = document.createElement('template')
  tpl.innerHTML = html.replace(/\r?\n/g, '<br>')
  const walk = (node: Element) => {
    for (const child of [...node.children]) {
      if (DROP.has(child.tagName.toUpperCase())) {
        child.remove()
        continue
      }
      for (const attr of [...child.attributes]) {
        const name = attr.name.toLowerCase()
        const value = attr.value.trim().toLowerCase()
        if (name.startsWith('on') || name === 'style' || name === 'srcdoc') child.removeAttribute(attr.name)
        else if ((name === 'href' || name === 'src') && /^(javascript|data|vbscript):/.test(value)) {
          child.removeAttribute(attr.name)
        }
      }
      if (child.tagName === 'A') {
        child.setAttribute('target', '_blank')
        child.setAttribute('rel', 'noopener noreferrer')
      }
      walk(child)
    }
  }
  walk(tpl.content as unknown as Element)
  return tpl.innerHTML
}
