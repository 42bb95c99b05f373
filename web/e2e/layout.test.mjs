// Layout and routing: mobile bottom bar and mobile-only pages, desktop /404 rules, not-found.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiToken, launch, openPage, shot, signInWithToken, waitForPath } from './helpers.mjs'

let browser
let token
before(async () => {
  browser = await launch()
  token = await apiToken(DEMO.username, DEMO.password)
})
after(async () => { await browser?.close() })

test('mobile (390×844): bottom bar, title with back icon, mobile-only route allowed', async () => {
  const { context, page } = await openPage(browser, MOBILE)
  await signInWithToken(page, token)
  await page.getByTestId('bottom-bar').waitFor()
  assert.equal(await page.getByTestId('sidebar').count(), 0)
  await page.getByTestId('dashboard-credit').waitFor()
  await shot(page, 'mobile')

  await page.goto(`${PANEL_URL}/contacts/all-contacts`)
  await page.getByTestId('contact-add').waitFor()
  assert.match(page.url(), /\/contacts\/all-contacts$/)
  await page.getByTestId('mobile-back').waitFor()
  assert.equal(await page.getByTestId('page-title').textContent(), 'همه مخاطبین')
  await shot(page, 'mobile-contacts')
  await context.close()
})

test('desktop: a mobile-only route goes to /404; an unknown path shows not-found', async () => {
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token, '/contacts/all-contacts')
  await waitForPath(page, /\/404$/)
  await page.getByTestId('not-found').waitFor()

  await page.goto(`${PANEL_URL}/no/such/page`)
  await page.getByTestId('not-found').waitFor()
  await page.getByTestId('sidebar').waitFor()
  await shot(page, 'not-found')

  await page.goto(`${PANEL_URL}/`)
  await waitForPath(page, /\/dashboard$/)
  await context.close()
})

test('visitors are sent to /login; a signed-in user is sent away from it', async () => {
  const { context, page } = await openPage(browser)
  await page.goto(`${PANEL_URL}/reports`)
  await waitForPath(page, /\/login$/)
  await page.evaluate((t) => localStorage.setItem('token', t), token)
  const fresh = await context.newPage()
  await fresh.goto(`${PANEL_URL}/login`)
  await waitForPath(fresh, /\/dashboard$/)
  await context.close()
})
