// Webhooks and the API-call log against the real stack: the demo owner adds an
// endpoint in the panel (a receiver in this process; the e2e stack runs with
// WEBHOOK_ALLOW_PRIVATE=1), the signing secret is shown once, a test event is
// delivered by the worker and verified here, then a call made with an API key
// shows in /developers/api-calls with its body redacted.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import { API, DEMO, MOBILE, apiCall, apiToken, launch, openPage, readOtp, shot, signInWithToken } from './helpers.mjs'

let browser
let receiver
const received = []
let secret = ''

/** The receiver verifies each POST as docs/webhooks.md tells customers to. */
function verify(req, body) {
  const ts = req.headers['x-chapar-timestamp']
  const want = 'v1=' + createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')
  const got = String(req.headers['x-chapar-signature'] ?? '')
  return got.length === want.length && timingSafeEqual(Buffer.from(got), Buffer.from(want)) && Math.abs(Date.now() / 1000 - Number(ts)) < 300
}

before(async () => {
  browser = await launch()
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const ok = verify(req, body)
      if (ok) received.push(JSON.parse(body))
      res.writeHead(ok ? 200 : 401).end()
    })
  })
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r))
})
after(async () => {
  await browser?.close()
  receiver?.close()
})

test('owner adds a webhook, its test event is delivered signed, and an API-key call shows in the log', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/developers/webhooks')
  await page.getByTestId('webhook-new').click()
  const url = `http://127.0.0.1:${receiver.address().port}/hook`
  await page.getByTestId('webhook-url').fill(url)
  await shot(page, 'webhooks-form')
  await page.getByTestId('webhook-save').click()
  secret = await page.getByTestId('webhook-secret').inputValue()
  assert.match(secret, /^whsec_[0-9a-f]{64}$/)
  await page.getByTestId('webhook-done').click()
  const row = page.getByTestId('webhook-row-url').filter({ hasText: url })
  await row.waitFor()
  const { endpoints } = await apiCall('GET', '/developers/webhooks', undefined, token)
  const id = endpoints.find((e) => e.url === url).id
  await page.getByTestId(`webhook-test-${id}`).click()
  await page.getByText('تحویل شد').first().waitFor({ timeout: 20_000 })
  assert.ok(received.some((b) => b.events.some((e) => e.type === 'webhook.test')), 'the receiver got the signed test event')
  await shot(page, 'webhooks-delivered')

  // An API key call, logged with its password redacted.
  const asked = Date.now() - 2000
  const otp = await apiCall('POST', '/acl/api_key/otp', undefined, token)
  const key = await apiCall('POST', '/acl/api_key/create', { title: 'e2e وب‌هوک', scopes: ['wallet.view'], allowed_ips: [],
    otp_token: otp.otp_token, code: await readOtp('989120000000', { after: asked }) }, token)
  const res = await fetch(`${API}/payment/credit/mine?password=hunter2`, { headers: { Authorization: `Bearer ${key.secret}` } })
  assert.equal(res.status, 200)
  await new Promise((r) => setTimeout(r, 800)) // the log is written in batches
  await page.goto(page.url().replace(/\/developers\/webhooks.*/, '/developers/api-calls'))
  await page.getByTestId('apicall-path').filter({ hasText: '/v1/api/payment/credit/mine' }).first().click()
  await page.getByTestId('apicall-response').waitFor()
  const query = await page.getByTestId('apicall-query').innerText()
  assert.ok(!query.includes('hunter2') && query.includes('***'), `query shown redacted: ${query}`)
  await shot(page, 'webhooks-apicall')
  await context.close()

  const dark = await openPage(browser, MOBILE, { colorScheme: 'dark' })
  await dark.page.addInitScript(() => localStorage.setItem('dark', 'true'))
  await signInWithToken(dark.page, token, '/developers/webhooks')
  await dark.page.getByTestId('webhook-new').waitFor()
  await shot(dark.page, 'webhooks-mobile-dark')
  await dark.page.goto(dark.page.url().replace(/\/developers\/webhooks.*/, '/developers/api-calls'))
  await dark.page.getByTestId('apicall-path').first().waitFor()
  await shot(dark.page, 'webhooks-apicalls-mobile-dark')
  await apiCall('DELETE', '/acl/api_key', { id: key.id }, token)
  await apiCall('POST', '/developers/webhooks/delete', { id }, token)
  await dark.context.close()
})
