/**
 * The API reference model (spec §7 Developers, docs/developers.md): the operations of
 * the OpenAPI document grouped by tag, and copyable examples in five languages built
 * from each operation's example request.
 */

export interface OpenAPIParam {
  name: string
  in: 'query' | 'header' | 'path'
  description?: string
  required?: boolean
  example?: unknown
  $ref?: string
}

export interface OpenAPIOperation {
  tags?: string[]
  operationId?: string
  summary?: string
  description?: string
  parameters?: OpenAPIParam[]
  security?: unknown[]
  requestBody?: { content?: Record<string, { example?: unknown }> }
  responses?: Record<string, { description?: string; content?: Record<string, { example?: unknown }>; $ref?: string }>
}

export interface OpenAPIDoc {
  openapi: string
  info: { title: string; version: string; description?: string }
  tags?: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, OpenAPIOperation>>
  components?: {
    parameters?: Record<string, OpenAPIParam>
    responses?: Record<string, { description?: string; content?: Record<string, { example?: unknown }> }>
  }
}

/** One operation of the reference. */
export interface Operation {
  id: string
  method: string
  path: string
  tag: string
  op: OpenAPIOperation
  params: OpenAPIParam[]
  body?: unknown
}

export interface TagGroup {
  tag: string
  title: string
  operations: Operation[]
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

function resolveParam(doc: OpenAPIDoc, p: OpenAPIParam): OpenAPIParam {
  if (!p.$ref) return p
  const name = p.$ref.split('/').pop() ?? ''
  return doc.components?.parameters?.[name] ?? p
}

/** The operations grouped by tag, in the document's tag order; filter matches path, summary or method. */
export function groupOperations(doc: OpenAPIDoc, filter = ''): TagGroup[] {
  const f = filter.trim().toLowerCase()
  const groups = new Map<string, TagGroup>()
  for (const t of doc.tags ?? []) groups.set(t.name, { tag: t.name, title: t.description ?? t.name, operations: [] })
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const hay = `${method} ${path} ${op.summary ?? ''} ${op.operationId ?? ''}`.toLowerCase()
      if (f && !hay.includes(f)) continue
      const tag = op.tags?.[0] ?? 'other'
      if (!groups.has(tag)) groups.set(tag, { tag, title: tag, operations: [] })
      groups.get(tag)!.operations.push({
        id: op.operationId ?? `${method}-${path}`,
        method: method.toUpperCase(),
        path,
        tag,
        op,
        params: (op.parameters ?? []).map((p) => resolveParam(doc, p)),
        body: op.requestBody?.content?.['application/json']?.example,
      })
    }
  }
  return [...groups.values()].filter((g) => g.operations.length > 0)
}

export type Lang = 'curl' | 'php' | 'python' | 'javascript' | 'go'

export const LANGS: Array<{ key: Lang; title: string }> = [
  { key: 'curl', title: 'cURL' },
  { key: 'php', title: 'PHP' },
  { key: 'python', title: 'Python' },
  { key: 'javascript', title: 'JavaScript' },
  { key: 'go', title: 'Go' },
]

const KEY_PLACEHOLDER = 'YOUR_API_KEY'

/** The sender line the OpenAPI document's examples use; a reader's own line replaces it. */
export const SAMPLE_LINE = '30001234'

/**
 * The reader's own values the examples are filled with, so a copied example works as it is:
 * their first sender line and the prefix of one of their keys (its secret is never known here).
 */
export interface DocsAccount {
  line?: string
  keyPrefix?: string
}

/** The key an example carries: «prefix_YOUR_SECRET» when the reader has a key, else a placeholder. */
export function exampleKey(acct: DocsAccount = {}): string {
  return acct.keyPrefix ? `${acct.keyPrefix}_YOUR_SECRET` : KEY_PLACEHOLDER
}

/** value with the sample line replaced by the reader's, in strings, arrays and objects alike. */
export function ownLine<T>(value: T, acct: DocsAccount = {}): T {
  const line = acct.line
  if (!line) return value
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v === SAMPLE_LINE ? line : v
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value) as T
}

/** The sample address of a client library's sample (pkg/devdocs: SampleBase). */
export const SAMPLE_BASE = 'https://sms.example.ir'

/** A client library's sample with the reader's address, key prefix and line in place of the samples. */
export function ownSample(sample: string, base: string, acct: DocsAccount = {}): string {
  return sample
    .replaceAll(SAMPLE_BASE, base)
    .replaceAll(KEY_PLACEHOLDER, exampleKey(acct))
    .replace(new RegExp(`(['"])${SAMPLE_LINE}\\1`, 'g'), (_, q: string) => `${q}${acct.line ?? SAMPLE_LINE}${q}`)
}

/**
 * A catalogue's example path (…?apikey=…&from=<sample line>&…) with the reader's key prefix and
 * line, so that a copied URL sends from the account's own line.
 */
export function ownExamplePath(path: string, acct: DocsAccount = {}): string {
  const at = path.indexOf('?')
  if (at < 0) return path
  const qs = new URLSearchParams(path.slice(at + 1))
  for (const [k, v] of [...qs]) {
    if (k === 'apikey') qs.set(k, exampleKey(acct))
    else qs.set(k, ownLine(v, acct))
  }
  return `${path.slice(0, at)}?${qs.toString()}`
}

