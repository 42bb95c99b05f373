// Against a running Chapar (scripts/sdk-test.sh): CHAPAR_URL, CHAPAR_KEY, CHAPAR_LINE and
// SIM_URL (the carrier simulator, which delivers and injects received messages).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { ChaparError, Client } from '../src/index.js'

const { CHAPAR_URL: URL_, CHAPAR_KEY: KEY, CHAPAR_LINE: LINE = '', SIM_URL: SIM, CHAPAR_PATTERN: PATTERN = 'login-otp' } = process.env
const skip = !(URL_ && KEY && SIM) && 'CHAPAR_URL, CHAPAR_KEY and SIM_URL not set (scripts/sdk-test.sh)'
const client = new Client(URL_ ?? 'http://127.0.0.1', KEY ?? '')
const digits = (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('')
const PERSIAN = /[\u0600-\u06FF]/

async function sim(path, body) {
  const res = await fetch(`${SIM}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  return res.status
}

/** A fresh number the simulator is told to deliver to (its random outcomes aside). */
async function mobile() {
  const local = `0912${digits(7)}`
  await sim('/control/outcome', { to: `98${local.slice(1)}`, stat: 'DELIVRD' })
  return local
}

async function waitFor(fn, what, timeoutMs = 90_000) {
  const end = Date.now() + timeoutMs
  let last
  while (Date.now() < end) {
    last = await fn()
    if (last) return last
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`)
}

test('send, status by id and by local_id reach delivered; the credit goes down', { skip }, async () => {
  const before = await client.credit()
  const to = await mobile()
  const localId = `js-${randomUUID().slice(0, 12)}`
  const sent = await client.send({ sender: LINE, numbers: [to], text: 'سلام از کتابخانهٔ جاوااسکریپت', localId })
  assert.ok(sent.id > 0)
  assert.equal(sent.sender, LINE)
  await waitFor(async () => (await client.status(sent.id)).delivered === 1, 'delivered')
  const byLocal = await client.statusByLocalId(localId, { mobile: to })
  assert.equal(byLocal.id, sent.id)
  assert.equal(byLocal.local_id, localId)
  assert.equal(byLocal.recipient?.status, 2)
  assert.ok((await client.credit()) <= before - sent.price)
})

test('the same Idempotency-Key is one send', { skip }, async () => {
  const to = await mobile()
  const idempotencyKey = `js-idem-${randomUUID()}`
  const first = await client.send({ sender: LINE, numbers: [to], text: 'یک بار', idempotencyKey })
  const again = await client.send({ sender: LINE, numbers: [to], text: 'یک بار', idempotencyKey })
  assert.equal(again.id, first.id)
})

test('an approved pattern is sent and delivered', { skip }, async () => {
  const to = await mobile()
  const code = String(10_000_000 + Math.floor(Math.random() * 89_999_999))
  const sent = await client.sendPattern({ code: PATTERN, recipient: to, values: { code }, localId: `js-otp-${code}` })
  assert.equal(sent.type, 'pattern_otp')
  const st = await waitFor(async () => {
    const s = await client.statusByLocalId(`js-otp-${code}`, { mobile: to })
    return s.recipient?.status === 2 && s
  }, 'pattern delivered')
  assert.equal(st.id, sent.id)
})

test('inbox since: a message sent to the line is read once after the cursor', { skip }, async () => {
  let cursor = 0
  for (let page = await client.inboxSince(0, { limit: 500 }); page.length; page = await client.inboxSince(cursor, { limit: 500 })) {
    cursor = page.at(-1).id
  }
  const text = `پیام دریافتی جاوااسکریپت ${digits(6)}`
  const from = `98912${digits(7)}`
  assert.equal(await sim('/mo', { operator: 'mci', from, to: LINE, text }), 202)
  const got = await waitFor(async () => (await client.inboxSince(cursor, { limit: 500 })).find((m) => m.text === text), 'inbound message')
  assert.equal(got.sender, from)
  assert.equal(got.line, LINE)
  assert.ok(got.id > cursor)
})

test('an invalid number is a ChaparError with the Persian message and code', { skip }, async () => {
  await assert.rejects(client.send({ sender: LINE, numbers: ['12345'], text: 'سلام' }), (err) => {
    assert.ok(err instanceof ChaparError)
    assert.equal(err.status, 422)
    assert.ok(err.code)
    assert.match(err.message, PERSIAN)
    assert.ok(err.errors.numbers?.length)
    return true
  })
  await assert.rejects(new Client(URL_, 'chp_live_000000000000_bad').credit(), (err) => err.status === 401 && PERSIAN.test(err.message))
})
