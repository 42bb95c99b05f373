// Retries against a local HTTP server that answers 503/429 first, and the webhook
// vector of the Go signer (CHAPAR_WEBHOOK_VECTOR, set by scripts/sdk-test.sh).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { ChaparError, Client, signWebhook, verifyWebhook } from '../src/index.js'

async function flaky(answers) {
  const seen = []
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      seen.push({ at: performance.now(), key: req.headers['idempotency-key'] })
      const [status, headers] = answers.shift()
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers })
      res.end(JSON.stringify({ data: status < 300 ? { id: 7 } : null, meta: { status, message: 'خطای سرور', message_code: String(status), errors: {} } }))
    })
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  const client = new Client(`http://127.0.0.1:${server.address().port}`, 'chp_live_x', { backoffMs: 50 })
  return { client, seen, close: () => server.close() }
}

test('5xx and 429 are retried with one Idempotency-Key, waiting Retry-After', async () => {
  const { client, seen, close } = await flaky([[503, {}], [429, { 'Retry-After': '1' }], [201, {}]])
  try {
    assert.equal((await client.send({ sender: '300012345', numbers: ['09121234567'], text: 'سلام' })).id, 7)
    assert.equal(seen.length, 3)
    assert.ok(seen[0].key)
    assert.deepEqual(new Set(seen.map((s) => s.key)).size, 1)
    assert.ok(seen[2].at - seen[1].at >= 900, 'waited the Retry-After second')
  } finally { close() }
})

test('gives up after maxRetries with the last error; 422 is not retried', async () => {
  const { client, seen, close } = await flaky([[500, {}], [500, {}], [500, {}], [500, {}], [422, {}]])
  try {
    await assert.rejects(client.send({ sender: 'x', numbers: [], text: 'x', idempotencyKey: 'k-1' }), (e) => e instanceof ChaparError && e.status === 500)
    assert.deepEqual(seen.map((s) => s.key), ['k-1', 'k-1', 'k-1', 'k-1'])
    await assert.rejects(client.send({ sender: 'x', numbers: ['1'], text: 'x' }), (e) => e.status === 422 && e.code === '422')
    assert.equal(seen.length, 5)
  } finally { close() }
})

test('a webhook signature of the Go signer verifies, tampered it does not', (t) => {
  const raw = process.env.CHAPAR_WEBHOOK_VECTOR
  if (!raw) return t.skip('CHAPAR_WEBHOOK_VECTOR not set (scripts/sdk-test.sh sets it)')
  const v = JSON.parse(raw)
  const body = Buffer.from(v.body, 'utf8')
  assert.equal(signWebhook(v.secret, v.timestamp, body), v.signature)
  assert.ok(verifyWebhook(v.secret, v.timestamp, v.signature, body))
  assert.ok(verifyWebhook(v.secret, v.timestamp, `v1=00,${v.signature}`, v.body))
  assert.ok(!verifyWebhook(v.secret, v.timestamp, v.signature, Buffer.concat([body, Buffer.from(' ')])))
  assert.ok(!verifyWebhook('whsec_other', v.timestamp, v.signature, body))
  assert.ok(!verifyWebhook(v.secret, v.timestamp, v.signature, body, { now: (Number(v.timestamp) + 301) * 1000 }))
})

test('sign and verify round trip', () => {
  const ts = String(Math.floor(Date.now() / 1000))
  const sig = signWebhook('whsec_abc', ts, '{"events":[]}')
  assert.ok(verifyWebhook('whsec_abc', ts, sig, '{"events":[]}'))
  assert.ok(!verifyWebhook('whsec_abc', 'nope', sig, '{"events":[]}'))
})
