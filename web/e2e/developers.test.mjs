// The developers' pages against the real stack: the API reference renders from the
// OpenAPI document, filters by route, copies a curl example that really works with
// an API key's header; the plugins catalogue lists the HTTP-GET send.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { API, DEMO, MOBILE, apiToken, launch, openPage, signInWithToken } from './helpers.mjs'

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

test('plugins: the catalogue with the working HTTP-GET send first', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/developers/plugins')
  await page.getByTestId('plugin-http-get').waitFor()
  await page.getByTestId('plugin-woocommerce').waitFor()
  await page.getByTestId('plugin-email-bridge').waitFor()
  const url = await page.getByTestId('plugin-http-get-url').textContent()
  assert.match(url, /\/v1\/api\/send\/simple\?apikey=/)
  await snap(page, 'plugins')
  await context.close()
  const mobile = await openPage(browser, MOBILE)
  await signInWithToken(mobile.page, token, '/developers/plugins')
  await mobile.page.getByTestId('plugin-http-get').waitFor()
  await snap(mobile.page, 'plugins-mobile')
  await mobile.context.close()
})
