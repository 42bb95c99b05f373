// The live socket opens with a single-use ticket (never the session token in its URL)
// and is closed by the server as soon as its session is revoked; the panel then finds
// the session gone and returns to the login page.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, apiCall, apiToken, launch, openPage, signInWithToken, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

test('live socket: ticket in the URL, closed within seconds of a logout elsewhere', async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  const opened = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/v1/ws'), timeout: 60_000 })
  await signInWithToken(page, token)
  const ws = await opened
  assert.match(ws.url(), /\/v1\/ws\?ticket=[\w-]+$/)
  assert.ok(!ws.url().includes(token), 'the session token is not in the socket URL')
  await page.getByTestId('credit-value').waitFor()

  const closed = ws.waitForEvent('close', { timeout: 60_000 })
  await apiCall('POST', '/acl/auth/logout', undefined, token) // as from another device
  await closed
  await waitForPath(page, /\/login$/)
  await context.close()
})
