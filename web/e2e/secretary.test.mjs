// A poll against the real stack: the demo owner creates it, staff approve it in the
// back office, votes arrive as MO messages injected at the simulator, and the
// poll's chart follows them live while each voter's handset gets the reply.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, SIM_URL, apiToken, launch, openPage, randomDigits, shot, signInWithToken, staffLogin, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const fa = (s) => String(s).replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d])
const LINE = '500012345'

async function mo(from, text) {
  const res = await fetch(`${SIM_URL}/mo`, { method: 'POST', body: JSON.stringify({ operator: 'mci', from, to: LINE, text }) })
  assert.equal(res.status, 202, await res.text())
}

async function latest(to, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=${to}`)
    if (res.ok) return (await res.json()).text
    await new Promise((r) => setTimeout(r, 300))
  }
  throw new Error(`no message at ${to}`)
}

test('a poll is created, approved by staff, and its chart follows injected votes live', { timeout: 240_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  page.setDefaultTimeout(40_000) // a busy machine: the lazy pages take their time
  await signInWithToken(page, token, '/secretary/keywords/list')
  await page.getByTestId('reader-new').click()
  await waitForPath(page, /\/secretary\/keywords\/create$/)
  const kw = `نظرسنجی${randomDigits(4)}`
  await page.getByTestId('reader-kind').selectOption('poll')
  await page.getByTestId('reader-title').fill(`نظرسنجی رنگ ${kw}`)
  await page.getByTestId('reader-line').selectOption(LINE)
  await page.getByTestId('reader-keywords').fill(kw)
  await page.getByTestId('poll-option-0').fill('قرمز')
  await page.getByTestId('poll-option-1').fill('آبی')
  await page.getByTestId('reader-reply').fill('رأی شما به {option} ثبت شد')
  await shot(page, 'secretary-poll-create')
  await page.getByTestId('reader-save').click()
  await waitForPath(page, /\/secretary\/keywords\/\d+$/)
  const id = Number(page.url().split('/').pop())
  await page.getByTestId('reader-status').getByText('در انتظار بررسی').waitFor()

  const staff = await openPage(browser)
  staff.page.setDefaultTimeout(40_000)
  await staffLogin(staff.page)
  await staff.page.goto(`${PANEL_URL}/admin/reviews?kind=reader`)
  await staff.page.getByTestId(`approve-${id}`).click()
  await staff.page.getByTestId(`approve-${id}`).waitFor({ state: 'detached' })
  await staff.context.close()

  await page.reload()
  await page.getByTestId('reader-status').getByText('فعال').waitFor()
  await page.getByTestId('poll-total').getByText('۰ رأی').waitFor()
  const voters = [`98912${randomDigits(7)}`, `98912${randomDigits(7)}`, `98912${randomDigits(7)}`]
  await mo(voters[0], `${kw} ۱`)
  await mo(voters[1], `${kw} 1`)
  await mo(voters[2], `${kw.replace('ی', 'ي')} آبی`) // Arabic yeh in the keyword, the option by its title
  // No reload: the live inbox.received event refreshes the chart.
  await page.getByTestId('poll-votes').getByText(`${fa(1)}. قرمز: ${fa(2)}`).waitFor({ timeout: 30_000 })
  await page.getByTestId('poll-votes').getByText(`${fa(2)}. آبی: ${fa(1)}`).waitFor({ timeout: 30_000 })
  await page.getByTestId('poll-total').getByText(`${fa(3)} رأی`).waitFor()
  assert.equal(await latest(voters[0]), 'رأی شما به قرمز ثبت شد')
  assert.equal(await latest(voters[2]), 'رأی شما به آبی ثبت شد')
  await shot(page, 'secretary-poll-chart')
  await context.close()

  const mobile = await openPage(browser, MOBILE)
  mobile.page.setDefaultTimeout(40_000)
  await mobile.page.goto(`${PANEL_URL}/login`)
  await mobile.page.evaluate(() => localStorage.setItem('dark', 'true'))
  await signInWithToken(mobile.page, token, `/secretary/keywords/${id}`)
  await mobile.page.waitForFunction(() => document.documentElement.classList.contains('dark'))
  await mobile.page.getByTestId('poll-total').getByText(`${fa(3)} رأی`).waitFor()
  await shot(mobile.page, 'secretary-poll-mobile-dark')
  await mobile.page.goto(`${PANEL_URL}/secretary/keywords/list`)
  await mobile.page.getByText(fa(`نظرسنجی رنگ ${kw}`)).first().waitFor()
  await shot(mobile.page, 'secretary-list-mobile-dark')
  await mobile.context.close()

  // Editing a keyword reader: its form comes back filled, and the edit goes to review again.
  const edit = await openPage(browser)
  edit.page.setDefaultTimeout(40_000)
  await signInWithToken(edit.page, token, `/secretary/keywords/${id}`)
  await edit.page.getByTestId('reader-edit').click()
  await edit.page.waitForURL(`**/secretary/keywords/${id}/edit`)
  assert.match(await edit.page.getByTestId('reader-title').inputValue(), /^نظرسنجی رنگ /)
  await edit.page.getByTestId('reader-title').fill(`نظرسنجی رنگ ${kw} (ویرایش)`)
  await edit.page.getByTestId('reader-save').click()
  await edit.page.waitForURL(`**/secretary/keywords/${id}`)
  await edit.page.getByTestId('reader-status').getByText('در انتظار بررسی').waitFor()
  await edit.page.getByText(fa(`نظرسنجی رنگ ${kw} (ویرایش)`)).first().waitFor()
  await edit.context.close()
})
