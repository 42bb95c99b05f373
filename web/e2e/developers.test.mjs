// The developers' pages against the real stack: the API reference renders from the
// OpenAPI document, filters by route, copies a curl example that really works with
// an API key's header; the plugins catalogue lists the HTTP-GET send and downloads the
// WordPress plugin's zip.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { API, DEMO, MOBILE, apiCall, apiToken, launch, openPage, readOtp, SIM_URL, signInWithToken } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const perms = { permissions: ['clipboard-read', 'clipboard-write'] }
const snap = (page, name) => page.waitForTimeout(300).then(() => page.screenshot({ path: `/tmp/devdocs-${name}.png` }))

test('documents: grouped by tag, filtered by route, a curl example copied', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser, undefined, perms)
  await signInWithToken(page, token, '/developers/documents')
  await page.getByTestId('docs-tag-send').waitFor()
  await page.getByTestId('docs-tag-report').waitFor()
  await snap(page, 'documents')
  await page.getByTestId('docs-lang-curl').click()
  await page.getByTestId('docs-filter').fill('/payment/credit')
  await page.getByTestId('docs-tag-send').waitFor({ state: 'detached' })
  await page.getByTestId('docs-example-credit-copy').click()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  assert.match(copied, /^curl -X GET '.*\/v1\/api\/payment\/credit\/mine'/)
  assert.match(copied, /-H 'apikey: YOUR_API_KEY'/)
  await snap(page, 'documents-filtered')
  await page.getByTestId('docs-filter').fill('/send')
  await page.getByTestId('docs-lang-php').click()
  await page.getByTestId('docs-example-createSend').getByText('curl_init').waitFor()
  await snap(page, 'documents-php')
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.evaluate(() => { localStorage.setItem('dark', 'true') })
  await page.reload()
  await page.getByTestId('docs-tag-send').waitFor()
  await snap(page, 'documents-dark')
  await context.close()

  const doc = await (await fetch(`${API}/openapi.json`)).json()
  assert.equal(doc.openapi, '3.1.0')
  assert.ok(doc.paths['/send/simple'].get)

  const mobile = await openPage(browser, MOBILE)
  await signInWithToken(mobile.page, token, '/developers/documents')
  await mobile.page.getByTestId('docs-tag-send').waitFor()
  await snap(mobile.page, 'documents-mobile')
  await mobile.context.close()
})

test('documents: the chosen language\'s library with the account\'s own line and address, each library downloadable', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const lines = await apiCall('GET', '/number/numbers', undefined, token)
  const line = (lines.find((l) => l.is_default) ?? lines[0]).number
  const { context, page } = await openPage(browser, undefined, perms)
  await signInWithToken(page, token, '/developers/documents')
  await page.getByTestId('docs-lang-python').click()
  const sample = page.getByTestId('library-python-sample')
  await sample.getByText(`"${line}"`).waitFor()
  const text = await sample.textContent()
  assert.ok(text.includes(`Client("${new URL(page.url()).origin}"`), text)
  assert.ok(!text.includes('"30001234"') && !text.includes('sms.example.ir'), text)
  await page.getByTestId('docs-libraries').scrollIntoViewIfNeeded()
  await snap(page, 'libraries')
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('library-download-python').click()])
  assert.equal(download.suggestedFilename(), 'chapar-sdk-python.zip')
  const zip = await readFile(await download.path())
  assert.equal(zip.subarray(0, 2).toString(), 'PK')
  assert.ok(zip.includes('chapar-sdk-python/pyproject.toml'))
  await page.getByTestId('docs-lang-go').click()
  await page.getByTestId('library-go-sample').getByText(`"${line}"`).waitFor()
  await context.close()
})

test('plugins: the catalogue with the working HTTP-GET send first', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/developers/plugins')
  await page.getByTestId('plugin-http-get').waitFor()
  await page.getByTestId('plugin-woocommerce').waitFor()
  await page.getByTestId('plugin-email-bridge').waitFor()
  // The WordPress plugin is ready, and its card downloads the plugin's zip.
  await page.getByTestId('plugin-wordpress').getByText('آماده استفاده').waitFor()
  await page.getByTestId('plugin-woocommerce').getByText('راهنمای راه‌اندازی').waitFor()
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('plugin-wordpress-download').click()])
  assert.equal(download.suggestedFilename(), 'chapar-sms.zip')
  const zip = await readFile(await download.path())
  assert.equal(zip.subarray(0, 2).toString(), 'PK')
  assert.ok(zip.includes('chapar-sms/chapar-sms.php'))
  // The example carries the account's own line (the demo's lines), not the catalogue's sample one.
  await page.getByTestId('plugin-http-get-url').filter({ hasText: /from=(300012345|500012345)&/ }).waitFor()
  const url = await page.getByTestId('plugin-http-get-url').textContent()
  assert.match(url, /\/v1\/api\/send\/simple\?apikey=/)
  assert.doesNotMatch(url, /from=30001234&/)
  await snap(page, 'plugins')
  await context.close()
  const mobile = await openPage(browser, MOBILE)
  await signInWithToken(mobile.page, token, '/developers/plugins')
  await mobile.page.getByTestId('plugin-http-get').waitFor()
  await snap(mobile.page, 'plugins-mobile')
  await mobile.context.close()
})

test('sandbox key: created in the panel, marked, its send charges nothing', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/developers/api-keys')
  await page.getByTestId('apikey-new').click()
  await page.getByTestId('apikey-title').fill('آزمایشی')
  await page.getByTestId('apikey-sandbox').click()
  await page.getByTestId('scope-send.create').click()
  await page.getByTestId('scope-wallet.view').click()
  const asked = Date.now() - 2000
  await page.getByTestId('apikey-send-otp').click()
  await page.getByTestId('apikey-otp-step').waitFor()
  await page.getByTestId('apikey-code').fill(await readOtp('989120000000', { after: asked }))
  await page.getByTestId('apikey-create').click()
  const secret = await page.getByTestId('apikey-secret').inputValue()
  await page.getByTestId('apikey-done').click()
  await page.locator('[data-testid^="apikey-sandbox-"]').first().waitFor()
  await snap(page, 'apikeys-sandbox')
  await context.close()

  const before = (await apiCall('GET', '/payment/credit/mine', undefined, token)).credit
  const res = await fetch(`${API}/send`, {
    method: 'POST',
    headers: { apikey: secret, 'Content-Type': 'application/json' },
    body: JSON.stringify({ text: 'آزمایش کلید sandbox', numbers: ['09121234568'] }),
  })
  const body = await res.json()
  assert.equal(res.status, 201)
  assert.equal(res.headers.get('x-chapar-sandbox'), '1')
  assert.equal(body.meta.sandbox, true)
  assert.equal(body.data.sandbox, true)
  assert.equal(body.data.price, 0)
  assert.equal((await apiCall('GET', '/payment/credit/mine', undefined, token)).credit, before)
  // It travels the pipeline to the simulator's sandbox port, never a carrier's.
  let msg = null
  for (let i = 0; i < 180 && !msg; i++) {
    const r = await fetch(`${SIM_URL}/messages/latest?to=989121234568`).catch(() => null)
    const m = r?.ok ? await r.json().catch(() => null) : null
    // The line may add the «لغو۱۱» footer to the text.
    if ((m?.data ?? m)?.text?.startsWith('آزمایش کلید sandbox')) msg = m?.data ?? m
    else await new Promise((done) => setTimeout(done, 500))
  }
  assert.equal(msg?.operator, 'sandbox')
  assert.equal((await apiCall('GET', '/payment/credit/mine', undefined, token)).credit, before)
})