/** The example URL of an operation: base + /v1/api + path + the example query, with the reader's key prefix and line. */
export function exampleUrl(base: string, o: Operation, acct: DocsAccount = {}): string {
  const qs = new URLSearchParams()
  for (const p of o.params) {
    if (p.in !== 'query' || p.example === undefined) continue
    qs.set(p.name, p.name === 'apikey' ? exampleKey(acct) : String(ownLine(p.example, acct)))
  }
  const q = qs.toString()
  return `${base}/v1/api${o.path}${q ? `?${q}` : ''}`
}

function usesQueryKey(o: Operation): boolean {
  return o.params.some((p) => p.in === 'query' && p.name === 'apikey')
}

function takesIdempotency(o: Operation): boolean {
  return o.params.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')
}

/** A copyable example of the operation in one language, filled with the reader's line and key prefix. */
export function example(lang: Lang, base: string, o: Operation, acct: DocsAccount = {}): string {
  const url = exampleUrl(base, o, acct)
  const body = o.body === undefined ? undefined : JSON.stringify(ownLine(o.body, acct), null, 2)
  const headers: Array<[string, string]> = usesQueryKey(o) ? [] : [['apikey', exampleKey(acct)]]
  if (body) headers.push(['Content-Type', 'application/json'])
  if (takesIdempotency(o)) headers.push(['Idempotency-Key', 'order-5521'])
  switch (lang) {
    case 'curl':
      return curl(o.method, url, headers, body)
    case 'php':
      return php(o.method, url, headers, body)
    case 'python':
      return python(o.method, url, headers, body)
    case 'javascript':
      return javascript(o.method, url, headers, body)
    case 'go':
      return goCode(o.method, url, headers, body)
  }
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

function curl(method: string, url: string, headers: Array<[string, string]>, body?: string): string {
  const lines = [`curl -X ${method} ${sq(url)}`]
  for (const [k, v] of headers) lines.push(`  -H ${sq(`${k}: ${v}`)}`)
  if (body) lines.push(`  -d ${sq(body)}`)
  return lines.join(' \\\n')
}

function php(method: string, url: string, headers: Array<[string, string]>, body?: string): string {
  const h = headers.map(([k, v]) => `    '${k}: ${v}',`).join('\n')
  return [
    '<?php',
    `$ch = curl_init(${sq(url)});`,
    'curl_setopt_array($ch, [',
    `  CURLOPT_CUSTOMREQUEST => '${method}',`,
    '  CURLOPT_RETURNTRANSFER => true,',
    `  CURLOPT_HTTPHEADER => [\n${h}\n  ],`,
    ...(body ? [`  CURLOPT_POSTFIELDS => ${sq(body)},`] : []),
    ']);',
    '$response = json_decode(curl_exec($ch), true);',
    '$status = curl_getinfo($ch, CURLINFO_HTTP_CODE);',
    'curl_close($ch);',
    "// $response['data'] و $response['meta']['message']",
  ].join('\n')
}

function python(method: string, url: string, headers: Array<[string, string]>, body?: string): string {
  const h = headers.filter(([k]) => k !== 'Content-Type').map(([k, v]) => `"${k}": "${v}"`).join(', ')
  return [
    'import requests',
    '',
    `res = requests.request("${method}", "${url}",`,
    `    headers={${h}},`,
    ...(body ? [`    json=${body.replace(/\btrue\b/g, 'True').replace(/\bfalse\b/g, 'False').replace(/\bnull\b/g, 'None')},`] : []),
    '    timeout=30)',
    'envelope = res.json()',
    'print(res.status_code, envelope["meta"]["message"], envelope["data"])',
  ].join('\n')
}

function javascript(method: string, url: string, headers: Array<[string, string]>, body?: string): string {
  const h = headers.map(([k, v]) => `    '${k}': '${v}',`).join('\n')
  return [
    `const res = await fetch('${url}', {`,
    `  method: '${method}',`,
    `  headers: {\n${h}\n  },`,
    ...(body ? [`  body: JSON.stringify(${body.split('\n').join('\n  ')}),`] : []),
    '})',
    'const { data, meta } = await res.json()',
    'console.log(res.status, meta.message, data)',
  ].join('\n')
}

function goCode(method: string, url: string, headers: Array<[string, string]>, body?: string): string {
  const h = headers.map(([k, v]) => `\treq.Header.Set("${k}", "${v}")`).join('\n')
  return [
    'package main',
    '',
    'import (',
    '\t"fmt"',
    '\t"io"',
    '\t"net/http"',
    ...(body ? ['\t"strings"'] : []),
    ')',
    '',
    'func main() {',
    body ? `\tbody := strings.NewReader(\`${body}\`)` : '\tvar body io.Reader',
    `\treq, err := http.NewRequest("${method}", "${url}", body)`,
    '\tif err != nil {',
    '\t\tpanic(err)',
    '\t}',
    h,
    '\tres, err := http.DefaultClient.Do(req)',
    '\tif err != nil {',
    '\t\tpanic(err)',
    '\t}',
    '\tdefer res.Body.Close()',
    '\tout, _ := io.ReadAll(res.Body)',
    '\tfmt.Println(res.StatusCode, string(out))',
    '}',
  ].join('\n')
}
