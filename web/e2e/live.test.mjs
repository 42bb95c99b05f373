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
  // Every live socket the page opens: under load one may drop (a missed ping) and the
  // panel opens another before the logout, so the test waits on all of them, never on
  // the first alone (whose close may already be past).
  const sockets = []
  page.on('websocket', (ws) => { if (ws.url().includes('/v1/ws')) sockets.push(ws) })
  await signInWithToken(page, token)
  await page.getByTestId('credit-value').waitFor()
  if (!sockets.some((ws) => !ws.isClosed())) {
    await page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/v1/ws'), timeout: 60_000 })
  }
  for (const ws of sockets) {
    assert.match(ws.url(), /\/v1\/ws\?ticket=[\w-]+$/)
    assert.ok(!ws.url().includes(token), 'the session token is not in the socket URL')
  }

  await apiCall('POST', '/acl/auth/logout', undefined, token) // as from another device
  // Each socket still open closes (one already closed has no close event left to wait
  // for), also one the panel opened with a ticket taken just before the logout.
  const allClosed = () => Promise.all(sockets.filter((ws) => !ws.isClosed()).map((ws) => ws.waitForEvent('close', { timeout: 60_000 })))
  await allClosed()
  await waitForPath(page, /\/login$/)
  await allClosed()
  await context.close()
})
