import { describe, expect, it } from 'vitest'
import { example, exampleUrl, groupOperations, ownExamplePath, ownSample, type OpenAPIDoc } from './docsModel'

const doc: OpenAPIDoc = {
  openapi: '3.1.0',
  info: { title: 'API', version: '1' },
  tags: [{ name: 'send', description: 'ارسال پیامک' }, { name: 'account', description: 'اعتبار' }],
  paths: {
    '/send': {
      post: {
        tags: ['send'],
        operationId: 'createSend',
        summary: 'ارسال',
        parameters: [{ $ref: '#/components/parameters/IdempotencyKey', name: '', in: 'header' }],
        requestBody: { content: { 'application/json': { example: { text: "it's", numbers: ['0912'] } } } },
      },
    },
    '/send/simple': {
      get: {
        tags: ['send'],
        operationId: 'simpleSend',
        parameters: [
          { name: 'apikey', in: 'query', example: 'chp_live_…' },
          { name: 'text', in: 'query', example: 'سلام' },
        ],
      },
    },
    '/payment/credit/mine': { get: { tags: ['account'], operationId: 'credit', summary: 'اعتبار' } },
  },
  components: { parameters: { IdempotencyKey: { name: 'Idempotency-Key', in: 'header' } } },
}

describe('groupOperations', () => {
  it('groups by tag in the document order and resolves parameter refs', () => {
    const g = groupOperations(doc)
    expect(g.map((x) => x.tag)).toEqual(['send', 'account'])
    expect(g[0].operations.map((o) => o.id)).toEqual(['createSend', 'simpleSend'])
    expect(g[0].operations[0].params[0].name).toBe('Idempotency-Key')
  })
  it('filters by route', () => {
    const g = groupOperations(doc, '/credit')
    expect(g).toHaveLength(1)
    expect(g[0].operations[0].id).toBe('credit')
    expect(groupOperations(doc, '/nothing')).toEqual([])
  })
})

describe('examples', () => {
  const [send, simple] = groupOperations(doc)[0].operations
  it('curl sends the key header, the idempotency key and the body, quoted for the shell', () => {
    const c = example('curl', 'https://x.ir', send)
    expect(c).toContain("curl -X POST 'https://x.ir/v1/api/send'")
    expect(c).toContain("-H 'apikey: YOUR_API_KEY'")
    expect(c).toContain("-H 'Idempotency-Key: order-5521'")
    expect(c).toContain(`it'\\''s`)
  })
  it('the GET send keeps the key in the query as a placeholder', () => {
    expect(exampleUrl('https://x.ir', simple)).toBe('https://x.ir/v1/api/send/simple?apikey=YOUR_API_KEY&text=%D8%B3%D9%84%D8%A7%D9%85')
    expect(example('curl', 'https://x.ir', simple)).not.toContain('-H')
  })
  it('every language names the URL', () => {
    for (const l of ['php', 'python', 'javascript', 'go'] as const) expect(example(l, 'https://x.ir', send)).toContain('https://x.ir/v1/api/send')
    expect(example('php', 'https://x.ir', send)).toContain('curl_init')
    expect(example('go', 'https://x.ir', send)).toContain('http.NewRequest("POST"')
  })

  it('fills the examples with the reader\'s own line and key prefix', () => {
    const op = {
      id: 'x', method: 'POST', path: '/send', tag: 'send', op: {},
      params: [{ name: 'from', in: 'query', example: '30001234' }],
      body: { sender: '30001234', numbers: ['09121234567'], text: '30001234 سلام' },
    } as unknown as Parameters<typeof example>[2]
    const acct = { line: '50002000', keyPrefix: 'chp_live_abc123' }
    const c = example('curl', 'https://x.ir', op, acct)
    expect(c).toContain('from=50002000')
    expect(c).toContain('"sender": "50002000"')
    expect(c).toContain("-H 'apikey: chp_live_abc123_YOUR_SECRET'")
    expect(c).not.toContain('"sender": "30001234"')
    expect(c).toContain('30001234 سلام')
    expect(example('curl', 'https://x.ir', op)).toContain('YOUR_API_KEY')
  })

  it('fills a catalogue example path with the reader\'s line and key prefix', () => {
    const path = '/v1/api/send/simple?apikey=chp_live_…&to=09121234567&from=30001234&text=%D8%B3%D9%84%D8%A7%D9%85&format=text'
    const own = ownExamplePath(path, { line: '50002000', keyPrefix: 'chp_live_abc123' })
    const q = new URLSearchParams(own.split('?')[1])
    expect(own.startsWith('/v1/api/send/simple?')).toBe(true)
    expect(q.get('from')).toBe('50002000')
    expect(q.get('apikey')).toBe('chp_live_abc123_YOUR_SECRET')
    expect(q.get('text')).toBe('سلام')
    expect(q.get('to')).toBe('09121234567')
    expect(new URLSearchParams(ownExamplePath(path).split('?')[1]).get('apikey')).toBe('YOUR_API_KEY')
  })
})

describe('ownSample', () => {
  const sample = `new Client('https://sms.example.ir', 'YOUR_API_KEY')\nsend('30001234', ['09121234567'])`
  it('puts the reader\'s address, key prefix and line in the library sample', () => {
    expect(ownSample(sample, 'https://panel.test', { line: '50001', keyPrefix: 'chp_live_ab12' })).toBe(
      `new Client('https://panel.test', 'chp_live_ab12_YOUR_SECRET')\nsend('50001', ['09121234567'])`,
    )
  })
  it('replaces the sample line only where it is a whole quoted value', () => {
    expect(ownSample(`send("30001234", "300012345")`, 'x', { line: '5000' })).toBe(`send("5000", "300012345")`)
  })
  it('keeps the samples when the reader has no key or line', () => {
    expect(ownSample(sample, 'https://panel.test')).toBe(
      `new Client('https://panel.test', 'YOUR_API_KEY')\nsend('30001234', ['09121234567'])`,
    )
  })
})
