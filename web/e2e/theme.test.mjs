// Dark mode: the toggle writes "true" under `dark`, survives a reload, and light removes the key.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, apiToken, launch, openPage, shot, signInWithToken } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

test('dark mode toggle persists under the dark key', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token)
  await page.getByTestId('sidebar').waitFor()
  await page.getByTestId('credit-value').waitFor()
  assert.equal(await page.evaluate(() => localStorage.getItem('dark')), null)
  await shot(page, 'desktop-light')

  await page.getByTestId('theme-toggle').click()
  await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
  assert.equal(await page.evaluate(() => localStorage.getItem('dark')), 'true')

  await page.reload()
  await page.getByTestId('sidebar').waitFor()
  await page.getByTestId('credit-value').waitFor()
  assert.ok(await page.evaluate(() => document.documentElement.classList.contains('dark')))
  await shot(page, 'desktop-dark')

  // Another tab follows the change through the storage event.
  const other = await context.newPage()
  await other.goto(page.url())
  await other.getByTestId('sidebar').waitFor()
  await page.getByTestId('theme-toggle').click()
  await page.waitForFunction(() => !document.documentElement.classList.contains('dark'))
  assert.equal(await page.evaluate(() => localStorage.getItem('dark')), null, 'light removes the key')
  await other.waitForFunction(() => !document.documentElement.classList.contains('dark'))
  await context.close()
})
